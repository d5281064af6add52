"""versioned_wsexpose writes JSON with compiled views, WSME's bytes exactly.

The JSON a demo endpoint sends at each version is compared with what WSME's
own renderer writes for the same objects after response filtering (the path
the library took before the views); XML still goes through WSME.
"""

import pytest
from wsme.rest.json import encode_result

from pecan_microversions import filter_response
from pecan_microversions.demo.types import Node, NodeCollection
from pecan_microversions.demo.versions import REGISTRY
from pecan_microversions.wsme.conversion import (
    JSONValue,
    converter_of,
    from_newest,
)

VERSIONS = REGISTRY.versions
BASE = 'http://localhost'


def at(version, accept='application/json'):
    return {'OpenStack-API-Version': f'fleet {version}', 'Accept': accept}


def wsme_json(value, datatype, version):
    """WSME's bytes: of the converted JSON for a type that declares
    changes of representation (the demo's node, from 1.9), else of the
    filtered objects."""
    if converter_of(datatype) is not None:
        return encode_result(from_newest(datatype, value, version),
                             JSONValue()).encode()
    return encode_result(filter_response(value, version), datatype).encode()


@pytest.mark.parametrize('version', VERSIONS, ids=str)
def test_collection_bytes_are_wsme_bytes(api, store, version):
    response = api.get('/v1/nodes', headers=at(version))
    collection = NodeCollection(nodes=[Node.from_stored(n, BASE) for n in
                                       sorted(store.list(), key=lambda n: (
                                           n['created_at'], n['uuid']))])
    assert response.content_type == 'application/json'
    assert response.body == wsme_json(collection, NodeCollection, version)


@pytest.mark.parametrize('version', VERSIONS, ids=str)
def test_single_node_bytes_are_wsme_bytes(api, store, version):
    stored = store.list()[0]
    response = api.get(f'/v1/nodes/{stored["uuid"]}', headers=at(version))
    expected = wsme_json(Node.from_stored(stored, BASE), Node, version)
    assert response.body == expected
    # as WSME's renderer left it (WebOb drops the charset of JSON)
    assert response.headers['Content-Type'] == 'application/json'


@pytest.mark.parametrize('version', ['1.0', '1.8', '1.9'])
def test_converted_resource_is_json_only(api, store, version):
    # The demo node maps values and retypes a field between versions; WSME's
    # XML would show the newest ones to an old client, so XML is refused.
    stored = store.list()[0]
    response = api.get(f'/v1/nodes/{stored["uuid"]}',
                       headers=at(version, 'application/xml'),
                       expect_errors=True)
    assert response.status_int == 406
    assert response.json['errors'][0]['code'] == 'microversion.json_only'
    assert response.headers['OpenStack-API-Version'] == f'fleet {version}'


@pytest.mark.parametrize('accept', [
    'application/json, application/xml', 'application/xml;q=0, */*',
    'application/*', '*/*;q=0.1, application/xml'])
def test_a_json_only_resource_is_json_wherever_accept_allows(api, store,
                                                             accept):
    # Pecan picks XML for these: JSON is acceptable, so it is served.
    stored = store.list()[0]
    shown = api.get(f'/v1/nodes/{stored["uuid"]}', headers=at('1.9', accept))
    assert shown.content_type == 'application/json'
    assert shown.json['uuid'] == stored['uuid']
    created = api.post_json('/v1/nodes', {'name': 'n', 'hardware_type': 'b'},
                            headers=at('1.9', accept), status=201)
    assert created.json['name'] == 'n'


def test_a_post_refused_as_json_only_creates_nothing(api, store):
    # The 406 came after the controller had stored the node: a client
    # retrying it created one node per attempt.
    before = len(store.list())
    refused = api.post_json('/v1/nodes', {'name': 'n', 'hardware_type': 'b'},
                            headers=at('1.9', 'application/xml'),
                            expect_errors=True)
    assert refused.status_int == 406
    assert refused.json['errors'][0]['code'] == 'microversion.json_only'
    assert len(store.list()) == before


def test_a_json_only_resource_asked_for_by_an_xml_extension_is_a_406():
    import pecan
    import webtest
    from wsme import types as wtypes

    from pecan_microversions import (
        MicroversionHook,
        ValueMap,
        VersionedRestController,
        VersionRegistry,
        versioned,
        versioned_resource,
        versioned_wsexpose,
    )

    registry = VersionRegistry('ext', [('1.0', 'a'), ('1.1', 'b')])

    @versioned_resource(registry, 'thing')
    class Thing(wtypes.Base):
        state = versioned(wtypes.Enum(str, 'a', 'b'), values={'b': '1.1'},
                          changes=[ValueMap({'b': 'a'}, '1.0')])

    class Things(VersionedRestController):
        @versioned_wsexpose(Thing, wtypes.text)
        def get_one(self, ident):
            return Thing(state='b')

    class Root:
        things = Things()

    app = webtest.TestApp(pecan.make_app(
        Root(), hooks=[MicroversionHook(registry)],
        guess_content_type_from_ext=True))
    refused = app.get('/things/a.xml', expect_errors=True)
    assert refused.status_int == 406
    assert refused.json['errors'][0]['code'] == 'microversion.json_only'
    assert app.get('/things/a.json').json == {'state': 'a'}
