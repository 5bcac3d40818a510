"""The lessons in teaching order, and reading a lesson link (``?lesson=<id>&step=<n>[&seed=<k>]``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .model import Lesson

__all__ = ["lessons", "lesson", "Location", "locate", "step_link", "query_value"]

MAX_SEED = 10**9


def lessons() -> tuple[Lesson, ...]:
    """The six lessons, in the order of issue 24 (imported on first use: fitting nothing at import)."""
    from . import lesson_data, lesson_ensembles, lesson_lncc, lesson_missing, lesson_ncc, lesson_selection

    return (
        lesson_ncc.LESSON,
        lesson_data.LESSON,
        lesson_lncc.LESSON,
        lesson_missing.LESSON,
        lesson_ensembles.LESSON,
        lesson_selection.LESSON,
    )


def lesson(lesson_id: str) -> Lesson | None:
    return next((item for item in lessons() if item.id == lesson_id), None)


@dataclass(frozen=True)
class Location:
    """Where a link points: a lesson and a step (0-based), or the list (``lesson`` None) with a note."""

    lesson: Lesson | None
    step: int = 0
    seed: int | None = None
    note: str = ""


def query_value(params: Mapping, name: str, max_len: int = 100) -> str | None:
    """One query parameter as text (the last when repeated; at most ``max_len`` characters), or None."""
    value = params.get(name)
    if isinstance(value, (list, tuple)):
        value = value[-1] if value else None
    return None if value is None else str(value)[:max_len]


_one = query_value


def locate(params: Mapping) -> Location:
    """Read ``lesson``, ``step`` (1-based) and ``seed`` from the URL; anything malformed opens the list."""
    raw_lesson, raw_step, raw_seed = _one(params, "lesson"), _one(params, "step"), _one(params, "seed")
    seed = (
        int(raw_seed) if raw_seed is not None and raw_seed.isdigit() and int(raw_seed) <= MAX_SEED else None
    )
    if raw_lesson is None:
        note = "" if raw_step is None else "A step needs a lesson: choose one below."
        return Location(None, note=note)
    found = lesson(raw_lesson)
    if found is None:
        return Location(None, note="There is no lesson with that name: choose one below.")
    if raw_step is None:
        return Location(found, 0, seed)
    if not raw_step.isdigit() or not 1 <= int(raw_step) <= len(found.steps):
        return Location(
            None, note=f"“{found.title}” has steps 1 to {len(found.steps)}: choose a lesson below."
        )
    return Location(found, int(raw_step) - 1, seed)


def step_link(lesson_id: str, step: int, seed: int | None = None) -> dict:
    """The query parameters of a step (``step`` 0-based)."""
    out = {"lesson": lesson_id, "step": str(step + 1)}
    if seed is not None:
        out["seed"] = str(seed)
    return out
