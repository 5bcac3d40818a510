"""``python -m serving.worker run app.py [streamlit options]``: one Streamlit worker of serve.sh.

Streamlit's own command line, after :func:`app_support.routing.navigation_only`: the worker never enters
Streamlit's legacy pages-directory mode, so the first link a freshly (re)started worker receives — a
student's ``/class?code=…`` after a worker was killed mid-class, say — lands in app.py's navigation
instead of popping up "Page not found" (``/class`` is not a file name of pages/).
"""
from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> None:
    from streamlit.web import cli

    from app_support.routing import navigation_only
    from serving.warm import start_when_ready

    navigation_only()
    start_when_ready()          # the pages' first views computed while the server waits for its class
    sys.argv = ["streamlit", *(sys.argv[1:] if argv is None else argv)]
    cli.main()


if __name__ == "__main__":
    main()
