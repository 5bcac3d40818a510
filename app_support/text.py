"""Text helpers shared by the pages (no streamlit import)."""
from __future__ import annotations

import math
import re

__all__ = ["plain", "percent"]

MARKDOWN_SPECIAL = re.compile(r"[\\`*_{}\[\]()#+\-.!|<>$~:]")


def plain(text) -> str:
    """User text (file, column and class names, messages quoting them) shown literally in markdown."""
    return MARKDOWN_SPECIAL.sub(r"\\\g<0>", str(text)).replace("\n", " ")


def percent(x, digits: int = 1) -> str:
    """``0.123`` → ``12.3%``; ``—`` for a missing or undefined value."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "—"
    return f"{100 * x:.{digits}f}%"
