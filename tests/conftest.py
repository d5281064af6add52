"""Shared fixtures."""

import pytest
import webtest

from tests import example_app  # noqa: I001


@pytest.fixture
def app():
    """The example widget service under webtest."""
    return webtest.TestApp(example_app.make_app())
