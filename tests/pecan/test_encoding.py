"""The hook's UTF-8 check of a JSON body, on the environ itself."""

import io

import pytest
import webob

from pecan_microversions.pecan.encoding import check_encoding
from pecan_microversions.pecan.errors import APIError


def _environ(body, length=None):
    environ = webob.Request.blank('/', method='POST').environ
    environ.update({'CONTENT_TYPE': 'application/json',
                    'CONTENT_LENGTH': str(len(body)) if length is None
                    else length, 'wsgi.input': io.BytesIO(body)})
    return environ


def test_a_utf8_body_is_kept_for_the_next_reader():
    body = '{"name": "nœud"}'.encode()
    environ = _environ(body)
    check_encoding(environ)
    assert webob.Request(environ).body == body
    assert webob.Request(environ).json == {'name': 'nœud'}


def test_a_body_that_is_not_utf8_is_a_400():
    with pytest.raises(APIError) as info:
        check_encoding(_environ(b'{"name": "\xff"}'))
    assert info.value.code == 400


def test_a_body_webob_reads_as_empty_is_left_as_it_is():
    environ = _environ(b'{}', length='00')  # WebOb: no body to read
    stream = environ['wsgi.input']
    check_encoding(environ)
    assert environ['CONTENT_LENGTH'] == '00'
    assert environ['wsgi.input'] is stream and stream.tell() == 0
