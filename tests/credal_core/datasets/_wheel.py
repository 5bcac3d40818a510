"""Build the package's wheel from a copy of what ``pip install .`` reads (as test_packaging does)."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def build_wheel(tmp_path: Path) -> Path:
    """The wheel of the working tree, built in ``tmp_path`` (no build/ or egg-info in the clone)."""
    source = tmp_path / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, source / name)
    shutil.copytree(ROOT / "credal_core", source / "credal_core",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.nbi", "*.nbc"))
    wheels = tmp_path / "wheels"
    subprocess.run([sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "-q", "-w", str(wheels)],
                   check=True, capture_output=True)
    (wheel,) = wheels.glob("credal_core-*.whl")
    return wheel
