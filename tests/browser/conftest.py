"""Fixtures of the browser tests (their helpers: _server.py)."""

import pytest
from _server import streamlit_app


@pytest.fixture(scope="module")
def app_url():
    """The base URL (ending in "/") of the app served for the browser tests: the run's one shared server
    (see ``_server.streamlit_app``)."""
    with streamlit_app("streamlit.log") as url:
        yield url

