"""A Sphinx extension: the version history, rendered from the registry.

In ``conf.py``::

    extensions = ['pecan_microversions.tools.sphinxext']

and in a page::

    .. microversion-history:: myservice.api.versions:REGISTRY
       :import: myservice.api.controllers

The directive parses exactly the reStructuredText that
``pecan-microversions history`` prints for the same arguments, so the page
cannot drift from the code.  In HTML it then adds a "Fields by version"
section: for each resource, the field-by-version matrix of
:mod:`pecan_microversions.tools.matrix` as an inline SVG picture (the
``:no-matrix:`` flag leaves it out).  ``:import:`` takes modules, separated by spaces,
to import for their declarations.  A registry that does not load is a build
warning (an error under ``sphinx-build -W``).
"""

from __future__ import annotations

import sys
from typing import Any

from docutils import nodes
from docutils.parsers.rst import directives
from docutils.statemachine import StringList
from sphinx import addnodes
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import nested_parse_with_titles

from pecan_microversions.core.registry import VersionRegistry
from pecan_microversions.tools.cli import LoadError, load_registry
from pecan_microversions.tools.history import render_rst
from pecan_microversions.tools.matrix import field_matrix_svg, resources

__all__ = ['MicroversionHistoryDirective', 'history_rst', 'setup']


def history_rst(spec: str, imports: list[str] | tuple[str, ...] = ()) -> str:
    """The reStructuredText the directive parses (the CLI's ``history``).

    :raises ~pecan_microversions.tools.cli.LoadError: the registry does not load.
    """
    return render_rst(load_registry(spec, imports), spec)


class MicroversionHistoryDirective(SphinxDirective):
    """``.. microversion-history:: package.module:attribute``."""

    required_arguments = 1
    has_content = False
    option_spec = {'import': directives.unchanged,
                   'no-matrix': directives.flag}

    def run(self) -> list[nodes.Node]:
        spec = self.arguments[0]
        imports = (self.options.get('import') or '').split()
        try:
            text = history_rst(spec, imports)
        except LoadError as exc:
            raise self.error(f'microversion-history: {exc}') from None
        for name in [spec.partition(':')[0], *imports]:
            path = getattr(sys.modules.get(name), '__file__', None)
            if path:
                self.env.note_dependency(path)
        container = nodes.section()
        container.document = self.state.document
        content = StringList(text.splitlines(),
                             source=f'<microversion-history {spec}>')
        nested_parse_with_titles(self.state, content, container)
        result = list(container.children)
        if 'no-matrix' not in self.options:
            result.append(self._matrices(load_registry(spec, imports), spec))
        return result

    def _matrices(self, registry: VersionRegistry, spec: str) -> nodes.Node:
        """The "Fields by version" section, for HTML builders only."""
        section = nodes.section(ids=[nodes.make_id(
            f'{registry.service_type}-fields-by-version')])
        section += nodes.title(text='Fields by version')
        section += nodes.paragraph(
            text='Each row is a field (or a versioned value of one), each '
                 'column a version; a filled cell means the field exists '
                 'there.')
        for resource in resources(registry):
            section += nodes.rubric(text=resource)
            section += nodes.raw(
                '', f'<figure class="microversion-matrix">\n'
                    f'{field_matrix_svg(registry, resource)}</figure>\n',
                format='html')
        only = addnodes.only(expr='html')
        only += section
        return only


def setup(app: Any) -> dict[str, Any]:
    """Register the ``microversion-history`` directive."""
    app.add_directive('microversion-history', MicroversionHistoryDirective)
    return {'parallel_read_safe': True, 'parallel_write_safe': True}
