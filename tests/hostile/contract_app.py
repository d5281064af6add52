"""A small service whose contract changes at every version, for the
"no way around the version contract" tests.

Versions 1.0 to 1.5 of the ``gadget`` service:

=======  =================================================================
1.1      ``colour``; ``main`` (a nested ``Part``); ``tags`` (a list of
         enum values; ``c`` from 1.4); query parameter ``colour``
1.2      ``parts`` (a list of ``Part``); ``Part.grade``; mode ``eco``;
         query parameter ``tag`` (repeatable, list syntax)
1.3      ``slots`` (a dict of ``Part``); part kind ``gear``; query
         parameter ``flt`` (a ``Part``, dotted syntax)
1.4      ``size`` and query parameter ``size`` removed (they exist to 1.3)
1.5      mode ``off`` removed (it exists to 1.4)
=======  =================================================================

Each controller records what it receives (``App.received``), in public
JSON names, so a test can check that nothing outside the request's version
got through; the store holds gadgets as JSON documents.
"""

from __future__ import annotations

import copy
from typing import Any, Optional

import pecan
import webtest
import wsme.exc
import wsme.rest.json
from pecan import rest
from wsme import types as wtypes

from pecan_microversions import (
    APIError,
    JsonPatchOperation,
    MicroversionHook,
    VersionRegistry,
    apply_patch,
    get_version,
    param,
    query_params,
    versioned,
    versioned_resource,
    versioned_wsexpose,
)

VERSIONS = ['1.0', '1.1', '1.2', '1.3', '1.4', '1.5']
SEED = 'gadget-0'

#: The reference: each field's range and each value's range, written out
#: again here (not read from the library) as ``(first, last)`` minor
#: versions of 1.x, ``None`` for unbounded.
GADGET_FIELDS = {
    'uuid': (None, None), 'name': (None, None), 'colour': (1, None),
    'size': (None, 3), 'mode': (None, None), 'main': (1, None),
    'parts': (2, None), 'slots': (3, None), 'tags': (1, None),
}
PART_FIELDS = {'label': (None, None), 'grade': (2, None), 'kind': (None, None)}
VALUES = {
    'mode': {'on': (None, None), 'eco': (2, None), 'off': (None, 4)},
    'kind': {'bolt': (None, None), 'nut': (None, None), 'gear': (3, None)},
    'tags': {'a': (None, None), 'b': (None, None), 'c': (4, None)},
}
PARAMS = {'q': (None, None), 'colour': (1, None), 'size': (None, 3),
          'mode': (None, None), 'tag': (2, None), 'flt': (3, None)}
PARAM_VALUES = {'mode': VALUES['mode'], 'tag': VALUES['tags']}


def exists(bounds: tuple[Optional[int], Optional[int]], version: str) -> bool:
    minor = int(version.split('.')[1])
    low, high = bounds
    return (low is None or minor >= low) and (high is None or minor <= high)


class App:
    """One instance of the service: its registry, types, store and app."""

    def __init__(self, unknown_query_params: str = 'reject') -> None:
        self.registry = registry = VersionRegistry(
            'gadget', [(v, f'Version {v}.') for v in VERSIONS],
            unknown_query_params=unknown_query_params)
        self.received: list[tuple[str, str, Any]] = []
        self.store: dict[str, dict[str, Any]] = {}

        @versioned_resource(registry, 'part')
        class Part(wtypes.Base):
            label = wtypes.wsattr(wtypes.text)
            grade = versioned(wtypes.text, min_version='1.2')
            kind = versioned(wtypes.Enum(str, 'bolt', 'nut', 'gear'),
                             values={'gear': '1.3'})

        @versioned_resource(registry, 'gadget')
        class Gadget(wtypes.Base):
            uuid = wtypes.wsattr(wtypes.text, readonly=True)
            name = wtypes.wsattr(wtypes.text, mandatory=True)
            colour = versioned(wtypes.text, min_version='1.1')
            size = versioned(int, max_version='1.3')
            mode = versioned(wtypes.Enum(str, 'on', 'eco', 'off'),
                             values={'eco': '1.2', 'off': (None, '1.4')})
            main = versioned(Part, min_version='1.1')
            parts = versioned([Part], min_version='1.2')
            slots = versioned({wtypes.text: Part}, min_version='1.3')
            tags = versioned([wtypes.Enum(str, 'a', 'b', 'c')],
                             min_version='1.1', values={'c': '1.4'})

        self.Part, self.Gadget = Part, Gadget
        app = self

        def record(kind: str, value: Any) -> None:
            app.received.append((kind, str(get_version()), value))

        class GadgetsController(rest.RestController):
            @query_params(
                registry, 'GET /gadgets',
                colour=param('1.1'), size=param(max_version='1.3'),
                mode=param(values={'on': None, 'eco': '1.2',
                                   'off': (None, '1.4')}),
                tag=param('1.2', multiple=True,
                          values={'a': None, 'b': None, 'c': '1.4'}),
                flt=param('1.3'))
            @versioned_wsexpose([Gadget], wtypes.text, wtypes.text, int,
                                wtypes.text, [wtypes.text], Part)
            def get_all(self, q=None, colour=None, size=None, mode=None,
                        tag=None, flt=None):
                arguments = {'q': q, 'colour': colour, 'size': size,
                             'mode': mode, 'tag': tag,
                             'flt': None if flt is None
                             else wsme.rest.json.tojson(Part, flt)}
                record('query', {k: v for k, v in arguments.items()
                                 if v is not None})
                return []

            @versioned_wsexpose(Gadget, wtypes.text)
            def get_one(self, uuid):
                if uuid not in app.store:
                    raise APIError('No such gadget.', status=404)
                return wsme.rest.json.fromjson(Gadget, {
                    k: v for k, v in app.store[uuid].items() if k != 'uuid'})

            @versioned_wsexpose(Gadget, body=Gadget, status_code=201)
            def post(self, gadget):
                record('body', wsme.rest.json.tojson(Gadget, gadget))
                return gadget

            @versioned_wsexpose(Gadget, wtypes.text, Gadget)
            def put(self, uuid, gadget):
                record('body', wsme.rest.json.tojson(Gadget, gadget))
                return gadget

            @versioned_wsexpose(Gadget, wtypes.text,
                                body=[JsonPatchOperation], patch_of=Gadget)
            def patch(self, uuid, patch):
                if uuid not in app.store:
                    raise APIError('No such gadget.', status=404)
                document = app.store[uuid]
                patched = apply_patch(Gadget, document, patch)
                try:  # types, as a body would be converted
                    wsme.rest.json.fromjson(Gadget, {
                        k: v for k, v in patched.items() if k != 'uuid'})
                except (wsme.exc.ClientSideError, ValueError,
                        TypeError) as exc:
                    raise APIError(f'Invalid value: {exc}') from None
                app.store[uuid] = patched
                return None

        class RootController:
            gadgets = GadgetsController()

        self.wsgi = pecan.make_app(
            RootController(), hooks=[MicroversionHook(registry)],
            debug=False, force_canonical=False,
            guess_content_type_from_ext=False)
        self.client = webtest.TestApp(self.wsgi)
        self.reset()

    def reset(self) -> None:
        """Forget what was received; one stored gadget using every
        version's fields and values."""
        self.received.clear()
        self.store.clear()
        self.store[SEED] = copy.deepcopy(SEED_DOCUMENT)


#: A gadget as clients of several versions left it: values of 1.0 to 1.5.
SEED_DOCUMENT: dict[str, Any] = {
    'uuid': SEED, 'name': 'seed', 'colour': 'red', 'size': 3, 'mode': 'off',
    'main': {'label': 'm', 'grade': 'g1', 'kind': 'gear'},
    'parts': [{'label': 'p0', 'kind': 'bolt'},
              {'label': 'p1', 'grade': 'g2', 'kind': 'gear'}],
    'slots': {'s0': {'label': 's', 'kind': 'nut'}},
    'tags': ['a', 'c'],
}
