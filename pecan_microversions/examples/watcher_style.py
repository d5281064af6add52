"""A Watcher-style service on the library: WSME types, WSME fault bodies.

``python -m pecan_microversions.examples.watcher_style [--port 8080]``
serves ``/v1/audits`` as service type ``infra-optim``, versions 1.0 to 1.5:

=======  ===========================================  =======================
Version  Change                                       Declared with
=======  ===========================================  =======================
1.1      ``start_time`` and ``end_time`` on audits    ``versioned(...)``
1.2      ``force`` on audits                          ``versioned(...)``
1.3      audits sort by ``name``                      ``query_params`` values
1.4      ``strategy`` on audits (``strategy_name``    ``versioned(...)``,
         null before 1.4)                             ``Computed``
1.5      ``auto_trigger`` on audits                   ``versioned(...)``
=======  ===========================================  =======================

As Watcher's, its audits show ``goal_name`` and ``strategy_name`` (null:
the strategy is chosen automatically, which the client shows as ``auto``)
and its list is also served at ``/v1/audits/detail``: the released
``watcher`` CLI reads them for ``audit list``, ``audit show`` and ``audit
create`` (``audit list --detail``).

python-watcherclient sends 1.5 unless told otherwise, and (in 4.11) fails
with a ``TypeError`` when it has to retry a 406 with a lower version, so a
Watcher-style service must serve 1.5.

What its clients (python-watcherclient) rely on, and the settings that keep
it: a malformed version is 406 (``malformed_status=406``), so is a field
used below its version (``unavailable_status=406``); ``infra-optim 1`` is
1.0 (``bare_major=True``); ``"force": null`` at 1.0 is as if absent
(``null_as_absent=True``); errors are WSME faults
(``error_renderer=wsme_fault``), the application's own faults are left as
WSME wrote them (``app_errors='keep'``), and the service's middleware wraps
them all in ``error_message``, Pecan's text pages turned into faults
(:class:`~pecan_microversions.examples.envelope.ErrorMessageEnvelope`).
Its controllers are ``VersionedRestController``: HEAD is answered wherever
GET is, and a method a URL does not take is a 405 naming what it takes.
"""

from __future__ import annotations

import datetime
import sys
import threading
import uuid as uuidlib
from typing import Any, Optional

import pecan
import wsme.exc
from wsme import types as wtypes

from pecan_microversions import (
    Computed,
    JsonPatchOperation,
    MicroversionHook,
    VersionedRestController,
    VersionRegistry,
    apply_patch,
    param,
    query_params,
    root_document,
    version_document,
    versioned,
    versioned_resource,
    versioned_wsexpose,
)
from pecan_microversions.compat import add_custom_actions
from pecan_microversions.core.rendering import wsme_fault
from pecan_microversions.demo.server import run_command
from pecan_microversions.examples.envelope import ErrorMessageEnvelope
from pecan_microversions.tools.responses import describe

__all__ = ['REGISTRY', 'Audit', 'AuditCollection', 'main', 'make_app']

REGISTRY = VersionRegistry('infra-optim', [
    ('1.0', 'Initial version.'),
    ('1.1', 'Audits have start_time and end_time.'),
    ('1.2', 'Audits can be forced (force).'),
    ('1.3', 'Audits sort by name.'),
    ('1.4', 'Audits have a strategy.'),
    ('1.5', 'Audits have auto_trigger.'),
], malformed_status=406, unavailable_status=406, bare_major=True,
    null_as_absent=True)

_PATCHABLE = frozenset(['name', 'interval', 'start_time', 'end_time'])


def _chosen_automatically(audit: Any) -> None:
    """``strategy_name`` before 1.4, where audits have no strategy: null,
    the goal's strategy chosen automatically."""
    return None


@versioned_resource(REGISTRY, 'audit')
class Audit(wtypes.Base):
    """An audit; ``start_time``/``end_time`` from 1.1, ``force`` from 1.2,
    ``strategy`` from 1.4 (``strategy_name`` null before)."""

    uuid = wtypes.wsattr(wtypes.text, readonly=True)
    name = wtypes.wsattr(wtypes.StringType(min_length=1, max_length=63))
    audit_type = wtypes.wsattr(wtypes.Enum(str, 'ONESHOT', 'CONTINUOUS'),
                               mandatory=True)
    goal = wtypes.wsattr(wtypes.text, mandatory=True)
    goal_name = wtypes.wsattr(wtypes.text, readonly=True)
    strategy_name = versioned(wtypes.text, readonly=True, changes=[
        Computed(_chosen_automatically, max_version='1.3', reads=())])
    interval = wtypes.text
    state = wtypes.wsattr(wtypes.text, readonly=True)
    start_time = versioned(wtypes.text, min_version='1.1')
    end_time = versioned(wtypes.text, min_version='1.1')
    force = versioned(bool, min_version='1.2', default=False)
    strategy = versioned(wtypes.text, min_version='1.4')
    auto_trigger = versioned(bool, min_version='1.5')
    created_at = wtypes.wsattr(wtypes.text, readonly=True)


@versioned_resource(REGISTRY, 'audit_collection')
class AuditCollection(wtypes.Base):
    """A list of audits."""

    audits = [Audit]


class _Store:
    """Audits in memory, by uuid; one lock for every change."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.audits: dict[str, dict[str, Any]] = {}


def _not_found(uuid: str) -> wsme.exc.ClientSideError:
    # The application's own error: WSME writes its fault, the hook keeps it.
    return wsme.exc.ClientSideError(f'Audit {uuid} could not be found.',
                                    status_code=404)


def _list_params(owner: str) -> Any:
    return query_params(REGISTRY, owner,
                        sort_key=param(values={'created_at': None,
                                               'goal': None, 'name': '1.3'}),
                        sort_dir=param(values={'asc': None, 'desc': None}))


class AuditsController(VersionedRestController):
    """``/v1/audits``, and its list at ``/v1/audits/detail`` (a custom
    action, as in Watcher)."""

    def __init__(self, store: _Store) -> None:
        self.store = store
        add_custom_actions(self, detail=['GET'])

    @_list_params('GET /v1/audits')
    @versioned_wsexpose(AuditCollection, wtypes.text, wtypes.text, int)
    def get_all(self, sort_key: str = 'created_at', sort_dir: str = 'asc',
                limit: Optional[int] = None) -> AuditCollection:
        return self._list(sort_key, sort_dir, limit)

    @_list_params('GET /v1/audits/detail')
    @versioned_wsexpose(AuditCollection, wtypes.text, wtypes.text, int)
    def detail(self, sort_key: str = 'created_at', sort_dir: str = 'asc',
               limit: Optional[int] = None) -> AuditCollection:
        """Watcher's detailed list: here the list itself, which already
        shows every field of the version.  (Pecan would pass
        ``/v1/audits/<x>/detail`` the segment ``<x>`` as ``sort_key``,
        which is then checked as the query parameter is.)"""
        return self._list(sort_key, sort_dir, limit)

    def _list(self, sort_key: str, sort_dir: str,
              limit: Optional[int]) -> AuditCollection:
        with self.store.lock:
            audits = sorted(self.store.audits.values(),
                            key=lambda a: (a.get(sort_key) or '', a['uuid']),
                            reverse=sort_dir == 'desc')
        if limit:
            audits = audits[:limit]
        return AuditCollection(audits=[Audit(**a) for a in audits])

    @versioned_wsexpose(Audit, wtypes.text)
    def get_one(self, uuid: str) -> Audit:
        with self.store.lock:
            stored = self.store.audits.get(uuid)
        if stored is None:
            raise _not_found(uuid)
        return Audit(**stored)

    @versioned_wsexpose(Audit, body=Audit, status_code=201)
    def post(self, audit: Audit) -> Audit:
        stored = {name: getattr(audit, name)
                  for name in ('name', 'audit_type', 'goal', 'interval',
                               'start_time', 'end_time', 'force',
                               'strategy', 'auto_trigger')
                  if getattr(audit, name) not in (wtypes.Unset, None)}
        stored.update(uuid=str(uuidlib.uuid4()), state='PENDING',
                      goal_name=stored['goal'],
                      strategy_name=stored.get('strategy'),  # None: auto
                      created_at=datetime.datetime.now(
                          datetime.timezone.utc).isoformat())
        with self.store.lock:
            self.store.audits[stored['uuid']] = stored
        return Audit(**stored)

    @versioned_wsexpose(Audit, wtypes.text, body=[JsonPatchOperation],
                        patch_of=Audit)
    def patch(self, uuid: str, patch: list[JsonPatchOperation]) -> Audit:
        with self.store.lock:
            stored = self.store.audits.get(uuid)
            if stored is None:
                raise _not_found(uuid)
            patched = apply_patch(Audit, stored, patch)
            changed = [k for k in set(stored) | set(patched)
                       if stored.get(k) != patched.get(k)]
            fixed = sorted(set(changed) - _PATCHABLE)
            if fixed:
                raise wsme.exc.ClientSideError(
                    f'Field {fixed[0]!r} cannot be patched.')
            stored.clear()
            stored.update(patched)
            return Audit(**stored)

    @versioned_wsexpose(None, wtypes.text, status_code=204)
    def delete(self, uuid: str) -> None:
        with self.store.lock:
            if self.store.audits.pop(uuid, None) is None:
                raise _not_found(uuid)


class V1Controller(VersionedRestController):
    """``/v1``."""

    def __init__(self, store: _Store) -> None:
        self.audits = AuditsController(store)

    @describe(status=200)
    @pecan.expose('json')
    def get(self) -> dict[str, Any]:
        return version_document()


class RootController(VersionedRestController):
    """``/``."""

    def __init__(self, store: _Store) -> None:
        self.v1 = V1Controller(store)

    @describe(status=200)
    @pecan.expose('json')
    def get(self) -> dict[str, Any]:
        return root_document(name='watcher-style example')


def make_app() -> Any:
    """A fresh WSGI app with an empty store, behind its error envelope."""
    app = pecan.make_app(
        RootController(_Store()),
        hooks=[MicroversionHook(REGISTRY, error_renderer=wsme_fault,
                                app_errors='keep')],
        debug=False, force_canonical=False, guess_content_type_from_ext=False)
    return ErrorMessageEnvelope(app)


def main(argv: Optional[list[str]] = None) -> int:
    """Serve the example until SIGINT or SIGTERM."""
    return run_command('python -m pecan_microversions.examples.watcher_style',
                       'Serve the Watcher-style example (infra-optim 1.0 to 1.5).',
                       make_app, argv, name='watcher-style example')


if __name__ == '__main__':
    sys.exit(main())
