"""A resource's fields by version, drawn as an SVG matrix.

One row per field (and per versioned value of a field, ``state=deploying``),
one column per version of the history; a filled cell means the field exists
at that version.  Each cell carries ``data-field``, ``data-version`` and
``class="present"`` or ``"absent"``, and a ``<title>`` for screen readers
and tooltips.  The Sphinx directive ``microversion-history`` puts one matrix
per resource on the history page; ``pecan-microversions matrix REGISTRY
RESOURCE`` prints one.
"""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

from pecan_microversions.core.registry import Declaration, VersionRegistry

__all__ = ['field_matrix_svg', 'resources']

_CELL = 22
_GAP = 2
_ROW_LABEL_CHARS = 7  # pixels per character of a row label (estimate)
_KINDS = ('field', 'field_value')


def resources(registry: VersionRegistry) -> list[str]:
    """The resources that have field declarations, in declaration order."""
    found: dict[str, None] = {}
    for declaration in registry.declarations('field'):
        found.setdefault(declaration.owner, None)
    return list(found)


def _rows(registry: VersionRegistry,
          resource: str) -> dict[str, list[Declaration]]:
    rows: dict[str, list[Declaration]] = {}
    for kind in _KINDS:
        for declaration in registry.declarations(kind, resource):
            rows.setdefault(declaration.name, []).append(declaration)
    fields = {name for name, ds in rows.items() if ds[0].kind == 'field'}
    ordered: dict[str, list[Declaration]] = {}
    for name, declarations in rows.items():  # each value below its field
        if name in fields:
            ordered[name] = declarations
            for value, value_declarations in rows.items():
                if value.startswith(f'{name}=') and value not in fields:
                    ordered[value] = value_declarations
    return ordered


def field_matrix_svg(registry: VersionRegistry, resource: str) -> str:
    """The SVG matrix of ``resource``'s fields by version.

    :raises ValueError: ``resource`` has no field declarations.
    """
    rows = _rows(registry, resource)
    if not rows:
        raise ValueError(f'{registry.service_type} declares no fields of '
                         f'{resource!r}; resources: '
                         f'{", ".join(resources(registry)) or "none"}.')
    versions = registry.versions
    left = max(len(name) for name in rows) * _ROW_LABEL_CHARS + 12
    top = 44
    width = left + len(versions) * (_CELL + _GAP) + 10
    height = top + len(rows) * (_CELL + _GAP) + 10
    title = f'{registry.service_type} {resource}: fields by version'
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" '
        f'height="{height}" viewBox="0 0 {width} {height}" role="img" '
        f'class="microversion-matrix" '
        f'data-resource={quoteattr(resource)} '
        f'aria-label={quoteattr(title)}>',
        f'<title>{escape(title)}</title>',
        '<style>text{font:12px sans-serif;fill:#222}'
        '.present{fill:#2e7d32}.absent{fill:#eeeeee;stroke:#cccccc}'
        '</style>',
    ]
    for column, version in enumerate(versions):
        x = left + column * (_CELL + _GAP) + _CELL / 2
        parts.append(f'<text x="{x:g}" y="{top - 26}" text-anchor="middle" '
                     f'transform="rotate(-45 {x:g} {top - 26})">'
                     f'{version}</text>')
    for row, (name, declarations) in enumerate(rows.items()):
        y = top + row * (_CELL + _GAP)
        label = name if '=' not in name else f'  {name}'
        parts.append(f'<text x="4" y="{y + _CELL - 7}" '
                     f'xml:space="preserve">{escape(label)}</text>')
        parent = rows.get(name.split('=', 1)[0], []) if '=' in name else []
        for column, version in enumerate(versions):
            present = (any(d.exists_at(version) for d in declarations)
                       and all(any(d.exists_at(version) for d in parent)
                               for _ in parent[:1]))
            state = 'present' if present else 'absent'
            x = left + column * (_CELL + _GAP)
            parts.append(
                f'<rect x="{x}" y="{y}" width="{_CELL}" height="{_CELL}" '
                f'class="{state}" data-field={quoteattr(name)} '
                f'data-version="{version}"><title>{escape(name)} at '
                f'{version}: {"yes" if present else "no"}</title></rect>')
    parts.append('</svg>')
    return '\n'.join(parts) + '\n'
