"""Serving a class: N Streamlit workers behind HAProxy, started and supervised by ``scripts/serve.sh``.

- :mod:`.options` — the command line (``serve.sh --workers N --port P ...``), checked;
- :mod:`.haproxy` — HAProxy's configuration, rendered from ``haproxy.cfg.template``, and its install;
- :mod:`.supervisor` — the workers and the proxy started, health-checked, restarted and stopped.

Not part of the ``credal_core`` wheel: it runs the app from the repository (see docs/serving_a_class.md).
"""
