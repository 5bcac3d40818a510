"""``python -m serving [--prog NAME] OPTIONS``: what ``scripts/serve.sh`` runs after preparing the venv."""
from .supervisor import main

raise SystemExit(main())
