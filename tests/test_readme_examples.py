"""Every ```python block of README.md runs verbatim against the installed wheel, outside the clone, and
prints what its comments say.

How (the slow test): the wheel is built from the working tree, installed with ``pip install
"<wheel>[fast]"`` (plus any other extra the README's ``pip install`` lines name, e.g. ``[fast,bayes]``)
into a fresh virtual environment in a temporary directory, and each block runs there with that
environment's ``python -I`` (isolated: neither the clone nor the current directory is importable), in
its own empty temporary directory.  Without network the install falls back to the wheel alone, linked
to this environment's copies of its dependencies (numba included when installed here) — the test says
so in a warning.

The convention for expected output (README authors, read this): a line of a block that prints ends
with a comment ``# prints: TEXT``; TEXT is the line the block prints there.  The printed lines, in
order, must contain the TEXTs of the block, in the same order, each as a whole line; spaces are
normalised (runs of blanks count as one, ends stripped) and ``...`` in TEXT matches any characters
(``# prints: True 10.0`` must be printed exactly so; ``# prints: accuracy ...`` any line starting with
``accuracy``).  Output without a ``# prints:`` comment (a DataFrame, say) is not checked, but every block
must run without error, and the README must state at least one expected line.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
import venv
import warnings
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
BLOCK = re.compile(r"^```python[ \t]*\n(.*?)^```", re.S | re.M)
PRINTS = re.compile(r"#\s*prints:\s?(.*)$")


def python_blocks(text: str) -> list[str]:
    """The ```python blocks of a Markdown text, verbatim."""
    return BLOCK.findall(text)


def expected_lines(block: str) -> list[str]:
    """The TEXTs of the block's ``# prints: TEXT`` comments, in order."""
    out = []
    for line in block.splitlines():
        match = PRINTS.search(line)
        if match:
            out.append(match.group(1).strip())
    return out


def _normal(text: str) -> str:
    return " ".join(text.split())


def _pattern(expected: str) -> re.Pattern:
    parts = [re.escape(part) for part in _normal(expected).split("...")]
    return re.compile(".*".join(parts))


def output_problems(block: str, stdout: str) -> list[str]:
    """What differs between the block's ``# prints:`` comments and what it printed ([] if nothing)."""
    printed = [_normal(line) for line in stdout.splitlines()]
    position = 0
    for expected in expected_lines(block):
        pattern = _pattern(expected)
        while position < len(printed) and not pattern.fullmatch(printed[position]):
            position += 1
        if position == len(printed):
            return [f"expected a printed line {expected!r} (after the lines matched before it); printed:\n"
                    + stdout]
        position += 1
    return []


def run_block(python: str, block: str, cwd: Path, *, env: dict | None = None, isolated: bool = True,
              timeout: int = 900) -> list[str]:
    """Run a block with ``python`` in ``cwd``; the problems (a failure or wrong output), [] if none."""
    flags = ["-I"] if isolated else ["-s"]
    done = subprocess.run([python, *flags, "-c", block], cwd=cwd, capture_output=True, text=True,
                          timeout=timeout, env=env)
    if done.returncode != 0:
        return [f"the block failed (exit {done.returncode}):\n{done.stderr[-3000:]}"]
    return output_problems(block, done.stdout)


def readme_extras(text: str) -> list[str]:
    """``fast`` and the extras the README's ``pip install`` lines name that pyproject.toml defines."""
    defined = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    named = set()
    for line in text.splitlines():
        if "pip install" in line:
            for group in re.findall(r"\[([\w,\s-]+)\]", line):
                named |= {e.strip() for e in group.split(",")}
    return sorted(({"fast"} | named) & set(defined))


# ---------------------------------------------------------------- the convention (fast)
OLD_EXAMPLES = {
    # the three README examples issue 28 reports broken, with the output they promise as # prints:
    "ratio": ('import pandas as pd\nfrom credal_core import NCC\n'
              'from credal_core.naive.ncc_explain import explain_dominance\n'
              'X = pd.DataFrame({"outlook": ["sunny", "rain", "sunny", "overcast", "rain", "sunny"] * 5,\n'
              '                  "windy": [None, "yes", "no", "no", "yes", "no"] * 5})\n'
              'y = ["no", "yes", "no", "yes", "yes", "no"] * 5\n'
              'ncc = NCC(s=1.0).fit(X, y)\n'
              'x = pd.DataFrame({"outlook": ["rain"], "windy": [None]})\n'
              'why = explain_dominance(ncc, x, "yes", "no")\n'
              'print(why.dominates, why.ratio)                  # prints: True 10.0\n'),
    "app_support": ('from app_support.data import load_sample\n'
                    'X, y = load_sample("synthetic_nb")\nprint(len(X))   # prints: 300\n'),
    "relative path": ('from credal_core.data.csv_loader import read_csv_bytes\n'
                      'table = read_csv_bytes(open("sample_data/iris.csv", "rb").read())\n'
                      'print(len(table.frame))  # prints: 150\n'),
}


def _package_only(tmp_path: Path) -> tuple[Path, dict]:
    """An import path holding credal_core only (no app_support, no sample_data), as after pip install."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "credal_core").symlink_to(ROOT / "credal_core")
    return site, {**os.environ, "PYTHONPATH": str(site)}


@pytest.mark.parametrize("name", list(OLD_EXAMPLES))
def test_the_check_catches_each_broken_example_of_issue_28(name, tmp_path):
    _, env = _package_only(tmp_path)
    work = tmp_path / "work"
    work.mkdir()
    problems = run_block(sys.executable, OLD_EXAMPLES[name], work, env=env, isolated=False)
    assert problems, name
    reason = {"ratio": "'True 10.0'", "app_support": "No module named 'app_support'",
              "relative path": "sample_data/iris.csv"}[name]
    assert reason in problems[0]


def test_the_convention_in_small():
    block = 'print("a  b")   # prints: a b\nprint("x", 1)\nprint("acc 0.91")  # prints: acc ...\n'
    assert expected_lines(block) == ["a b", "acc ..."]
    assert output_problems(block, "a  b\nx 1\nacc 0.91\n") == []
    assert output_problems(block, "acc 0.91\na b\n")               # order matters
    assert output_problems(block, "a b\nacc\n")                     # "..." after a blank needs the blank
    assert output_problems(block, "a bc\nacc 1\n")                  # whole lines only
    assert output_problems('print(10.000000000000002)  # prints: 10.0', "10.000000000000002\n")
    assert python_blocks("x\n```python\nprint(1)\n```\n```bash\nls\n```\n") == ["print(1)\n"]
    assert readme_extras('pip install ".[fast,bayes]"\n') == ["bayes", "fast"]


# ---------------------------------------------------------------- the README itself (slow)
def _install(tmp_path: Path, extras: list[str]) -> tuple[str, str]:
    """A fresh virtual environment with the wheel installed; its python and how it was installed."""
    from tests.credal_core.datasets._wheel import build_wheel

    (tmp_path / "build").mkdir()
    wheel = build_wheel(tmp_path / "build")
    env = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(env)
    python = str(env / "bin" / "python")
    pip = [python, "-m", "pip", "install", "-q", "--disable-pip-version-check"]
    done = subprocess.run([*pip, f"{wheel}[{','.join(extras)}]"], capture_output=True, text=True,
                          timeout=1800)
    if done.returncode == 0:
        return python, f"pip install <wheel>[{','.join(extras)}]"
    from importlib.metadata import PackageNotFoundError, distribution

    from tests.credal_core.test_packaging import _closure, _link_distributions
    where = "import sysconfig; print(sysconfig.get_paths()['purelib'])"
    site = Path(subprocess.run([python, "-c", where], capture_output=True, text=True,
                               check=True).stdout.strip())
    wanted = ["numpy", "scipy", "pandas", "scikit-learn"]
    for optional in ("numba", "baycomp", "crepes"):
        try:
            distribution(optional)
            wanted.append(optional)
        except PackageNotFoundError:
            pass
    _link_distributions(_closure(wanted), site)
    subprocess.run([*pip, "--no-deps", "--target", str(site), str(wheel)], check=True, capture_output=True)
    message = (f"README examples: pip could not install the wheel with [{','.join(extras)}] (no network?): "
               f"{done.stderr.strip()[-300:]}; ran against the wheel linked to this environment's "
               f"{', '.join(wanted)}")
    warnings.warn(message, stacklevel=2)
    return python, message


@pytest.mark.slow
def test_every_readme_python_block_runs_from_the_installed_wheel_as_its_comments_say(tmp_path):
    text = README.read_text(encoding="utf-8")
    blocks = python_blocks(text)
    assert blocks, "README.md has no ```python block"
    python, how = _install(tmp_path, readme_extras(text))
    stated = any(expected_lines(b) for b in blocks)
    failures = [] if stated else ["no block states its output with '# prints:'"]
    for number, block in enumerate(blocks, 1):
        work = tmp_path / f"block{number}"
        work.mkdir()
        for problem in run_block(python, block, work):
            failures.append(f"block {number} ({block.splitlines()[0]!r}): {problem}")
    assert not failures, f"[{how}]\n" + "\n\n".join(failures)
