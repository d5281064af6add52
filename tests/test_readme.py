"""README.rst's promises: the quick start runs and does what the text says."""

import pathlib
import textwrap

import webtest

README = pathlib.Path(__file__).resolve().parent.parent / 'README.rst'


def _quick_start_namespace():
    text = README.read_text()
    section = text[text.index('Quick start\n'):]
    block = section[section.index('.. code-block:: python'):
                    section.index('\nA request without a version')]
    code = textwrap.dedent(block.split('\n', 1)[1])
    namespace = {}
    exec(compile(code, str(README), 'exec'), namespace)
    return namespace


def test_quick_start_serves_each_version_its_fields():
    app = webtest.TestApp(_quick_start_namespace()['app'])
    assert app.get('/n1').json == {'name': 'n1'}
    assert app.get('/n1', headers={'OpenStack-API-Version': 'fleet 1.1'}
                   ).json == {'name': 'n1', 'description': 'A node.'}
    assert app.get('/n1').headers['OpenStack-API-Version'] == 'fleet 1.0'


def test_readme_holds_the_two_set_up_commands():
    text = README.read_text()
    assert ('python -m pip install -e . && python -m pecan_microversions.demo'
            in text)
    ci = (README.parent / '.ci' / 'run').read_text()
    test_command = ("sh tools/install-test-packages && "
                    "python -m pip install -e '.[test,docs]' && python -m pytest")
    assert test_command in text and test_command in ci


def test_readme_is_valid_restructuredtext():
    import io

    import docutils.core
    warnings = io.StringIO()
    docutils.core.publish_doctree(
        README.read_text(),
        settings_overrides={'warning_stream': warnings, 'report_level': 2})
    assert warnings.getvalue() == ''
