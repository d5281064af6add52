"""The documentation builds warning-free, its history page is the CLI's,
and every import of the library that its code shows works.

Sphinx builds doc/source (the text builder, into tmp_path) in-process; the
demo history page must read exactly as the ``history`` command's output
built by the same builder.
"""

import io
import re
from pathlib import Path

import pytest
from sphinx.application import Sphinx
from sphinx.util.console import nocolor
from sphinx.util.docutils import docutils_namespace, patch_docutils

from pecan_microversions.tools.cli import main
from pecan_microversions.tools.sphinxext import history_rst

SOURCE = Path(__file__).resolve().parent.parent / 'doc' / 'source'
DEMO = 'pecan_microversions.demo.versions:REGISTRY'
DEMO_IMPORT = 'pecan_microversions.demo.app'
#: ``from pecan_microversions... import ...`` (parenthesised lists too) and
#: ``import pecan_microversions...``, wherever a page shows code.
_LIBRARY_IMPORT = re.compile(
    r'^[ \t]*(from[ \t]+pecan_microversions[\w.]*[ \t]+import[ \t]+'
    r'(?:\([^)]*\)|[^\n]*)|import[ \t]+pecan_microversions[\w.]*)', re.M)


def build(srcdir, outdir, builder='text'):
    """Build as sphinx-build does; return the warnings."""
    warnings = io.StringIO()
    nocolor()
    with patch_docutils(str(srcdir)), docutils_namespace():
        app = Sphinx(str(srcdir), str(srcdir), str(outdir),
                     str(outdir / '.doctrees'), builder, status=None,
                     warning=warnings, freshenv=True)
        app.build()
    return warnings.getvalue()


@pytest.fixture(scope='module')
def docs(tmp_path_factory):
    out = tmp_path_factory.mktemp('docs')
    return out, build(SOURCE, out)


def test_docs_build_without_warnings(docs):
    _, warnings = docs
    assert warnings == ''


def test_history_page_matches_history_command(docs, tmp_path, capsys):
    out, _ = docs
    assert main(['history', DEMO, '--import', DEMO_IMPORT]) == 0
    printed = capsys.readouterr().out
    assert printed == history_rst(DEMO, [DEMO_IMPORT])
    project = tmp_path / 'cli'
    project.mkdir()
    (project / 'conf.py').write_text("master_doc = 'index'\n")
    (project / 'index.rst').write_text(printed)
    assert build(project, tmp_path / 'cli-out') == ''
    page = (out / 'demo-history.txt').read_text()
    assert page == (tmp_path / 'cli-out' / 'index.txt').read_text()
    assert 'fleet API version history' in page


def test_every_page_is_in_the_toctree():
    index = (SOURCE / 'index.rst').read_text()
    for page in SOURCE.glob('*.rst'):
        if page.stem != 'index':
            assert f'   {page.stem}\n' in index, page.name


def _library_imports():
    for page in [SOURCE.parent.parent / 'README.rst',
                 *sorted(SOURCE.glob('*.rst'))]:
        text = page.read_text()
        for match in _LIBRARY_IMPORT.finditer(text):
            line = text.count('\n', 0, match.start()) + 1
            yield f'{page.name}:{line}', match.group(1).split('#')[0].strip()


def test_the_pages_show_imports_of_the_library():
    assert len(list(_library_imports())) > 20


@pytest.mark.parametrize('where, statement', list(_library_imports()))
def test_every_library_import_the_pages_show_works(where, statement):
    exec(compile(statement, where, 'exec'), {})
