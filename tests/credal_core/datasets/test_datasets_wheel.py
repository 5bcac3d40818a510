"""The wheel carries the data sets: every CSV, their README and generators (credal_core/datasets/data)."""
from __future__ import annotations

import zipfile

import pytest

from tests.credal_core.datasets._wheel import ROOT, build_wheel

pytestmark = pytest.mark.slow


def test_the_wheel_holds_every_data_file(tmp_path):
    names = set(zipfile.ZipFile(build_wheel(tmp_path)).namelist())
    folder = ROOT / "credal_core" / "datasets" / "data"
    shipped = {f"credal_core/datasets/data/{p.name}" for p in folder.iterdir()
               if p.suffix in (".csv", ".md", ".py")}
    assert len([n for n in shipped if n.endswith(".csv")]) == 10
    assert shipped <= names, sorted(shipped - names)
    assert "credal_core/datasets/__init__.py" in names
