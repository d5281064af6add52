"""Both ported examples answer every method on every URL in their error
format: HEAD wherever GET is answered, a 405 naming what a URL answers, a
404 for a URL naming nothing, all inside the ``error_message`` envelope
their clients unwrap (no Pecan text page)."""

import http.client
import json
import urllib.parse

import pytest
import webtest

from pecan_microversions.examples import ironic_style, watcher_style

APPS = [(ironic_style.make_app, {'X-OpenStack-Ironic-API-Version': '1.6'}),
        (watcher_style.make_app, {'OpenStack-API-Version': 'infra-optim 1.5'})]


@pytest.fixture(params=APPS, ids=['ironic', 'watcher'])
def example(request):
    make_app, headers = request.param
    return webtest.TestApp(make_app()), headers


def _fault(response):
    assert response.content_type == 'application/json'
    fault = json.loads(response.json['error_message'])
    assert fault['faultcode'] == 'Client'
    return fault['faultstring']


@pytest.mark.parametrize('url', ['/', '/v1', '/v1/'])
def test_head_answers_as_get_does(example, url):
    api, headers = example
    got = api.get(url, headers=headers)
    head = api.head(url, headers=headers)
    assert head.status_int == 200 and head.body == b''
    assert head.headers['Content-Length'] == got.headers['Content-Length']


@pytest.mark.parametrize('method', ['POST', 'PUT', 'PATCH', 'DELETE'])
@pytest.mark.parametrize('url', ['/', '/v1'])
def test_a_method_the_url_does_not_take_is_a_405_in_the_envelope(
        example, url, method):
    api, headers = example
    refused = api.request(url, method=method, headers=headers,
                          expect_errors=True)
    assert refused.status_int == 405
    assert refused.headers['Allow'] == 'GET, HEAD'
    assert _fault(refused) == f'The method {method} is not allowed for this URL.'


@pytest.mark.parametrize('method', ['GET', 'POST', 'DELETE'])
def test_a_url_naming_nothing_is_a_404_in_the_envelope(example, method):
    api, headers = example
    missing = api.request('/v1/nosuch', method=method, headers=headers,
                          expect_errors=True)
    assert missing.status_int == 404
    assert _fault(missing)


def test_a_head_error_has_no_body_nor_a_wrong_length(example):
    api, headers = example
    missing = api.head('/v1/nosuch', headers=headers, expect_errors=True)
    assert missing.status_int == 404
    assert missing.body == b'' and 'Content-Length' not in missing.headers


def test_a_head_error_over_the_real_server(serve):
    # cheroot closes or frames a HEAD answer without Content-Length
    # correctly: the next request on the connection still works.
    url = urllib.parse.urlsplit(serve(watcher_style.make_app()))
    connection = http.client.HTTPConnection(url.hostname, url.port,
                                            timeout=10)
    try:
        for method, path, status in [('HEAD', '/v1/nosuch', 404),
                                     ('GET', '/v1', 200)]:
            connection.request(method, path)
            answer = connection.getresponse()
            body = answer.read()
            assert answer.status == status
            assert (body == b'') == (method == 'HEAD')
    finally:
        connection.close()


@pytest.mark.parametrize('method', ['PATCH', 'DELETE'])
def test_an_item_method_on_the_collection_is_a_405(method):
    api = webtest.TestApp(watcher_style.make_app())
    refused = api.request('/v1/audits', method=method, expect_errors=True)
    assert refused.status_int == 405
    assert refused.headers['Allow'] == 'GET, HEAD, POST'
    assert _fault(refused) == (f'{method} /v1/audits is not allowed: {method} '
                               'needs an item of the collection in the URL.')


def test_an_xml_fault_a_client_asked_for_goes_out_as_it_is():
    # (A DELETE: the audits themselves are JSON only, strategy_name
    # changing between versions.)
    api = webtest.TestApp(watcher_style.make_app())
    missing = api.delete('/v1/audits/nope',
                         headers={'Accept': 'application/xml'},
                         expect_errors=True)
    assert missing.status_int == 404
    assert missing.content_type == 'application/xml'
    assert b'<faultstring>Audit nope could not be found.</faultstring>' in (
        missing.body)
