"""JSON bodies read strictly: what ``json.loads`` lets through is a 400."""

import json

import pytest

from pecan_microversions.core.errors import RequestError
from pecan_microversions.core.json_bodies import (
    nested_too_deep,
    raised_by_decoder,
    read_json,
)


@pytest.mark.parametrize('body', [
    b'{"a": [1, {"b": null}]}', '[]', b'1.5',
    b'[1e308, -1e-999, 1' + b'0' * 400 + b']',  # a big integer is exact
    b'["\\ud83d\\ude00"]',  # a whole surrogate pair: one character
    b'["\\uD83D\\uDE00 \\ud83d\\ude01", {"\\udbff\\udfff": 1}]',
    b'{"\\\\ud800": "\\\\udc00"}',  # an escaped backslash, then text
])
def test_json_is_read(body):
    assert read_json(body) == json.loads(body)


@pytest.mark.parametrize('body, words', [
    (b'{"a": 1, "a": 2}', "the key 'a' twice"),
    (b'[{"op": "add", "path": "/x", "path": "/y"}]', "the key 'path' twice"),
    (b'{"a": NaN}', 'holds NaN'),
    (b'[Infinity]', 'holds Infinity'),
    (b'{"a": -Infinity}', 'holds -Infinity'),
    (b'{"a": 1e999}', 'a number too large'),
    (b'[-2.5E400]', 'a number too large'),
    (b'[1' + b'0' * 400 + b'.5]', 'a number too large'),
    (b'{"a": \xff}', 'not UTF-8'),
    ('\ufeff{}'.encode(), 'not valid JSON'),
    (b'{"a": }', 'not valid JSON'),
    (b'', 'not valid JSON'),
    (b'{"a": "x\\ud800"}', '"\\ud800" alone'),
    (b'{"a": ["\\uDC00"]}', '"\\udc00" alone'),
    (b'{"\\udbff": 1}', '"\\udbff" alone'),
    (b'["\\ude00\\ud83d"]', 'surrogate pair'),  # the halves reversed
    (b'["\\ud83d\\ud83d\\ude00"]', '"\\ud83d" alone'),  # one high too many
    (b'["\\ud800\\\\ude00"]', '"\\ud800" alone'),  # then a backslash
])
def test_what_json_loads_lets_through_is_refused(body, words):
    with pytest.raises(RequestError) as info:
        read_json(body)
    assert info.value.code == 400
    assert info.value.error_code == 'microversion.invalid_body'
    assert words in info.value.detail


def test_a_body_nested_too_deeply_is_a_400_not_a_recursion_error():
    deep = b'[' * 100_000 + b']' * 100_000
    with pytest.raises(RequestError) as info:
        read_json(deep)
    assert info.value.error_code == 'microversion.body_too_deep'
    assert nested_too_deep(deep)
    assert not nested_too_deep(b'[[]]') and not nested_too_deep(b'[')


def test_raised_by_decoder_tells_the_decoders_recursion_apart():
    with pytest.raises(RecursionError) as decoding:
        json.loads('[' * 100_000 + ']' * 100_000)
    assert raised_by_decoder(decoding.value)

    def recurse():
        recurse()

    with pytest.raises(RecursionError) as elsewhere:
        recurse()
    assert not raised_by_decoder(elsewhere.value)
