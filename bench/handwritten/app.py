"""The baseline's controllers: ``/v1/nodes`` with explicit version checks."""

from __future__ import annotations

import json
import urllib.parse
from typing import Any, Optional

import jsonpatch
import jsonpointer
import pecan
from pecan import rest

from bench.handwritten.versions import (
    Fault,
    Version,
    VersionHook,
    bad_request,
    text,
)
from pecan_microversions.demo.store import NodeStore

_MAX_LIMIT = 1000
_PATCH_TYPES = ('application/json', 'application/json-patch+json')
_READ_ONLY = frozenset(['uuid', 'created_at', 'links', 'provision_state',
                        'available'])
_PATCHABLE = frozenset(['name', 'description', 'owner'])
#: Each field of a node and the versions that have it (None: no bound).
_FIELDS: dict[str, tuple[Optional[Version], Optional[Version]]] = {
    'uuid': (None, None), 'name': (None, None), 'created_at': (None, None),
    'driver': (None, (1, 5)), 'hardware_type': ((1, 6), None),
    'description': ((1, 1), None), 'owner': ((1, 4), None),
    'provision_state': (None, None), 'available': (None, (1, 8)),
    'links': (None, None)}
_OPS = ('add', 'remove', 'replace', 'move', 'copy', 'test')


def _has(name: str, version: Version) -> bool:
    low, high = _FIELDS[name]
    return (low is None or version >= low) and (high is None
                                                or version <= high)


def _range(name: str) -> str:
    low, high = _FIELDS[name]
    if low is None:
        return f'up to version {text(high)}' if high else 'at every version'
    return f'from version {text(low)} on'


def _not_found(uuid: str) -> Fault:
    return Fault(404, 'fleet.node_not_found',
                 f'Node {uuid} could not be found.')


def node_to_dict(node: dict[str, Any], version: Version,
                 base: str) -> dict[str, Any]:
    """The node as the client sees it at ``version``."""
    uuid = node['uuid']
    result = {'uuid': uuid, 'name': node['name'],
              'created_at': node['created_at'].isoformat()}
    if version >= (1, 6):
        result['hardware_type'] = node['driver']
    else:
        result['driver'] = node['driver']
    if version >= (1, 1):
        result['description'] = node['description']
    if version >= (1, 9):
        result['owner'] = None if node['owner'] is None else {
            'name': node['owner'], 'domain': node['owner_domain']}
    elif version >= (1, 4):
        result['owner'] = node['owner']
    state = node['provision_state']
    if version < (1, 9) and state == 'cancelled':
        state = 'failed'  # older clients do not know 'cancelled'
    result['provision_state'] = state
    if version <= (1, 8):
        result['available'] = node['provision_state'] == 'available'
    result['links'] = [{'rel': 'self', 'href': f'{base}/v1/nodes/{uuid}'}]
    return result


def _check_field(name: str, version: Version, label: str) -> None:
    if name not in _FIELDS:
        raise bad_request(f'Unknown field {label}.',
                          'microversion.unknown_field')
    if not _has(name, version):
        raise bad_request(
            f'Field {name!r} of node is not available at version '
            f'{text(version)}; it exists {_range(name)}.',
            'microversion.field_unavailable')


def _check_value(name: str, value: Any, mandatory: bool, version: Version,
                 patch: bool = False) -> None:
    if value is None:
        if mandatory:
            raise bad_request(f'Mandatory field {name!r} cannot be null.',
                              'microversion.null_mandatory_field')
        return
    if name == 'owner':
        _check_owner(value, version, patch)
        return
    if not isinstance(value, str):
        raise bad_request(f'Field {name!r} must be a string, not '
                          f'{type(value).__name__}.', 'fleet.invalid_value')
    if name == 'name' and not 1 <= len(value) <= 255:
        raise bad_request('Field \'name\' must be 1 to 255 characters long.',
                          'fleet.invalid_value')


def _length(value: str, most: Optional[int]) -> Optional[str]:
    """Why a string breaks WSME's length limits (1 to ``most``), if it does."""
    if not value:
        return 'Value should have a minimum character requirement of 1'
    if most is not None and len(value) > most:
        return f'Value should have a maximum character requirement of {most}'
    return None


def _check_owner(value: Any, version: Version, patch: bool) -> None:
    """A name before 1.9, an object ``{name, domain}`` from 1.9."""
    if version < (1, 9):
        if isinstance(value, dict):
            raise bad_request(f'Invalid value {value!r} for field \'owner\': '
                              f'at version {text(version)} it is a string.',
                              'microversion.invalid_value')
        if not isinstance(value, str):
            raise bad_request(f"Field 'owner' must be a string, not "
                              f'{type(value).__name__}.', 'fleet.invalid_value')
        reason = _length(value, 255)
        if reason:
            raise bad_request(f"Invalid value {value!r} for field 'owner': "
                              f'{reason}', 'microversion.invalid_value')
        return
    if not isinstance(value, dict):
        raise bad_request("Field 'owner' must be a JSON object.",
                          'microversion.invalid_body')
    for key in value:
        if key not in ('name', 'domain'):
            raise bad_request(f"Unknown field 'owner.{key}'.",
                              'microversion.unknown_field')
    if 'name' not in value:
        raise bad_request("Mandatory field 'owner.name' is missing.",
                          'microversion.missing_field')
    if value['name'] is None:
        raise bad_request("Mandatory field 'owner.name' cannot be null.",
                          'microversion.null_mandatory_field')
    # The domain may be null (the default domain), not empty.
    for key, most in (('name', 255), ('domain', None)):
        member = value.get(key)
        if member is None and key == 'domain':
            continue
        reason = ('Value should be string' if not isinstance(member, str)
                  else _length(member, most))
        if reason:
            if patch:
                raise bad_request(f'Invalid value {member!r} for field '
                                  f"'owner.{key}': {reason}",
                                  'microversion.invalid_value')
            raise bad_request(f'Invalid input for field/attribute {key}. '
                              f"Value: '{member}'. {reason}",
                              'http.bad_request')


def _mandatory(version: Version) -> tuple[str, str]:
    return 'name', 'hardware_type' if version >= (1, 6) else 'driver'


def _check_patch(ops: Any, version: Version) -> None:
    if not isinstance(ops, list):
        raise bad_request('The body must be a JSON patch (RFC 6902): a list '
                          'of operations.', 'microversion.invalid_patch')
    mandatory = _mandatory(version)
    for index, op in enumerate(ops):
        where = f'Patch operation #{index}'
        if not isinstance(op, dict):
            raise bad_request(f'{where} must be a JSON object.',
                              'microversion.invalid_patch')
        name = op.get('op')
        if name not in _OPS:
            raise bad_request(f'{where}: "op" must be one of '
                              f'{", ".join(_OPS)}, not {name!r}.',
                              'microversion.invalid_patch')
        if name in ('add', 'replace', 'test') and 'value' not in op:
            raise bad_request(f'{where} ({name}) has no "value".',
                              'microversion.invalid_patch')
        members = ('from', 'path') if name in ('move', 'copy') else ('path',)
        for member in members:
            pointer = op.get(member)
            if not isinstance(pointer, str):
                raise bad_request(f'{where} has no "{member}" string.',
                                  'microversion.invalid_patch')
            try:
                parts = jsonpointer.JsonPointer(pointer).parts
            except jsonpointer.JsonPointerException as exc:
                raise bad_request(f'{where}: invalid "{member}": {exc}.',
                                  'microversion.invalid_patch') from None
            if len(parts) != 1:
                raise bad_request(f'{where}: "{member}" must name a field.',
                                  'microversion.invalid_patch')
            field = parts[0]
            _check_field(field, version, repr(field))
            changes = name != 'test' and (member == 'path' or name == 'move')
            if changes and field in _READ_ONLY:
                raise bad_request(f'{where}: field {field!r} is read-only.',
                                  'microversion.read_only_field')
            removes = name == 'remove' or (name in ('add', 'replace')
                                           and op['value'] is None)
            if member == 'path' and removes and field in mandatory:
                raise bad_request(f'{where}: mandatory field {field!r} '
                                  'cannot be removed or set to null.',
                                  'microversion.missing_field')
        if name in ('add', 'replace'):
            _check_value(op['path'][1:], op['value'], False, version,
                         patch=True)


class _NotJSON(ValueError):
    pass


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result = dict(pairs)
    if len(result) != len(pairs):
        keys = [key for key, _ in pairs]
        twice = next(key for key in keys if keys.count(key) > 1)
        raise _NotJSON(f'The JSON body has the key {twice!r} twice in one '
                       'object.')
    return result


def _constant(name: str) -> Any:
    raise _NotJSON(f'The JSON body holds {name}, which is not a JSON number.')


_DECODER = json.JSONDecoder(object_pairs_hook=_pairs,
                            parse_constant=_constant)


def _read_json(body: bytes, not_json: str, code: str) -> Any:
    """The body as strict JSON (UTF-8, one value per key, no NaN), as the
    library reads it; ``not_json`` (``{}``: the reason) for a syntax
    error."""
    try:
        return _DECODER.decode(body.decode('utf-8'))
    except UnicodeDecodeError as exc:
        raise bad_request(f'The JSON body is not UTF-8: {exc}.',
                          'microversion.invalid_body') from None
    except _NotJSON as exc:
        raise bad_request(str(exc), 'microversion.invalid_body') from None
    except ValueError as exc:
        raise bad_request(not_json.format(exc), code) from None
    except RecursionError:
        raise bad_request('The JSON body is nested too deeply.',
                          'microversion.body_too_deep') from None


def _owner(value: Any) -> tuple[Optional[str], Optional[str]]:
    """The stored owner name and domain of an owner sent at any version."""
    if value is None:
        return None, None
    if isinstance(value, dict):
        domain = value.get('domain')  # null: the default domain
        return value['name'], 'default' if domain is None else domain
    return value, 'default'


class NodesController(rest.RestController):
    """``/v1/nodes``.

    Pecan passes query parameters, and the members of a JSON object body, as
    keyword arguments; the methods read ``request.GET`` and ``request.body``
    themselves instead, as Ironic's do.
    """

    def __init__(self, store: NodeStore) -> None:
        self.store = store

    def _handle_head(self, method: str, remainder: list[str],
                     request: Any = None) -> Any:
        # HEAD answered like GET, as the library's controllers do.
        return self._handle_get('get', remainder, request)

    @pecan.expose(content_type='application/json')
    def get_all(self, **_query: str) -> str:
        request = pecan.request
        version = request.version
        query = request.GET
        allowed: set[str] = set()
        if version >= (1, 2):
            allowed.update(('sort_key', 'sort_dir'))
            allowed.add('driver' if version <= (1, 5) else 'hardware_type')
        if version >= (1, 4):
            allowed.add('owner')
        if version >= (1, 8):
            allowed.update(('limit', 'marker'))
        for name in query:
            if name not in allowed:
                raise bad_request(
                    f'Query parameter {name!r} is not accepted at version '
                    f'{text(version)}.', 'fleet.invalid_query_parameter')
        if len(query) != len(set(query)):
            raise bad_request('A query parameter is repeated.',
                              'fleet.invalid_query_parameter')
        sort_key = query.get('sort_key', 'created_at')
        if sort_key not in ('name', 'created_at') and not (
                sort_key == 'owner' and version >= (1, 4)):
            raise bad_request(f'Cannot sort by {sort_key!r}.',
                              'fleet.invalid_query_parameter')
        sort_dir = query.get('sort_dir', 'asc')
        if sort_dir not in ('asc', 'desc'):
            raise bad_request(f'sort_dir must be asc or desc, not '
                              f'{sort_dir!r}.', 'fleet.invalid_query_parameter')
        limit = query.get('limit')
        if limit is not None and not (
                limit.isascii() and limit.isdigit() and len(limit) <= 4
                and 1 <= int(limit) <= _MAX_LIMIT):
            raise bad_request(f'limit must be a whole number from 1 to '
                              f'{_MAX_LIMIT}, not {limit!r}.',
                              'fleet.invalid_limit')

        nodes = self.store.list()
        driver = query.get('hardware_type', query.get('driver'))
        if driver is not None:
            nodes = [n for n in nodes if n['driver'] == driver]
        owner = query.get('owner')
        if owner is not None:
            nodes = [n for n in nodes if n['owner'] == owner]
        nodes.sort(key=lambda n: (n['created_at'], n['uuid']))
        present = [n for n in nodes if n[sort_key] is not None]
        present.sort(key=lambda n: n[sort_key], reverse=sort_dir == 'desc')
        nodes = present + [n for n in nodes if n[sort_key] is None]
        marker = query.get('marker')
        if marker is not None:
            position = next((i for i, n in enumerate(nodes)
                             if n['uuid'] == marker), None)
            if position is None:
                raise bad_request(
                    f'marker {marker!r} is not a node of this listing.',
                    'fleet.invalid_marker')
            nodes = nodes[position + 1:]
        base = request.application_url
        result: dict[str, Any] = {}
        if limit is not None and len(nodes) > int(limit):
            nodes = nodes[:int(limit)]
            params = [(k, v) for k, v in query.items() if k != 'marker']
            params.append(('marker', nodes[-1]['uuid']))
            result['next'] = (f'{base}/v1/nodes?'
                              f'{urllib.parse.urlencode(params)}')
        return json.dumps({'nodes': [node_to_dict(n, version, base)
                                     for n in nodes], **result})

    @pecan.expose(content_type='application/json')
    def get_one(self, uuid: str, **_query: str) -> str:
        node = self.store.get(uuid)
        if node is None:
            raise _not_found(uuid)
        request = pecan.request
        return json.dumps(node_to_dict(node, request.version,
                                       request.application_url))

    @pecan.expose(content_type='application/json')
    def post(self, **_body: Any) -> str:
        created = self._create()
        if pecan.request.version >= (1, 5):
            pecan.response.status = 201
            pecan.response.headers['Location'] = created['links'][0]['href']
        return json.dumps(created)

    def _create(self) -> dict[str, Any]:
        request = pecan.request
        version = request.version
        if request.content_type != 'application/json':
            raise Fault(415, 'http.unsupported_media_type',
                        f'Unknown mimetype: {request.content_type}')
        if not request.body:
            raise bad_request('This request needs a JSON body.',
                              'microversion.missing_body')
        body = _read_json(request.body, 'Request is not in valid JSON format',
                          'http.bad_request')
        if not isinstance(body, dict):
            raise bad_request('The body must be a JSON object.',
                              'microversion.invalid_body')
        mandatory = _mandatory(version)
        for name, value in body.items():
            _check_field(name, version, repr(name))
            if name in _READ_ONLY:
                raise bad_request(f'Field {name!r} is read-only.',
                                  'microversion.read_only_field')
            _check_value(name, value, name in mandatory, version)
        for name in mandatory:
            if name not in body:
                raise bad_request(f'Mandatory field {name!r} is missing.',
                                  'microversion.missing_field')
        owner, domain = _owner(body.get('owner'))
        node = self.store.create({
            'name': body['name'], 'driver': body[mandatory[1]],
            'description': body.get('description'),
            'owner': owner, 'owner_domain': domain})
        return node_to_dict(node, version, request.application_url)

    @pecan.expose(content_type='application/json')
    def patch(self, uuid: str, **_query: str) -> str:
        request = pecan.request
        version = request.version
        if version < (1, 3):
            raise Fault(405, 'microversion.method_not_allowed',
                        f'PATCH /v1/nodes/{uuid} is not available in version '
                        f'{text(version)}: it exists in versions 1.3 and '
                        'later.', headers={'Allow': 'GET, HEAD'})
        if request.GET:
            raise bad_request(f'Unknown query parameter '
                              f'{next(iter(request.GET))!r}.',
                              'microversion.unknown_query_parameter')
        if request.content_type not in _PATCH_TYPES:
            raise Fault(415, 'fleet.unsupported_media_type',
                        f'A patch is sent as {" or ".join(_PATCH_TYPES)}, '
                        f'not {request.content_type or "no content type"}.')
        ops = _read_json(request.body, 'The body is not valid JSON: {}.',
                         'microversion.invalid_body')
        _check_patch(ops, version)
        base = request.application_url
        with self.store.updating(uuid) as stored:
            if stored is None:
                raise _not_found(uuid)
            document = node_to_dict(stored, version, base)
            try:
                patched = jsonpatch.apply_patch(document, ops)
            except (jsonpatch.JsonPatchException,
                    jsonpointer.JsonPointerException) as exc:
                raise bad_request(f'The patch cannot be applied: {exc}',
                                  'microversion.patch_failed') from None
            for name in sorted(set(document) | set(patched)):
                if (document.get(name) != patched.get(name)
                        and name not in _PATCHABLE):
                    raise bad_request(
                        f'Field {name!r} cannot be changed by a patch.',
                        'fleet.field_not_patchable')
            mandatory = _mandatory(version)
            for name in _PATCHABLE:
                if _has(name, version):
                    _check_value(name, patched.get(name), name in mandatory,
                                 version, patch=True)
                    if name == 'owner':
                        if patched.get(name) != document.get(name):
                            if (version < (1, 9) and stored['owner']
                                    and patched.get(name) is not None
                                    and stored['owner_domain'] != 'default'):
                                raise Fault(
                                    409, 'microversion.partly_hidden_value',
                                    f"Field 'owner' of node holds more than "
                                    f'version {text(version)} shows; change '
                                    'it at a later version, which shows all '
                                    'of it.')
                            stored['owner'], stored['owner_domain'] = \
                                _owner(patched.get(name))
                    else:
                        stored[name] = patched.get(name)
        node = self.store.get(uuid)
        if node is None:
            raise _not_found(uuid)
        return json.dumps(node_to_dict(node, version, base))


class V1Controller:
    """``/v1``."""

    def __init__(self, store: NodeStore) -> None:
        self.nodes = NodesController(store)


class RootController:
    """``/``."""

    def __init__(self, store: NodeStore) -> None:
        self.v1 = V1Controller(store)


def make_app(store: Optional[NodeStore] = None) -> Any:
    """The baseline app over ``store`` (default: the demo's 3 seeds)."""
    return pecan.make_app(
        RootController(store or NodeStore.seeded()), hooks=[VersionHook()],
        debug=False, force_canonical=False, guess_content_type_from_ext=False)
