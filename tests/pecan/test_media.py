"""The body facts read from the environ are what WebOb reads."""

import io

import pytest
import webob

from pecan_microversions.pecan.media import (
    body_length,
    may_have_body,
    media_type_of,
)

_CONTENT_TYPES = [None, '', 'application/json',
                  'application/json; charset=utf-8',
                  ' Application/JSON ;charset=x', 'text/plain;;', ';',
                  'a/b; c="d;e"']
_LENGTHS = [None, '', '0', '12', ' 7 ', '-3', 'x', '1e3', '\u0661\u0662',
            '\u00b2']


@pytest.mark.parametrize('read, key, attribute, value', [
    *((media_type_of, 'CONTENT_TYPE', 'content_type', value)
      for value in _CONTENT_TYPES),
    *((body_length, 'CONTENT_LENGTH', 'content_length', value)
      for value in _LENGTHS),
])
def test_environ_reads_are_what_webob_reads(read, key, attribute, value):
    environ = webob.Request.blank('/', method='POST').environ
    environ.pop(key, None)
    if value is not None:
        environ[key] = value
    assert read(environ) == getattr(webob.Request(environ), attribute)


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
