"""The contract compiled from declarations: what each version allows.

Framework-free.  :class:`ValueRule` holds, per version, the values a field
or query parameter may take; :func:`value_rule` declares them in the
registry and compiles them once, at import.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import Any, Optional, Union

from pecan_microversions.core.errors import InvalidDeclarationError, RequestError
from pecan_microversions.core.registry import VersionRegistry
from pecan_microversions.core.version import Version, VersionLike, VersionRange

__all__ = ['ValueRange', 'ValueRule', 'declare_ranged', 'value_rule']

#: A value's range: ``None`` (always), ``'X.Y'`` (its min_version) or a pair
#: ``(min_version, max_version)`` in which either may be ``None``.
ValueRange = Union[None, VersionLike, tuple[Optional[VersionLike],
                                            Optional[VersionLike]]]


class ValueRule:
    """The allowed values of one field or query parameter, by version."""

    def __init__(self, ranges: dict[Any, VersionRange],
                 versions: tuple[Version, ...], items: bool = False,
                 read: Optional[Callable[[Any], Any]] = None) -> None:
        self.ranges = ranges
        #: the rule is for each item of a list
        self.items = items
        #: reads a value sent as JSON as the field's type before it is
        #: compared (a decimal's or a date's text), or ``None``
        self.read = read
        self.allowed = {v: frozenset(value for value, r in ranges.items()
                                     if v in r)
                        for v in versions}

    def check(self, value: Any, version: Version, subject: str,
              unavailable_status: int) -> None:
        """Refuse ``value`` of ``subject`` (e.g. ``"query parameter 'x'"``)
        unless ``version`` allows it.

        :raises RequestError: ``unavailable_status`` for a value that exists
            at other versions, 400 for one that never does.
        """
        if self.items and isinstance(value, list):
            for item in value:
                self._check_one(item, version, subject, unavailable_status)
            return
        self._check_one(value, version, subject, unavailable_status)

    def _check_one(self, value: Any, version: Version, subject: str,
                   unavailable_status: int) -> None:
        key = value  # what is compared; the messages show what was sent
        if self.read is not None:
            try:
                key = self.read(value)
            except Exception:  # noqa: BLE001 - any the type's reader raises
                raise RequestError(
                    f'Invalid value {value!r} for {subject}.',
                    error_code='microversion.invalid_value') from None
        allowed = self.allowed[version]
        try:
            if key in allowed:
                return
            declared = self.ranges.get(key)
        except TypeError:  # an unhashable value (a list, a dict)
            declared = None
        if declared is not None:
            raise RequestError(
                f'Value {value!r} of {subject} is not available at version '
                f'{version}; it exists {declared}.',
                status=unavailable_status,
                error_code='microversion.value_unavailable')
        raise RequestError(
            f'Invalid value {value!r} for {subject}; allowed at version '
            f'{version}: {", ".join(sorted(map(str, allowed)))}.',
            error_code='microversion.invalid_value')


def value_rule(registry: VersionRegistry, kind: str, owner: str, name: str,
               enum_values: Optional[Collection[Any]],
               values: Mapping[Any, ValueRange], *,
               value_type: type = str, items: bool = False,
               where: Optional[str] = None,
               read: Optional[Callable[[Any], Any]] = None) -> ValueRule:
    """Declare each value's range and compile the rule.

    :param enum_values: the complete set of values when the datatype is an
        enumeration: values left out of ``values`` exist at every version.
    :param value_type: the type every value must have (``str`` for query
        parameters).
    :param items: the rule is for each item of a list field.
    :param where: names the declaration in errors (``Class.attribute``).
    :param read: reads a value sent as JSON as ``value_type`` before it is
        compared (for types JSON writes as text: decimals, dates).
    :raises ~pecan_microversions.core.errors.RegistryError: a value is not
        among ``enum_values``, a range is malformed or names an unknown
        version.
    """
    where = where or f'{kind} {owner}.{name}'
    wrong = [v for v in values if not isinstance(v, value_type) or (
        isinstance(v, bool) and value_type is not bool)]
    if wrong:
        raise InvalidDeclarationError(
            f'{where}: values= keys {wrong!r} are not of the field\'s type '
            f'{value_type.__name__}.')
    if enum_values is not None:
        unknown = [v for v in values if v not in enum_values]
        if unknown:
            raise InvalidDeclarationError(
                f'{where}: {unknown!r} not among the Enum values '
                f'{sorted(map(str, enum_values))}.')
        # sorted: declarations (and documents) in the same order every run
        specs: dict[Any, ValueRange] = dict.fromkeys(sorted(enum_values,
                                                            key=str))
        specs.update(values)
    else:
        specs = dict(values)
    if not specs:
        raise InvalidDeclarationError(f'{where}: no values.')
    ranges = {}
    for value, spec in specs.items():
        if spec is None or isinstance(spec, (str, Version)) or (
                isinstance(spec, tuple) and spec
                and isinstance(spec[0], int)):
            low, high = spec, None
        elif isinstance(spec, tuple) and len(spec) == 2:
            low, high = spec
        else:
            raise InvalidDeclarationError(
                f'{where}={value}: a value range is None, '
                f'"X.Y" or (min_version, max_version), not {spec!r}.')
        declaration = registry.declare(kind, owner, f'{name}={value}',
                                       low, high)
        ranges[value] = declaration.range
    return ValueRule(ranges, registry.versions, items, read)


def declare_ranged(registry: VersionRegistry, kind: str, owner: str,
                   name: str, min_version: Optional[VersionLike],
                   max_version: Optional[VersionLike],
                   values: Optional[Mapping[Any, ValueRange]]
                   ) -> tuple[tuple[Optional[Version], Optional[Version]],
                              Optional[ValueRule]]:
    """Declare a free-form ranged thing (a plain-dict field, a query
    parameter) and, if given, its values (kind ``<kind>_value``).

    :return: its range as ``(min_version, max_version)`` and its value
        rule, or ``None`` when any value is allowed.
    """
    declaration = registry.declare(kind, owner, name, min_version,
                                   max_version)
    rule = None if values is None else value_rule(
        registry, f'{kind}_value', owner, name, None, values)
    return (declaration.min_version, declaration.max_version), rule
