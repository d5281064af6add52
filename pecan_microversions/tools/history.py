"""The version history as data and documents, derived from a registry.

Everything here is a pure function of a :class:`VersionRegistry`, built on
:mod:`pecan_microversions.core.changes` (what each version added, removed
and changed): the API as it
stands at one version (:func:`describe`), the difference between two versions
(:func:`diff`), consistency problems (:func:`check`), and the history as
reStructuredText, Markdown or JSON (:func:`render`).  The console command
``pecan-microversions`` and the Sphinx directive ``microversion-history``
print these, so the published history cannot drift from the code.

Declarations are handled generically by ``kind``, ``owner`` and ``name``: a
thing is *added* at a version when it exists there but not at the previous
one, *removed* when it existed at the previous version but not there, and
*changed* when it exists at both but through different declarations (e.g. a
method with a new implementation).  The first version's section lists
everything that exists at it.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any, NamedTuple, Optional, Union

from pecan_microversions.core.changes import (
    KIND_LABELS,
    Change,
    Grouped,
    VersionChanges,
    compare,
    group,
    surface,
    version_changes,
)
from pecan_microversions.core.deprecation import Deprecation
from pecan_microversions.core.errors import MicroversionError
from pecan_microversions.core.registry import VersionRegistry
from pecan_microversions.core.version import Version, VersionLike

__all__ = [
    'FORMATS',
    'Problem',
    'ReleaseNoteError',
    'check',
    'describe',
    'diff',
    'history_data',
    'notes_directory',
    'render',
    'render_json',
    'render_markdown',
    'render_rst',
]

#: The formats :func:`render` writes.
FORMATS = ('rst', 'markdown', 'json')
_PLACEHOLDERS = frozenset({'todo', 'tbd', 'fixme', 'xxx', 'wip', '...', '-',
                           'n/a', 'none', 'description'})

class Problem(NamedTuple):
    """A consistency problem :func:`check` found; ``str()`` is one line."""

    where: str
    message: str

    def __str__(self) -> str:
        return f'{self.where}: {self.message}'


# -- Data ---------------------------------------------------------------------

def _deprecation_dict(item: Optional[Deprecation]) -> Optional[dict[str, Any]]:
    return None if item is None else item.to_dict()


def history_data(registry: VersionRegistry,
                 source: Optional[str] = None) -> dict[str, Any]:
    """The history as a JSON-ready dict (what ``history --format json`` prints)."""
    return {
        'service_type': registry.service_type,
        'source': source,
        'min_version': str(registry.min_version),
        'max_version': str(registry.max_version),
        'versions': [{
            'version': str(v.version),
            'description': v.description,
            'deprecation': _deprecation_dict(v.deprecation),
            'added': group(v.added),
            'removed': group(v.removed),
            'changed': group(v.changed),
        } for v in version_changes(registry)],
    }


def _entry(registry: VersionRegistry, version: VersionLike) -> Version:
    if isinstance(version, str) and version.strip().lower() == 'latest':
        return registry.max_version
    return registry.known_version(version)


def describe(registry: VersionRegistry, version: VersionLike
             ) -> dict[str, Any]:
    """The API as it stands at ``version`` (``'latest'`` allowed).

    ``declarations`` maps each kind to ``{owner: [names]}``: every resource
    with its fields, every endpoint with its methods, query parameters and
    allowed values, and any other declared kind.

    :raises ~pecan_microversions.core.registry.UnknownVersionError: ``version`` is
        not in the history.
    """
    at = _entry(registry, version)
    description = dict(registry.history)[at]
    return {
        'service_type': registry.service_type,
        'version': str(at),
        'description': description,
        'served': at.matches(registry.min_version, registry.max_version),
        'deprecation': _deprecation_dict(registry.deprecation_at(at)),
        'declarations': group(Change(*k) for k in surface(registry, at)),
    }


def diff(registry: VersionRegistry, first: VersionLike,
         second: VersionLike) -> dict[str, Any]:
    """What a client sees change going from ``first`` to ``second``.

    ``added`` exists at ``second`` only, ``removed`` at ``first`` only,
    ``changed`` at both through different declarations; ``versions`` lists
    the history entries after the older and up to the newer of the two.

    :raises ~pecan_microversions.core.registry.UnknownVersionError: a version is
        not in the history.
    """
    a, b = _entry(registry, first), _entry(registry, second)
    added, removed, changed = compare(surface(registry, a),
                                       surface(registry, b))
    low, high = min(a, b), max(a, b)
    return {
        'service_type': registry.service_type,
        'from': str(a),
        'to': str(b),
        'versions': [{'version': str(e.version),
                      'description': e.description}
                     for e in registry.history if low < e.version <= high],
        'added': group(added),
        'removed': group(removed),
        'changed': group(changed),
    }


# -- Checks -------------------------------------------------------------------

def _is_placeholder(description: Any) -> bool:
    if not isinstance(description, str):
        return True
    text = description.strip().rstrip('.').strip().lower()
    return not text or text in _PLACEHOLDERS


def _mentions(text: str, version: Version) -> bool:
    pattern = rf'(?<![\d.]){version.major}\.{version.minor}(?!\d|\.\d)'
    return re.search(pattern, text) is not None


class ReleaseNoteError(MicroversionError):
    """A release note cannot be read; the message names the file."""


def _note_text(path: Path) -> str:
    try:
        lines = path.read_text(encoding='utf-8').splitlines()
    except UnicodeDecodeError as exc:
        raise ReleaseNoteError(f'Release note {path} is not UTF-8 text: '
                               f'{exc}.') from exc
    except OSError as exc:
        raise ReleaseNoteError(f'Cannot read release note {path}: '
                               f'{exc.strerror or exc}.') from exc
    return '\n'.join(line for line in lines if not line.lstrip().startswith('#'))


def _note_files(notes: Path) -> list[Path]:
    """The ``*.yaml`` note files of ``notes``, sorted: directories and
    other non-files (a FIFO) are no notes; a link to nothing is a note that
    cannot be read."""
    found = []
    for path in sorted(notes.glob('*.yaml')):
        if path.is_symlink() and not path.exists():
            raise ReleaseNoteError(
                f'Cannot read release note {path}: it is a link to '
                f'{os.readlink(path)}, which does not exist.')
        if path.is_file():
            found.append(path)
    return found


def notes_directory(releasenotes: Union[str, Path]) -> Path:
    """The reno notes directory: ``<dir>/notes`` if it exists, else ``<dir>``.

    :raises FileNotFoundError: ``releasenotes`` is not a directory.
    """
    path = Path(releasenotes)
    if not path.is_dir():
        raise FileNotFoundError(f'{path} is not a directory.')
    notes = path / 'notes'
    return notes if notes.is_dir() else path


def check(registry: VersionRegistry,
          releasenotes: Union[str, Path, None] = None) -> list[Problem]:
    """Consistency problems of ``registry``; an empty list means none.

    Reported: a declaration naming a version that is not in the history (or
    ending before it starts); a version whose description is empty or a
    placeholder (``TODO``, ``TBD``, ...); a version, other than the first,
    that declares no change; and, when ``releasenotes`` is given (a reno
    ``releasenotes/`` directory or its ``notes/``), the newest version not
    mentioned as ``X.Y`` in any ``*.yaml`` note file (comments ignored).

    :raises FileNotFoundError: ``releasenotes`` is not a directory.
    :raises ReleaseNoteError: a note cannot be read (a link to nothing
        included) or is not UTF-8, whether or not another note mentions the
        version.
    """
    problems: list[Problem] = []
    service = registry.service_type
    known = set(registry.versions)
    for d in registry.declarations():
        where = f'{service} {d.kind} {d.owner} {d.name}'
        for bound, value in (('min_version', d.min_version),
                             ('max_version', d.max_version)):
            if value is not None and value not in known:
                problems.append(Problem(
                    where, f'{bound} {value} is not in the history '
                    f'({registry.versions[0]} to {registry.max_version}).'))
        if (d.min_version is not None and d.max_version is not None
                and d.max_version < d.min_version):
            problems.append(Problem(
                where, f'max_version {d.max_version} is below min_version '
                f'{d.min_version}.'))
    for index, v in enumerate(version_changes(registry)):
        where = f'{service} {v.version}'
        if _is_placeholder(v.description):
            problems.append(Problem(
                where, f'no description (found {v.description!r}).'))
        if index and v.empty:
            problems.append(Problem(
                where, 'declares no change (declare what it added or removed, '
                "or registry.declare('behaviour', owner, what, version))."))
    if releasenotes is not None:
        notes = notes_directory(releasenotes)
        newest = registry.max_version
        # every note is read, so that one that cannot be is always reported
        texts = [_note_text(f) for f in _note_files(notes)]
        if not any(_mentions(text, newest) for text in texts):
            problems.append(Problem(
                f'{service} {newest}',
                f'no release note in {notes} mentions the newest version '
                f'{newest}.'))
    return problems


# -- Documents ----------------------------------------------------------------

def _label(kind: str, count: int) -> str:
    singular, plural = KIND_LABELS.get(
        kind, (kind.replace('_', ' ').capitalize(),
               kind.replace('_', ' ').capitalize() + 's'))
    return singular if count == 1 else plural


def _lines(grouped: Grouped, code: str) -> list[str]:
    lines = []
    for kind, owners in grouped.items():
        for owner, names in owners.items():
            shown = [n for n in names if n != '*']
            label = _label(kind, max(len(shown), 1))
            text = f'{label} {code}{owner}{code}'
            if shown:
                text += ': ' + ', '.join(f'{code}{n}{code}' for n in shown)
            lines.append(text)
    return lines


def _deprecation_line(item: Deprecation, markdown: bool) -> str:
    text = f'Deprecated on {item.deprecated_at:%Y-%m-%d}'
    sunset = item.sunset_at
    if sunset is not None:
        text += f', sunset on {sunset:%Y-%m-%d}'
    text = f'*{text}.*'
    if item.link is not None:
        text += (f' See [the deprecation notice]({item.link}).' if markdown
                 else f' See `the deprecation notice <{item.link}>`__.')
    return text


def _intro(registry: VersionRegistry, source: Optional[str],
           code: str) -> str:
    text = (f'Microversions {registry.versions[0]} to {registry.max_version} '
            f'of the {code}{registry.service_type}{code} API')
    if registry.min_version != registry.versions[0]:
        text += (f'; versions before {registry.min_version} are no longer '
                 'served')
    text += '.'
    if source is not None:
        text += (f' Generated from {code}{source}{code} by '
                 f'{code}pecan-microversions history{code}.')
    return text


def render_rst(registry: VersionRegistry,
               source: Optional[str] = None) -> str:
    """The history as a reStructuredText document, one section per version."""
    title = f'{registry.service_type} API version history'
    rule = '=' * len(title)
    out = [rule, title, rule, '', _intro(registry, source, '``'), '']
    for v in version_changes(registry):
        heading = f'Version {v.version}'
        out += [heading, '-' * len(heading), '', v.description, '']
        if v.deprecation is not None:
            out += [_deprecation_line(v.deprecation, False), '']
        out += _change_lines(v, '{}:', '*', '``')
    return '\n'.join(out).rstrip('\n') + '\n'


def _change_lines(v: VersionChanges, title: str, bullet: str,
                  code: str) -> list[str]:
    """The added/removed/changed lists of one version, in either markup.

    :param title: the label format, e.g. ``'{}:'`` or ``'**{}:**'``.
    """
    out: list[str] = []
    for label, changes in (('Added', v.added), ('Removed', v.removed),
                           ('Changed', v.changed)):
        if changes:
            out += [title.format(label), '']
            out += [f'{bullet} {line}' for line in _lines(group(changes), code)]
            out.append('')
    if v.empty:
        out += ['No declared changes.', '']
    return out


def render_markdown(registry: VersionRegistry,
                    source: Optional[str] = None) -> str:
    """The history as a Markdown document, one section per version."""
    out = [f'# {registry.service_type} API version history', '',
           _intro(registry, source, '`'), '']
    for v in version_changes(registry):
        out += [f'## Version {v.version}', '', v.description, '']
        if v.deprecation is not None:
            out += [_deprecation_line(v.deprecation, True), '']
        out += _change_lines(v, '**{}:**', '-', '`')
    return '\n'.join(out).rstrip('\n') + '\n'


def render_json(registry: VersionRegistry,
                source: Optional[str] = None) -> str:
    """The history as indented JSON (see :func:`history_data`)."""
    return json.dumps(history_data(registry, source), indent=2) + '\n'


def render(registry: VersionRegistry, format: str = 'rst',
           source: Optional[str] = None) -> str:
    """The history in ``format``: one of :data:`FORMATS`.

    :raises ValueError: an unknown format.
    """
    renderers = {'rst': render_rst, 'markdown': render_markdown,
                 'json': render_json}
    if format not in renderers:
        raise ValueError(f'Unknown format {format!r}: choose one of '
                         f'{", ".join(FORMATS)}.')
    return renderers[format](registry, source)
