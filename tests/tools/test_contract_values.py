"""field_violations checks values and types, not only keys."""

import json

import webtest

from pecan_microversions.core.conversion import Conversion
from pecan_microversions.core.registry import VersionRegistry
from pecan_microversions.core.representations import FieldSpec, Retype
from pecan_microversions.tools.testing import Sample, field_violations


def registry():
    reg = VersionRegistry('things', [('1.0', 'First.'), ('1.1', 'Second.')])
    reg.declare('field', 'thing', 'state')
    reg.declare('field', 'thing', 'size')
    for value, low in (('ok', None), ('cancelled', '1.1')):
        reg.declare('field_value', 'thing', f'state={value}', low)
    Conversion(reg, 'thing', [FieldSpec('state'), FieldSpec(
        'size', changes=(Retype(str, int, '1.0', type_name='string'),),
        type_name='integer')])
    return reg


def serving(document):
    """A WSGI app answering every GET with ``document``."""
    def app(environ, start_response):
        start_response('200 OK', [('Content-Type', 'application/json')])
        return [json.dumps(document).encode()]
    return webtest.TestApp(app)


SAMPLE = [Sample('/thing', 'thing')]


def test_a_value_newer_than_the_version_is_reported():
    app = serving({'state': 'cancelled', 'size': '3'})
    problems = field_violations(app, registry(), SAMPLE, '1.0')
    assert len(problems) == 1
    assert "'cancelled'" in problems[0] and 'version 1.0' in problems[0]
    assert field_violations(serving({'state': 'cancelled', 'size': 3}),
                            registry(), SAMPLE, '1.1') == []


def test_a_value_of_the_wrong_type_for_the_version_is_reported():
    problems = field_violations(serving({'state': 'ok', 'size': 3}),
                                registry(), SAMPLE, '1.0')
    assert problems == ["1.0 GET /thing: thing field 'size' is 3, not a "
                        'string as at version 1.0.']
    assert field_violations(serving({'state': 'ok', 'size': '3'}),
                            registry(), SAMPLE, '1.1') != []
    assert field_violations(serving({'state': 'ok', 'size': '3'}),
                            registry(), SAMPLE, '1.0') == []
