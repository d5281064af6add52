"""A Pecan/WSME service with versioned methods and sub-resources.

Every controller style a service uses, each with version ranges that leave
a version below, inside and above them.  The ranges (history 1.0 to 1.6):

=========================================  ==================================
``GET /v1/hello``  (plain expose)           1.2 and later
``GET /v1/legacy`` (plain expose)           1.1 to 1.3
``GET /v1/greet``  (plain, two impls, gap)  1.1 to 1.2 | 1.4 to 1.5
``/v1/gadget``     (generic) GET             1.1 and later
                   POST (405 outside)        1.2 to 1.4
                   DELETE                    unversioned
``/v1/things``     (RestController, WSME)
    ``get_all``                              unversioned
    ``get_one``                              1.1 and later
    ``post``       (two impls, two schemas)  1.0 to 1.4 (200) | 1.5+ (201)
    ``put``        (405 outside)             1.2 to 1.4
    ``patch``                                1.3 and later
    ``delete``                               1.0 to 1.5
    ``GET detail`` (custom action)           1.2 and later
    ``POST <id>/rename`` (custom action)     1.3 to 1.5
    ``<id>/parts`` (sub-resource)            1.3 to 1.5
``/v1/widgets``    (RestController, pecan.expose; status in one method)
    ``post``                                 200 before 1.5, 201 from 1.5
``/v1/shelves/<s>`` (_lookup sub-resource)   1.2 to 1.4
    ``books``                                1.3 and later
``/v1/routed/...``  (_route)
    ``show``                                 1.2 to 1.4
    ``extra/`` (sub-resource)                1.3 and later
=========================================  ==================================
"""

import pecan
import pecan.routing
import wsme
from pecan import rest
from wsme import types as wtypes
from wsmeext.pecan import wsexpose

from pecan_microversions import MicroversionHook, Version, VersionRegistry, get_version
from pecan_microversions.pecan.methods import api_version
from pecan_microversions.pecan.subresources import (
    ResourceRange,
    VersionedRestController,
    versioned_subresource,
)

REGISTRY = VersionRegistry('gadget', [
    ('1.0', 'Initial version.'),
    ('1.1', 'Things by id, legacy, greet, gadget.'),
    ('1.2', 'Hello, thing detail, PUT things, POST gadget, shelves.'),
    ('1.3', 'PATCH things, rename, parts, books; greet and legacy gone.'),
    ('1.4', 'Greet comes back with a new body.'),
    ('1.5', 'POST /things answers 201 with Location; thing colour.'),
    ('1.6', 'Removals: delete, rename, parts, greet.'),
])

SHELF = ResourceRange(REGISTRY, '/v1/shelves/{shelf}', '1.2', '1.4')
EXTRA = ResourceRange(REGISTRY, '/v1/routed/extra', '1.3')


class ThingV1(wtypes.Base):
    name = wtypes.text


class ThingV2(wtypes.Base):
    name = wtypes.text
    colour = wsme.wsattr(wtypes.text, mandatory=True)


class Thing(wtypes.Base):
    name = wtypes.text
    colour = wtypes.text
    served_by = wtypes.text


class PartsController(rest.RestController):
    """``/v1/things/<id>/parts``."""

    @wsexpose([wtypes.text], wtypes.text)
    def get_all(self, thing_id):
        return [f'{thing_id}-wheel', f'{thing_id}-bolt']

    @wsexpose(wtypes.text, wtypes.text, wtypes.text)
    def get_one(self, thing_id, part):
        return f'{thing_id}/{part}'


class ThingsController(VersionedRestController):
    """``/v1/things``: a RestController of ``wsexpose`` methods."""

    _custom_actions = {'detail': ['GET'], 'rename': ['POST']}

    parts = versioned_subresource(REGISTRY, PartsController(), '1.3', '1.5',
                                  path='/v1/things/{id}/parts')

    @wsexpose([Thing])
    def get_all(self):
        return [Thing(name='a', served_by='get_all')]

    @api_version(REGISTRY, '1.1', endpoint='GET /v1/things/{id}')
    @wsexpose(Thing, wtypes.text)
    def get_one(self, ident):
        return Thing(name=ident, served_by='get_one')

    @api_version(REGISTRY, '1.0', '1.4', endpoint='POST /v1/things')
    @wsexpose(Thing, body=ThingV1)
    def post(self, body):
        return Thing(name=body.name, served_by='post 1.0')

    @post.version('1.5')
    @wsexpose(Thing, body=ThingV2, status_code=201)
    def post(self, body):
        pecan.response.headers['Location'] = (
            f'{pecan.request.host_url}/v1/things/{body.name}')
        return Thing(name=body.name, colour=body.colour, served_by='post 1.5')

    @api_version(REGISTRY, '1.2', '1.4', missing_status=405,
                 endpoint='PUT /v1/things/{id}')
    @wsexpose(Thing, wtypes.text, body=ThingV1)
    def put(self, ident, body):
        return Thing(name=body.name, served_by=f'put {ident}')

    @api_version(REGISTRY, '1.3', endpoint='PATCH /v1/things/{id}')
    @wsexpose(Thing, wtypes.text, body=ThingV1)
    def patch(self, ident, body):
        return Thing(name=body.name, served_by=f'patch {ident}')

    @api_version(REGISTRY, '1.0', '1.5', endpoint='DELETE /v1/things/{id}')
    @wsexpose(None, wtypes.text, status_code=204)
    def delete(self, ident):
        return None

    @api_version(REGISTRY, '1.2', endpoint='GET /v1/things/detail')
    @wsexpose([Thing])
    def detail(self):
        return [Thing(name='a', colour='red', served_by='detail')]

    @api_version(REGISTRY, '1.3', '1.5', endpoint='POST /v1/things/{id}/rename')
    @wsexpose(Thing, wtypes.text, body=ThingV1)
    def rename(self, ident, body):
        return Thing(name=body.name, served_by=f'rename {ident}')


class WidgetsController(rest.RestController):
    """``/v1/widgets``: plain ``pecan.expose``; one method, a version branch."""

    @pecan.expose('json')
    def get_all(self):
        return {'widgets': []}

    @pecan.expose('json')
    def post(self, **body):
        name = body.get('name', 'w')
        if get_version() >= Version(1, 5):
            pecan.response.status = 201
            pecan.response.headers['Location'] = (
                f'{pecan.request.host_url}/v1/widgets/{name}')
        return {'name': name}


class ShelfController:
    """``/v1/shelves/<shelf>/``, reached through ``_lookup``."""

    def __init__(self, shelf):
        self.shelf = shelf

    @pecan.expose('json')
    def index(self):
        return {'shelf': self.shelf}

    @api_version(REGISTRY, '1.3', endpoint='GET /v1/shelves/{shelf}/books')
    @pecan.expose('json')
    def books(self):
        return {'shelf': self.shelf, 'books': ['b1']}


class ShelvesController:
    """``/v1/shelves``: sub-controllers built per request by ``_lookup``."""

    @pecan.expose()
    def _lookup(self, shelf, *remainder):
        return SHELF.gate(ShelfController(shelf)), remainder


class ExtraController:
    @pecan.expose('json')
    def index(self):
        return {'extra': True}


class RoutedController:
    """``/v1/routed/...``: a custom ``_route``."""

    extra = EXTRA.gate(ExtraController())

    @pecan.expose()
    def _route(self, args, request=None):
        if args and args[0] == 'extra':
            return pecan.routing.lookup_controller(self.extra, args[1:],
                                                   request)
        return self.show, args

    @api_version(REGISTRY, '1.2', '1.4', endpoint='GET /v1/routed/{any}')
    @pecan.expose('json')
    def show(self, *args):
        return {'shown': list(args)}


class V1Controller:
    things = ThingsController()
    widgets = WidgetsController()
    shelves = ShelvesController()
    routed = RoutedController()

    @api_version(REGISTRY, '1.2', endpoint='GET /v1/hello')
    @pecan.expose('json')
    def hello(self, name='world'):
        return {'hello': name}

    @api_version(REGISTRY, '1.1', '1.3', endpoint='GET /v1/legacy')
    @pecan.expose('json')
    def legacy(self):
        return {'legacy': True}

    @api_version(REGISTRY, '1.1', '1.2', endpoint='GET /v1/greet')
    @pecan.expose('json')
    def greet(self, name='world'):
        return {'greeting': f'Hello, {name}'}

    @greet.version('1.4', '1.5')
    @pecan.expose('json')
    def greet(self, name='world'):
        return {'message': f'Hi {name}', 'name': name}

    @pecan.expose('json')
    def branch(self):
        """No decorator: a small branch on the version (the Nova guide)."""
        version = get_version()
        if version.matches(Version(1, 0), Version(1, 2)):
            era = 'early'
        elif version.matches(Version(1, 3), Version(1, 4)):
            era = 'middle'
        else:
            era = 'late'
        return {'era': era, 'at_least_1_5': version >= Version(1, 5)}

    @api_version(REGISTRY, '1.1', endpoint='GET /v1/gadget')
    @pecan.expose(generic=True, template='json')
    def gadget(self):
        return {'gadget': 'get'}

    @gadget.when(method='POST', template='json')
    @api_version(REGISTRY, '1.2', '1.4', missing_status=405,
                 endpoint='POST /v1/gadget')
    def _gadget_post(self):
        pecan.response.status = 201
        return {'gadget': 'post'}

    @gadget.when(method='DELETE', template='json')
    def _gadget_delete(self):
        return {'gadget': 'delete'}


class RootController:
    v1 = V1Controller()


def make_app(**kwargs):
    kwargs.setdefault('force_canonical', False)
    return pecan.make_app(RootController(), hooks=[MicroversionHook(REGISTRY)],
                          debug=False, **kwargs)
