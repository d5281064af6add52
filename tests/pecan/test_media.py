"""The body facts read from the environ are what WebOb reads."""

import io

import pytest
import webob

from pecan_microversions.pecan.media import (
    body_length,
    may_have_body,
    media_type_of,
)


@pytest.mark.parametrize('content_type', [
    None, '', 'application/json', 'application/json; charset=utf-8',
    ' Application/JSON ;charset=x', 'text/plain;;', ';', 'a/b; c="d;e"'])
def test_media_type_of_is_webobs_content_type(content_type):
    environ = webob.Request.blank('/', method='POST').environ
    environ.pop('CONTENT_TYPE', None)
    if content_type is not None:
        environ['CONTENT_TYPE'] = content_type
    assert media_type_of(environ) == webob.Request(environ).content_type


@pytest.mark.parametrize('length', [
    None, '', '0', '12', ' 7 ', '-3', 'x', '1e3', '١٢', '²'])
def test_body_length_is_webobs_content_length(length):
    environ = webob.Request.blank('/', method='POST').environ
    environ.pop('CONTENT_LENGTH', None)
    if length is not None:
        environ['CONTENT_LENGTH'] = length
    assert body_length(environ) == webob.Request(environ).content_length


def test_may_have_body_is_false_only_for_a_certainly_empty_body():
    request = webob.Request.blank('/', method='POST', body=b'{}')
    assert may_have_body(request.environ) and request.body == b'{}'
    empty = webob.Request.blank('/', method='POST')
    empty.environ['CONTENT_LENGTH'] = '0'
    assert not may_have_body(empty.environ) and empty.body == b''
    chunked = webob.Request.blank('/', method='POST')
    chunked.environ.pop('CONTENT_LENGTH', None)
    chunked.environ['wsgi.input'] = io.BytesIO(b'xyz')
    chunked.environ['wsgi.input_terminated'] = True
    assert may_have_body(chunked.environ) and chunked.body == b'xyz'
