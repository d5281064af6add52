"""What the walk reads from plain Pecan controllers: the arguments Pecan
fills by name (not ``*args``/``**kwargs``), generic controllers' handlers
under their HTTP methods, mandatory arguments; the service agrees."""

import pytest
import webtest
from openapi_spec_validator import validate

from pecan_microversions.tools.openapi import openapi_document
from pecan_microversions.tools.routes import api_operations
from tests import described_apps as apps


@pytest.fixture(scope='module')
def document():
    described = openapi_document(apps.PLAIN, apps.make_plain(), '1.0')
    validate(described)
    return described


@pytest.fixture(scope='module')
def client():
    return webtest.TestApp(apps.make_plain())


def parameters(operation):
    return {(p['in'], p['name']): p['required']
            for p in operation['parameters'] if 'name' in p}


def test_star_arguments_are_neither_parameters_nor_path_segments(document,
                                                                  client):
    paths = document['paths']
    assert parameters(paths['/nodes']['post']) == {}
    assert parameters(paths['/nodes/{ident}']['get']) == {
        ('path', 'ident'): True}
    assert '/nodes/{ident}/ports' in paths
    assert not [p for p in paths if 'kwargs' in p or 'rest' in p]
    assert client.get('/nodes/n1/ports').json == {'ports': [], 'node': 'n1'}
    assert client.get('/nodes/n1/x/ports', expect_errors=True
                      ).status_int == 404


def test_ironic_example_has_no_made_up_query_parameter():
    from pecan_microversions.examples import ironic_style
    described = openapi_document(ironic_style.REGISTRY,
                                 ironic_style.make_app(), '1.6')
    validate(described)
    paths = described['paths']
    assert parameters(paths['/v1/nodes']['post']) == {}
    assert parameters(paths['/v1/nodes/{ident}']['patch']) == {
        ('path', 'ident'): True}


def test_generic_handlers_are_their_methods_on_the_controller_path(
        document, client):
    paths = document['paths']
    # the default handler takes what no handler does: GET, PUT and PATCH
    assert sorted(paths['/generic/']) == ['delete', 'get', 'patch', 'post',
                                          'put']
    assert not [p for p in paths if 'index_' in p]
    for method in ('get', 'post', 'put', 'patch', 'delete'):
        answer = getattr(client, method)('/generic/')
        handler = method.upper() if method in ('post', 'delete') else 'GET'
        assert answer.json == {'method': handler}
        operation = paths['/generic/'][method]
        assert operation['responses']['2XX']['content'][
            'application/json']['schema'] == {}
        assert ('requestBody' in operation) == (method in ('post', 'put',
                                                           'patch'))
    for path in ('/generic/index_post', '/generic/index_delete'):
        assert client.get(path, expect_errors=True).status_int == 404
        assert client.post(path, expect_errors=True).status_int == 404


def test_mandatory_arguments_are_required_query_parameters(document,
                                                           client):
    paths = document['paths']
    assert parameters(paths['/things']['get']) == {
        ('query', 'name'): True, ('query', 'count'): False}
    assert parameters(paths['/hello']['get']) == {
        ('query', 'name'): True, ('query', 'greeting'): False}
    assert parameters(paths['/shout']['get']) == {
        ('query', 'name'): True, ('query', 'volume'): False}
    for path in ('/things', '/hello', '/hello?greeting=yo', '/shout'):
        assert client.get(path, expect_errors=True).status_int == 400
    assert client.get('/things?name=a&count=2').json == ['a', 'a']
    # keyword-only without **kwargs: Pecan never passes it
    assert client.get('/hello?name=b&punctuation=%3F').json == {
        'text': 'hi b!'}
    assert client.get('/shout?name=b&volume=9').json == {'text': 'B 9'}


def test_a_class_is_not_walked():
    with pytest.raises(TypeError, match='PlainRoot is a class: give the root '
                                        'controller instance'):
        api_operations(apps.PlainRoot)
