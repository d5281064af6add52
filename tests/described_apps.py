"""Small applications whose OpenAPI documents the tools once got wrong; each
is made by a ``make_*`` function (the command line loads some of them)."""

import datetime
import decimal
import functools

import pecan
from oslo_config import cfg
from pecan import rest
from wsme import types as wtypes

from pecan_microversions import (
    MicroversionHook,
    VersionedRestController,
    VersionRegistry,
    api_version,
    param,
    query_params,
    versioned,
    versioned_resource,
    versioned_wsexpose,
)
from pecan_microversions.demo.app import make_app as make_demo
from pecan_microversions.pecan.config import DEFAULT_GROUP, register_opts
from pecan_microversions.tools.responses import describe


def _app(root, registry, conf=None):
    return pecan.make_app(root, hooks=[MicroversionHook(registry, conf)],
                          debug=False, force_canonical=False)


# -- values= of a list field --------------------------------------------------

TAGS = VersionRegistry('tags', [('1.0', 'Red tags.'), ('1.1', 'Blue tags.')])


@versioned_resource(TAGS, 'tagged')
class Tagged(wtypes.Base):
    tags = versioned([wtypes.text], values={'red': None, 'blue': '1.1'})


class TaggedController(VersionedRestController):
    @versioned_wsexpose(Tagged, wtypes.text)
    def get_one(self, ident):
        return Tagged(tags=['red'])

    @versioned_wsexpose(Tagged, body=Tagged)
    def post(self, tagged):
        return tagged


class TagsRoot:
    tagged = TaggedController()


def make_tags():
    return _app(TagsRoot(), TAGS)


# -- decimal.Decimal -----------------------------------------------------------

PRICES = VersionRegistry('prices', [('1.0', 'Prices.')])


class Priced(wtypes.Base):
    price = decimal.Decimal
    when = datetime.date


class PricedController(VersionedRestController):
    @versioned_wsexpose(Priced, wtypes.text)
    def get_one(self, ident):
        return Priced(price=decimal.Decimal('1.50'),
                      when=datetime.date(2026, 1, 1))

    @versioned_wsexpose(Priced, body=Priced)
    def post(self, priced):
        return priced


class PricesRoot:
    priced = PricedController()


def make_prices():
    return _app(PricesRoot(), PRICES)


# -- decimal values ----------------------------------------------------------

RATES = VersionRegistry('rates', [('1.0', 'Rates.'), ('1.1', 'Higher.')])
_D = decimal.Decimal


@versioned_resource(RATES, 'rated')
class Rated(wtypes.Base):
    # values= checked by the library; 0.1 is no binary float
    rate = versioned(_D, values={_D('1.5'): None, _D('0.1'): None,
                                 _D('2.5'): '1.1'})
    step = wtypes.Enum(_D, _D('1.5'), _D('0.1'))  # checked by WSME


@versioned_resource(RATES, 'tenth')
class Tenth(wtypes.Base):
    # no request can send 0.1: not as a string, nor as a number
    rate = versioned(_D, values={_D('0.1'): None})


class TenthController(VersionedRestController):
    @versioned_wsexpose(Tenth, body=Tenth)
    def post(self, tenth):
        return tenth


class RatedController(VersionedRestController):
    @versioned_wsexpose(Rated, wtypes.text)
    def get_one(self, ident):
        return Rated(rate=_D('1.5'), step=_D('0.1'))

    @versioned_wsexpose(Rated, body=Rated)
    def post(self, rated):
        return rated


class RatesRoot:
    rated = RatedController()
    tenth = TenthController()


def make_rates():
    return _app(RatesRoot(), RATES)


ODD = VersionRegistry('odd', [('1.0', 'Odd.')])


class Odd(wtypes.Base):
    kind = wtypes.Enum(complex, 1j)  # a value JSON cannot hold


class OddController(VersionedRestController):
    @versioned_wsexpose(Odd, wtypes.text)
    def get_one(self, ident):
        return Odd()


class OddRoot:
    odd = OddController()


def make_odd():
    return _app(OddRoot(), ODD)


# -- query parameters with values ---------------------------------------------

QUERY = VersionRegistry('query', [('1.0', 'A.'), ('1.1', 'B.')])


class Items(VersionedRestController):
    @query_params(QUERY, 'GET /items',
                  tag=param(multiple=True, values={'a': None, 'b': '1.1'}),
                  one=param(values={'x': None, 'y': None}),
                  count=param(values={'1': None, '2': None}))
    @versioned_wsexpose([wtypes.text], [wtypes.text], [wtypes.text], int)
    def get_all(self, tag=None, one=None, count=None):
        return [str(tag), str(one), str(count)]


class ItemsRoot:
    items = Items()


def make_query():
    return _app(ItemsRoot(), QUERY)


# -- *args, **kwargs, generic controllers, mandatory arguments ------------------

PLAIN = VersionRegistry('plain', [('1.0', 'Plain Pecan.')])


class Ports(rest.RestController):
    @pecan.expose('json')
    def get_all(self, node_ident):
        return {'ports': [], 'node': node_ident}


class Nodes(rest.RestController):
    ports = Ports()

    @pecan.expose('json')
    def get_one(self, ident, *rest, **kwargs):
        return {'ident': ident}

    @pecan.expose('json')
    def post(self, **body):
        return body


class Generic:
    @pecan.expose(generic=True, template='json')
    def index(self):
        return {'method': 'GET'}

    @index.when(method='POST', template='json')
    def index_post(self):
        return {'method': 'POST'}

    @index.when(method='DELETE', template='json')
    def index_delete(self):
        return {'method': 'DELETE'}


class Things(VersionedRestController):
    @versioned_wsexpose([wtypes.text], wtypes.text, int)
    def get_all(self, name, count=1):
        return [name] * count


class PlainRoot:
    nodes = Nodes()
    generic = Generic()
    things = Things()

    @pecan.expose('json')
    def hello(self, name, greeting='hi', *, punctuation='!'):
        # Pecan passes only getfullargspec's args: punctuation never comes
        return {'text': f'{greeting} {name}{punctuation}'}

    @pecan.expose('json')
    def shout(self, name, *, volume='loud', **extra):
        # with **extra, what the query names reaches keyword-only ones
        return {'text': f'{name.upper()} {volume}'}


def make_plain():
    return _app(PlainRoot(), PLAIN)


class Factory:
    """Factories the command line calls."""

    @classmethod
    def make(cls):
        return make_plain()


make_partial = functools.partial(_app, PlainRoot(), PLAIN)


# -- implementations that differ between versions -------------------------------

SHAPES = VersionRegistry('shapes', [('1.0', 'Named.'), ('1.1', 'Sorted.'),
                                    ('1.2', 'Sized.')])


class ShapeV1(wtypes.Base):
    name = wtypes.text


class ShapeV2(wtypes.Base):
    name = wtypes.text
    size = int


class Shapes(VersionedRestController):
    @api_version(SHAPES, '1.0', '1.1', endpoint='GET /shapes/{id}')
    @versioned_wsexpose(ShapeV1, wtypes.text)
    def get_one(self, ident):
        return ShapeV1(name=ident)

    @get_one.version('1.2')
    @versioned_wsexpose(ShapeV2, wtypes.text)
    def get_one(self, ident):  # noqa: F811 - the next implementation
        return ShapeV2(name=ident, size=3)

    @api_version(SHAPES, '1.0', '1.1', endpoint='GET /shapes')
    @query_params(SHAPES, 'GET /shapes', sort=param('1.1', values={
        'name': None}))
    @versioned_wsexpose([wtypes.text], wtypes.text)
    def get_all(self, sort=None):
        return ['old', sort]

    @get_all.version('1.2')
    @query_params(SHAPES, 'GET /shapes', sort=param(values={
        'name': None, 'size': None}))
    @versioned_wsexpose([wtypes.text], wtypes.text)
    def get_all(self, sort=None):  # noqa: F811
        return ['new', sort]

    @api_version(SHAPES, '1.0', '1.0', endpoint='POST /shapes')
    @describe(headers={'X-Old': 'Only at 1.0.'}, errors=(409,))
    @versioned_wsexpose(ShapeV1, body=ShapeV1, status_code=201)
    def post(self, shape):
        pecan.response.headers['X-Old'] = 'yes'
        return shape

    @post.version('1.1')
    @versioned_wsexpose(ShapeV2, body=ShapeV2, status_code=201)
    def post(self, shape):  # noqa: F811
        return shape


class ShapesRoot:
    shapes = Shapes()


def make_shapes():
    return _app(ShapesRoot(), SHAPES)


# -- versions no longer served --------------------------------------------------

FLOOR = VersionRegistry('floor', [('1.0', 'A.'), ('1.1', 'B.'), ('1.2', 'C.'),
                                  ('1.3', 'D.')], min_version='1.2')


@versioned_resource(FLOOR, 'floored')
class Floored(wtypes.Base):
    name = wtypes.text
    old = versioned(wtypes.text, max_version='1.1')
    mid = versioned(wtypes.text, min_version='1.1')
    new = versioned(wtypes.text, min_version='1.3')


class FlooredController(VersionedRestController):
    @versioned_wsexpose(Floored, wtypes.text)
    def get_one(self, ident):
        return Floored(name=ident)

    @api_version(FLOOR, '1.0', '1.1')
    @versioned_wsexpose(None, wtypes.text, status_code=204)
    def delete(self, ident):
        pass


class FloorRoot:
    floored = FlooredController()


def make_floor(max_version=None):
    """The app, its operator capping the versions at ``max_version``."""
    conf = None
    if max_version is not None:
        conf = cfg.ConfigOpts()
        conf([], project='floor', default_config_files=[])
        register_opts(conf)
        conf.set_override('max_version', max_version, group=DEFAULT_GROUP)
    return _app(FloorRoot(), FLOOR, conf)


def make_capped_demo():
    """The demo, its operator capping it at 1.7 (the history goes to 1.9)."""
    conf = cfg.ConfigOpts()
    conf([], project='fleet-demo', default_config_files=[])
    register_opts(conf)
    conf.set_override('max_version', '1.7', group=DEFAULT_GROUP)
    return make_demo(conf)
