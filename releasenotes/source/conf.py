"""Sphinx configuration for the release notes (built with reno)."""

project = 'pecan-microversions Release Notes'
extensions = ['reno.sphinxext']
master_doc = 'index'
html_theme = 'alabaster'
html_static_path = ['_static']
