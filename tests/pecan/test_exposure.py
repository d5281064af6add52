"""with_arguments_of: a wrapper with a method's own arguments."""

import inspect

from pecan.util import getargspec

from pecan_microversions.pecan.exposure import with_arguments_of


def _calls(*args, **kwargs):
    return args, kwargs


def test_same_arguments_passed_on():
    def method(self, uuid, fields=None, *rest, sort='asc', **extra):
        raise AssertionError('not called')

    wrapper = with_arguments_of(method, _calls)
    assert inspect.signature(wrapper) == inspect.signature(method)
    assert wrapper('me', 'u1') == (('me', 'u1', None), {'sort': 'asc'})
    assert wrapper('me', 'u1', 'f', 'r', sort='desc', x=1) == (
        ('me', 'u1', 'f', 'r'), {'sort': 'desc', 'x': 1})


def test_keyword_only_without_star_args():
    def method(self, *, limit=10):
        raise AssertionError('not called')

    wrapper = with_arguments_of(method, _calls)
    assert wrapper('me') == (('me',), {'limit': 10})
    assert str(inspect.signature(wrapper)) == '(self, *, limit=10)'


def test_pecan_reads_the_arguments_without_searching():
    def method(self, uuid):
        raise AssertionError('not called')

    wrapper = with_arguments_of(method, _calls)
    assert wrapper.__closure__ is None
    assert getargspec(wrapper).args == ['self', 'uuid']


def test_positional_only_cannot_be_written_out():
    def method(self, uuid, /):
        raise AssertionError('not called')

    assert with_arguments_of(method, _calls) is None
