"""The exception hierarchy and the framework-free client error."""

import inspect

import pytest

from pecan_microversions.core import errors
from pecan_microversions.core.errors import (
    MAX_DETAIL,
    MicroversionError,
    RequestError,
    http_code,
)


def _exception_classes():
    return [obj for _, obj in inspect.getmembers(errors, inspect.isclass)
            if issubclass(obj, BaseException)
            and obj.__module__ == errors.__name__]


def test_every_exception_is_a_microversion_error():
    classes = _exception_classes()
    assert len(classes) == len(errors.__all__)
    for cls in classes:
        assert issubclass(cls, MicroversionError), cls
        assert cls.__name__ in errors.__all__


@pytest.mark.parametrize('child, parent', [
    ('InvalidVersion', 'MicroversionError'),
    ('InvalidVersion', ValueError),
    ('ConfigurationError', ValueError),
    ('RegistryError', ValueError),
    ('DuplicateVersionError', 'RegistryError'),
    ('VersionOrderError', 'RegistryError'),
    ('VersionGapError', 'RegistryError'),
    ('EmptyDescriptionError', 'RegistryError'),
    ('UnknownVersionError', 'RegistryError'),
    ('InvertedRangeError', 'InvalidDeclarationError'),
    ('VersionedMethodError', 'InvalidDeclarationError'),
    ('OverlappingVersionsError', 'VersionedMethodError'),
    ('MismatchedExposureError', 'VersionedMethodError'),
    ('SunsetBeforeDeprecationError', 'RegistryError'),
    ('OverlappingDeprecationError', 'RegistryError'),
    ('RequestError', 'MicroversionError'),
    ('LoadError', 'MicroversionError'),
])
def test_hierarchy(child, parent):
    parent_cls = getattr(errors, parent) if isinstance(parent, str) else parent
    assert issubclass(getattr(errors, child), parent_cls)


def test_request_error_is_not_a_registry_error():
    assert not issubclass(RequestError, errors.RegistryError)
    assert not issubclass(errors.LoadError, errors.RegistryError)


def test_public_names_match_the_package():
    import pecan_microversions
    for name in ('MicroversionError', 'RequestError', 'RegistryError',
                 'InvalidVersion', 'ConfigurationError'):
        assert getattr(pecan_microversions, name) is getattr(errors, name)


def test_request_error_defaults_and_to_dict():
    error = RequestError('Bad thing.')
    assert error.code == 400
    assert error.title == 'Bad Request'
    assert error.detail == str(error) == 'Bad thing.'
    assert error.error_code == 'microversion.bad_request'
    assert error.extra_headers == {}
    assert error.to_dict() == {'status': 400,
                               'code': 'microversion.bad_request',
                               'title': 'Bad Request', 'detail': 'Bad thing.'}


def test_request_error_members_headers_and_request_id():
    error = RequestError('No.', status=406, error_code='x.y',
                         headers={'Allow': 'GET'}, min_version='1.0',
                         max_version='1.5')
    assert error.extra_headers == {'Allow': 'GET'}
    assert error.to_dict('req-1') == {
        'status': 406, 'code': 'x.y', 'title': 'Not Acceptable',
        'detail': 'No.', 'request_id': 'req-1', 'min_version': '1.0',
        'max_version': '1.5'}
    assert 'request_id' not in error.to_dict('')


def test_detail_is_cut_at_max_detail():
    assert MAX_DETAIL == 1000
    exact = RequestError('a' * MAX_DETAIL)
    assert exact.detail == 'a' * MAX_DETAIL
    long = RequestError('b' * (MAX_DETAIL + 250))
    assert long.detail.startswith('b' * MAX_DETAIL + '...')
    assert long.detail.endswith('(250 more characters)')
    assert 'b' * (MAX_DETAIL + 1) not in long.detail
    assert long.to_dict()['detail'] == long.detail


@pytest.mark.parametrize('status', [200, 302, 399, 99, 600, 999, '400',
                                    400.0])
def test_invalid_status_raises(status):
    with pytest.raises(ValueError, match=str(status)):
        RequestError('x', status=status)


@pytest.mark.parametrize('status, title', [
    (503, 'Service Unavailable'), (460, 'Client Error'),
    (599, 'Server Error'), (418, "I'm a Teapot"),
])
def test_error_statuses_and_titles(status, title):
    error = RequestError('x', status=status)
    assert error.code == status and error.title == title


@pytest.mark.parametrize('status, code', [
    (404, 'http.not_found'),
    (405, 'http.method_not_allowed'),
    (406, 'http.not_acceptable'),
    (415, 'http.unsupported_media_type'),
    (500, 'http.internal_server_error'),
    (203, 'http.non_authoritative_information'),
])
def test_http_code(status, code):
    assert http_code(status) == code


def test_load_error_keeps_its_cause():
    cause = ImportError('nope')
    error = errors.LoadError('cannot load', cause)
    assert error.cause is cause and str(error) == 'cannot load'
