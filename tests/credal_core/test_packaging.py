"""`pip install .` gives a working credal_core in a clean virtual environment, with the four scientific
dependencies only (no streamlit, plotly or dask), and none of the app's modules."""
from __future__ import annotations

import shutil
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow

USE = """
import importlib.util, sys
import numpy as np, pandas as pd
import credal_core
from credal_core import NCC, LNCC, NaiveBayes
X = pd.DataFrame({"a": list("xxyyxy") * 5, "b": list("pqpqqp") * 5})
y = ["c1", "c1", "c2", "c2", "c1", "c2"] * 5
sets = NCC(s=1.0).fit(X, y).predict_set(X)
assert sets.shape == (30, 2) and sets.any(axis=1).all()
assert LNCC(alpha=0.75).fit(X, y).predict_set(X).any(axis=1).all()
assert credal_core.__file__.startswith(sys.prefix), credal_core.__file__
for absent in ("streamlit", "plotly", "dask", "app_support"):
    assert importlib.util.find_spec(absent) is None, absent
print("ok")
"""


def _closure(names: list[str]) -> set[str]:
    """The installed distributions ``names`` need to run (their requirements, recursively; no extras)."""
    from importlib.metadata import distribution

    from packaging.requirements import Requirement

    seen, todo = set(), list(names)
    while todo:
        dist = distribution(todo.pop())
        if dist.metadata["Name"].lower() in seen:
            continue
        seen.add(dist.metadata["Name"].lower())
        for text in dist.requires or []:
            req = Requirement(text)
            if req.marker is None or req.marker.evaluate({"extra": ""}):
                todo.append(req.name)
    return seen


def _link_distributions(names: set[str], site: Path) -> None:
    """Make exactly these distributions importable in ``site`` (links to this environment's copies:
    a clean environment without downloading or unpacking hundreds of MB again)."""
    from importlib.metadata import distribution

    for name in names:
        dist = distribution(name)
        tops = {Path(str(f)).parts[0] for f in dist.files or []}
        for top in tops:
            if top.endswith(".dist-info") or top in ("..", "__pycache__"):
                if top.endswith(".dist-info"):
                    (site / top).symlink_to(dist.locate_file(top))
                continue
            target = dist.locate_file(top)
            if target.exists() and not (site / top).exists():
                (site / top).symlink_to(target)


def _source_copy(into: Path) -> Path:
    """What ``pip install .`` reads (pyproject.toml, README.md, credal_core/), copied: the build
    then writes its build/ and egg-info there, not in the working tree (whose stale build/ could
    otherwise end up in a wheel)."""
    into.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, into / name)
    shutil.copytree(ROOT / "credal_core", into / "credal_core",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.nbi", "*.nbc"))
    return into


def test_the_wheel_installs_and_works_in_a_clean_venv(tmp_path):
    wheels = tmp_path / "wheels"
    source = _source_copy(tmp_path / "source")
    subprocess.run([sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "-q", "-w", str(wheels)],
                   check=True, capture_output=True)
    (wheel,) = wheels.glob("credal_core-*.whl")
    archive = zipfile.ZipFile(wheel)
    names = archive.namelist()
    assert all(n.startswith(("credal_core/", "credal_core-")) for n in names), names
    # every module of the source tree is in the wheel (a stale build/ once lacked new ones)
    sources = {str(p.relative_to(ROOT)) for p in (ROOT / "credal_core").rglob("*.py")
               if "__pycache__" not in p.parts}
    assert sources <= set(names), sorted(sources - set(names))
    metadata = archive.read(next(n for n in names if n.endswith("METADATA"))).decode().splitlines()
    requires = [line.split(": ", 1)[1] for line in metadata if line.startswith("Requires-Dist")]
    core = sorted(r.split(">")[0] for r in requires if "extra ==" not in r)
    assert core == ["numpy", "pandas", "scikit-learn", "scipy"]
    env = tmp_path / "clean"
    venv.EnvBuilder(with_pip=False).create(env)
    python = env / "bin" / "python"
    where = "import sysconfig; print(sysconfig.get_paths()['purelib'])"
    site = Path(subprocess.run([str(python), "-c", where], capture_output=True, text=True,
                               check=True).stdout.strip())
    _link_distributions(_closure(core), site)
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--disable-pip-version-check",
                    "--target", str(site), str(wheel)], check=True, capture_output=True)
    done = subprocess.run([str(python), "-I", "-c", USE], cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr
