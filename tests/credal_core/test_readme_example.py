"""The README's library example (its first Python block) runs and prints what its comments say."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_first_python_block_of_the_readme_runs_as_its_comments_say():
    block = re.search(r"```python\n(.*?)```", (ROOT / "README.md").read_text(encoding="utf-8"), re.S).group(1)
    assert len(block.strip().splitlines()) <= 14                   # "about a dozen lines"
    done = subprocess.run([sys.executable, "-c", block], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "['no' 'yes'] [[False  True]]"
    assert re.fullmatch(r"True 10\.0+\d*", lines[1]), lines[1]
    assert "outlook" in lines[3] and "10.666667" in lines[3]
    assert "windy" in lines[4] and "1.000000" in lines[4]
