"""Tools built on the library: documents, the CLI, docs and tests."""
