"""The package's front: lazy exports (``__all__`` / ``_WHERE``) and a module map naming every module."""
import ast
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import credal_core

PACKAGE = Path(credal_core.__file__).resolve().parent


def _fresh(code: str) -> str:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout


def test_maximal_set_is_exported_and_is_the_decision_path():
    from credal_core import maximal_set
    from credal_core._base import maximal_set as defined

    assert maximal_set is defined
    assert "maximal_set" in credal_core.__all__ and "maximal_set" in dir(credal_core)
    # rows: 0 beats 1 and 2; no dominance; a 3-cycle (its top cycle: every class); self-dominance ignored
    dom = np.zeros((4, 3, 3), dtype=bool)
    dom[0, 0, 1] = dom[0, 0, 2] = True
    dom[2, 0, 1] = dom[2, 1, 2] = dom[2, 2, 0] = True
    dom[3, 1, 1] = dom[3, 2, 0] = True
    np.testing.assert_array_equal(maximal_set(dom), [[1, 0, 0], [1, 1, 1], [1, 1, 1], [0, 1, 1]])


def test_every_exported_name_resolves_and_unknown_names_raise():
    for name in credal_core.__all__:
        assert getattr(credal_core, name).__name__ == name
    assert set(credal_core.__all__) == set(credal_core._WHERE)
    with pytest.raises(AttributeError, match="no attribute 'nothing_here'"):
        credal_core.nothing_here  # noqa: B018


def test_importing_the_package_imports_neither_sklearn_nor_numba():
    out = _fresh("import sys, credal_core; print('sklearn' in sys.modules, 'numba' in sys.modules)")
    assert out.split() == ["False", "False"]
    # the lazy export itself still loads no numba (the compiled kernels load on first use)
    out = _fresh("import sys; from credal_core import maximal_set; print('numba' in sys.modules)")
    assert out.split() == ["False"]


def _map_blocks(doc: str) -> dict:
    """The module map's words per top-level entry (``"data/"``, ``"_base"``, …): an entry's line and
    its indented lines below it."""
    blocks, current = {}, None
    for line in doc.splitlines():
        top = re.match(r"^    [├└]── (\S+)", line)
        if top:
            current = top.group(1).rstrip(",")
        if current is not None:
            blocks.setdefault(current, set()).update(w.strip(",():;") for w in line.split())
    return blocks


def test_the_module_map_names_every_module():
    doc = ast.get_docstring(ast.parse((PACKAGE / "__init__.py").read_text(encoding="utf-8")))
    blocks = _map_blocks(doc)
    every_word = set().union(*blocks.values())
    modules = sorted(path for path in PACKAGE.rglob("*.py") if "__pycache__" not in path.parts)
    missing = []
    for path in modules:
        parts = path.relative_to(PACKAGE).parts
        if path.stem == "__init__":
            if len(parts) > 1 and f"{parts[0]}/" not in blocks:
                missing.append(f"{parts[0]}/")
        elif len(parts) == 1:
            if path.stem not in every_word:
                missing.append(parts[0])
        elif path.stem not in blocks.get(f"{parts[0]}/", set()):    # named in its own subpackage's block
            missing.append("/".join(parts))
    assert not missing
