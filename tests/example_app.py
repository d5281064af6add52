"""A small Pecan/WSME service used by the core tests."""

import pecan
import wsme
from pecan import rest
from wsme import types as wtypes
from wsmeext.pecan import wsexpose

from pecan_microversions import (
    APIError,
    MicroversionHook,
    VersionRegistry,
    get_version,
    root_document,
    version_document,
)

REGISTRY = VersionRegistry(
    'widget',
    [('1.0', 'Initial version.'),
     ('1.1', 'Adds colour.'),
     ('1.2', 'Adds size.'),
     ('1.3', 'Adds weight.')],
    legacy_headers=['X-OpenStack-Widget-API-Version'])


class Thing(wtypes.Base):
    name = wtypes.text


class ThingsController(rest.RestController):

    @wsexpose(Thing, wtypes.text)
    def get_one(self, name):
        if name == 'missing':
            raise APIError('No such thing.', status=404,
                           error_code='widget.not_found')
        if name == 'crash':
            raise RuntimeError('boom')
        if name == 'wsme-client-error':
            raise wsme.exc.ClientSideError('Bad thing name.')
        if name == 'abort':
            pecan.abort(403, 'Not your thing.')
        if name == 'conflict':
            raise APIError('Thing is busy.', status=409,
                           error_code='widget.busy',
                           headers={'Retry-After': '5'})
        return Thing(name=name)


class ReadOnlyController(rest.RestController):
    """A RestController with only ``get``: other methods answer 405."""

    @pecan.expose('json')
    def get(self):
        return {'read': 'only'}


class OldShape:
    @pecan.expose('json')
    def index(self):
        return {'shape': 'old', 'version': str(pecan.request.api_version)}


class NewShape:
    @pecan.expose('json')
    def index(self):
        return {'shape': 'new', 'version': str(pecan.request.api_version)}


class ShapesController:
    """Routes on the version while routing: ``_lookup`` reads it."""

    @pecan.expose()
    def _lookup(self, name, *remainder):
        if name != 'current':
            pecan.abort(404)
        if pecan.request.api_version >= (1, 2):
            return NewShape(), remainder
        return OldShape(), remainder


class V1Controller:
    things = ThingsController()
    readonly = ReadOnlyController()
    shapes = ShapesController()

    @pecan.expose('json')
    def index(self):
        return version_document(links=[
            {'rel': 'things', 'href': pecan.request.application_url
             + '/v1/things'}])

    @pecan.expose('json')
    def echo(self):
        return {'version': str(get_version())}

    @pecan.expose('json')
    def crash(self):
        raise RuntimeError('boom')

    @pecan.expose('json')
    def vary(self):
        pecan.response.headers['Vary'] = 'Accept-Encoding'
        return {}

    @pecan.expose('json')
    def vary_star(self):
        pecan.response.headers['Vary'] = '*'
        return {}

    @pecan.expose('json')
    def busy(self):
        raise APIError('Widget is busy.', status=409, error_code='widget.busy',
                       headers={'Retry-After': '5'})

    @pecan.expose('json')
    def moved(self):
        pecan.redirect('/v1/echo', code=302)

    @pecan.expose(generic=True, template='json')
    def only_get(self):
        return {}

    @pecan.expose('json')
    def gone(self):
        pecan.abort(410, 'It went away.')


class RootController:
    v1 = V1Controller()

    @pecan.expose('json')
    def index(self):
        return root_document(name='widget', description='Widgets.')


def make_app(conf=None, **hook_kwargs):
    return pecan.make_app(
        RootController(),
        hooks=[MicroversionHook(REGISTRY, conf=conf, **hook_kwargs)],
        debug=False, force_canonical=False)
