"""Sphinx configuration for the pecan-microversions documentation."""

import os
import sys

sys.path.insert(0, os.path.abspath(os.path.join(__file__, '..', '..', '..')))

project = 'pecan-microversions'
copyright = 'pecan-microversions developers'
extensions = [
    'sphinx.ext.autodoc',
    'pecan_microversions.tools.sphinxext',
]
master_doc = 'index'
exclude_patterns = ['build']
html_theme = 'alabaster'
autodoc_member_order = 'bysource'
autodoc_default_options = {'members': True, 'show-inheritance': True}
