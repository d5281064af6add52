"""One operation of the combined OpenAPI document: its description at every
served version, merged part by part.

Each query parameter, request body, response status and response header is
described with the versions it exists at (an ``x-openstack`` extension
``{"min-ver": "X.Y", "max-ver": "X.Y"}`` where that is not every version of
the operation).  Where a part differs between versions, every version's
form is kept: a query parameter's allowed values are the union of the
versions' values, each value that is not always allowed with its range in
``x-openstack`` ``values``; any other difference is an ``anyOf`` of the
forms, each with its range.

A part missing at versions in between those it exists at (a query
parameter removed at 1.3 and brought back at 1.5) is marked with the whole
span: an ``x-openstack`` extension holds one range.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Sequence
from typing import Any, Optional

from pecan_microversions.core.version import Version
from pecan_microversions.tools.routes import Implementation, Operation
from pecan_microversions.tools.schema_parts import extension

__all__ = ['combined_operation']

_Versions = list[Version]
_Runs = list[tuple[_Versions, Any]]


def combined_operation(
        operation: Operation, served: Sequence[Version],
        describe: Callable[[Implementation, Version], dict[str, Any]],
        error: dict[str, Any]) -> Optional[dict[str, Any]]:
    """The combined operation object of ``operation``; ``None`` when it
    exists at no served version.

    :param served: the versions served, oldest first.
    :param describe: the operation object of an implementation at a version.
    :param error: the error response that ``#/components/responses/Error``
        names, written out where an error status exists at some versions
        only (a reference cannot carry a range).
    """
    present = [(v, operation.select(v)) for v in served]
    parts = [(v, describe(i, v)) for v, i in present if i is not None]
    if not parts:
        return None
    merge = _Merge(list(served), [v for v, _ in parts])
    described = {k: v for k, v in parts[0][1].items()
                 if k not in ('parameters', 'requestBody', 'responses')}
    described.update(merge.ranged(merge.versions))
    described['parameters'] = merge.parameters(parts)
    bodies = [(v, p['requestBody']) for v, p in parts if 'requestBody' in p]
    if bodies:
        described['requestBody'] = merge.body(bodies)
    described['responses'] = merge.responses(parts, error)
    return described


def _same(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=repr)


def _enum_holder(schema: dict[str, Any]) -> Optional[dict[str, Any]]:
    """The schema holding ``enum``: ``schema`` or its ``items``."""
    if 'enum' in schema:
        return schema
    items = schema.get('items')
    if isinstance(items, dict) and 'enum' in items:
        return items
    return None


def _without_enum(schema: dict[str, Any]) -> str:
    bare = copy.deepcopy(schema)
    holder = _enum_holder(bare)
    if holder is not None:
        holder.pop('enum')
        holder.pop('x-openstack', None)
    return _same(bare)


class _Merge:
    """Merges the parts of one operation described at ``versions``."""

    def __init__(self, served: _Versions, versions: _Versions) -> None:
        self.served = served
        self.versions = versions

    def ranged(self, versions: _Versions) -> dict[str, Any]:
        """The ``x-openstack`` extension of the span of ``versions`` (none
        where it reaches an end of the served versions)."""
        low, high = versions[0], versions[-1]
        return extension(None if low == self.served[0] else low,
                         None if high == self.served[-1] else high)

    def within(self, versions: _Versions, whole: _Versions
               ) -> dict[str, Any]:
        """:meth:`ranged`, unless ``versions`` are all of ``whole``."""
        return {} if versions == whole else self.ranged(versions)

    def runs(self, items: list[tuple[Version, Any]]) -> _Runs:
        """``items`` grouped into runs of equal values at consecutive
        versions of the operation."""
        runs: _Runs = []
        previous = -2
        for version, value in items:
            index = self.versions.index(version)
            if (runs and index == previous + 1
                    and _same(runs[-1][1]) == _same(value)):
                runs[-1][0].append(version)
            else:
                runs.append(([version], value))
            previous = index
        return runs

    def schema(self, runs: _Runs, present: _Versions) -> dict[str, Any]:
        """One schema for the schemas of ``runs``."""
        if len({_same(s) for _, s in runs}) == 1:
            return copy.deepcopy(runs[0][1])
        if all(_enum_holder(s) is not None for _, s in runs) and len(
                {_without_enum(s) for _, s in runs}) == 1:
            merged = self._union(runs, present)
            if merged is not None:
                return merged
        return {'anyOf': [{**copy.deepcopy(s), **self.ranged(versions)}
                          for versions, s in runs]}

    def _media(self, runs: _Runs, present: _Versions) -> dict[str, Any]:
        """The schema of one media type, ranged where the body or answer
        has it at some of its versions only."""
        versions = [v for vs, _ in runs for v in vs]
        schema = self.schema(runs, versions)
        if versions != present and 'anyOf' not in schema:
            schema.update(self.ranged(versions))
        return schema

    def _union(self, runs: _Runs, present: _Versions
               ) -> Optional[dict[str, Any]]:
        """The schema allowing every run's values, each value not allowed
        at every version with its range; ``None`` when a value's versions
        are not one range."""
        found: dict[str, tuple[Any, _Versions]] = {}
        for versions, schema in runs:
            holder = _enum_holder(schema)
            assert holder is not None
            for value in holder['enum']:
                found.setdefault(_same(value), (value, []))[1].extend(
                    versions)
        bounded = {}
        for value, versions in found.values():
            versions.sort()
            if versions == present:
                continue
            first = present.index(versions[0])
            if present[first:first + len(versions)] != versions:
                return None  # allowed, refused, allowed again
            bounded[str(value)] = self.ranged(versions).get('x-openstack')
        merged = copy.deepcopy(runs[0][1])
        holder = _enum_holder(merged)
        assert holder is not None
        holder['enum'] = sorted((v for v, _ in found.values()), key=str)
        bounded = {k: v for k, v in bounded.items() if v}
        if bounded:
            holder['x-openstack'] = {'values': bounded}
        else:
            holder.pop('x-openstack', None)
        return merged

    def parameters(self, parts: list[tuple[Version, dict[str, Any]]]
                   ) -> list[dict[str, Any]]:
        """Each parameter once, by name and location (or reference)."""
        found: dict[str, list[tuple[Version, dict[str, Any]]]] = {}
        for version, described in parts:
            for parameter in described['parameters']:
                key = parameter.get('$ref') or _same(
                    [parameter['name'], parameter['in']])
                found.setdefault(key, []).append((version, parameter))
        result = []
        for items in found.values():
            first = items[0][1]
            if '$ref' in first:
                result.append(first)
                continue
            present = [v for v, _ in items]
            merged = {k: v for k, v in first.items() if k != 'schema'}
            merged['required'] = all(p['required'] for _, p in items)
            merged['schema'] = self.schema(
                [(vs, p['schema']) for vs, p in self.runs(items)], present)
            merged.update(self.within(present, self.versions))
            result.append(merged)
        return result

    def body(self, bodies: list[tuple[Version, dict[str, Any]]]
             ) -> dict[str, Any]:
        """The request body: every version's schema per media type."""
        present = [v for v, _ in bodies]
        runs = self.runs(bodies)
        if len(runs) == 1 and present == self.versions:
            return copy.deepcopy(runs[0][1])
        media_types = sorted({t for _, b in bodies for t in b['content']})
        merged: dict[str, Any] = {
            'required': present == self.versions and all(
                b['required'] for _, b in bodies),
            'content': {t: {'schema': self._media(
                [(vs, b['content'][t]['schema']) for vs, b in runs
                 if t in b['content']], present)} for t in media_types}}
        merged.update(self.within(present, self.versions))
        return merged

    def responses(self, parts: list[tuple[Version, dict[str, Any]]],
                  error: dict[str, Any]) -> dict[str, Any]:
        """Each status once, with every version's body and headers."""
        found: dict[str, list[tuple[Version, dict[str, Any]]]] = {}
        for version, described in parts:
            for status, response in described['responses'].items():
                found.setdefault(status, []).append((version, response))
        result: dict[str, Any] = {}
        for status, items in sorted(found.items()):
            present = [v for v, _ in items]
            if present == self.versions and all(
                    '$ref' in r for _, r in items):
                result[status] = items[0][1]
                continue
            resolved = [(v, error if '$ref' in r else r) for v, r in items]
            result[status] = self._response(resolved, present)
        return result

    def _response(self, items: list[tuple[Version, dict[str, Any]]],
                  present: _Versions) -> dict[str, Any]:
        runs = self.runs(items)
        if len(runs) == 1:
            response = copy.deepcopy(runs[0][1])
        else:
            response = {'description': items[0][1]['description']}
            headers: dict[str, list[tuple[Version, Any]]] = {}
            for version, answer in items:
                for name, header in answer.get('headers', {}).items():
                    headers.setdefault(name, []).append((version, header))
            if headers:
                response['headers'] = {
                    name: self._header(found, present)
                    for name, found in headers.items()}
            media_types = sorted({t for _, r in items
                                  for t in r.get('content', {})})
            if media_types:
                response['content'] = {t: {'schema': self._media(
                    [(vs, r['content'][t]['schema']) for vs, r in runs
                     if t in r.get('content', {})], present)}
                    for t in media_types}
        response.update(self.within(present, self.versions))
        return response

    def _header(self, found: list[tuple[Version, Any]],
                present: _Versions) -> Any:
        header = copy.deepcopy(found[0][1])
        if '$ref' not in header:  # a reference cannot carry a range
            header.update(self.within([v for v, _ in found], present))
        return header
