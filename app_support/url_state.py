"""Typed URL state: one reader / writer for every page's query parameters (no streamlit import).

A page declares its parameters once, as fields of a :class:`UrlState`; the same declaration reads a
shared link (``read``: anything malformed, out of range or unknown silently falls back to the
default, so a hand-edited link can never break a page) and writes the canonical link of the current
view (``write``: numbers snapped to their step and printed without noise, so the same view always
has the same URL).  Plain functions of plain dicts: unit-tested without Streamlit.

>>> state = UrlState(Number("s", 2.0, 0.1, 10.0, step=0.1), Choice("data", ("iris", "wine"), "iris"))
>>> state.read({"s": "3.04", "data": "nope"})
{'s': 3.0, 'data': 'iris'}
>>> state.write({"s": 3.0, "data": "wine"})
{'s': '3', 'data': 'wine'}
"""
from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

__all__ = ["Number", "Choice", "Flag", "Numbers", "Names", "Row", "Text", "UrlState"]

_MAX_RAW = 2_000          # a parameter longer than this is not from one of our links


def _raw(params: Mapping, name: str) -> str | None:
    value = params.get(name)
    if isinstance(value, (list, tuple)):          # st.query_params.to_dict() keeps the last value
        value = value[-1] if value else None
    if value is None:
        return None
    value = str(value)
    return value if len(value) <= _MAX_RAW else None


def _fmt(value: float, decimals: int | None) -> str:
    """Shortest faithful text: ``2`` not ``2.0``, ``0.15`` not ``0.15000000000000002``."""
    if decimals is not None:
        text = f"{round(float(value), decimals):.{decimals}f}"
        return text.rstrip("0").rstrip(".") if "." in text else text
    return f"{float(value):.12g}"


@dataclass(frozen=True)
class Number:
    """A number in ``[lo, hi]``, snapped to ``step`` (from ``lo``'s grid origin 0) when given."""

    name: str
    default: float
    lo: float
    hi: float
    step: float | None = None
    integer: bool = False

    @property
    def decimals(self) -> int | None:
        if self.integer:
            return 0
        if self.step is None:
            return None
        return max(0, -math.floor(math.log10(self.step) + 1e-9)) if self.step < 1 else 0

    def parse(self, raw: str | None):
        try:
            value = float(raw) if raw is not None else None
        except ValueError:
            value = None
        if value is None or not math.isfinite(value) or not self.lo <= value <= self.hi:
            return self.default
        if self.step:
            value = round(round(value / self.step) * self.step, self.decimals)
            value = min(max(value, self.lo), self.hi)
        return int(round(value)) if self.integer else float(value)

    def format(self, value) -> str:
        return str(int(round(float(value)))) if self.integer else _fmt(float(value), self.decimals)


@dataclass(frozen=True)
class Choice:
    """One of ``options`` (compared as text)."""

    name: str
    options: tuple
    default: object

    def parse(self, raw: str | None):
        for option in self.options:
            if raw is not None and str(option) == raw:
                return option
        return self.default

    def format(self, value) -> str:
        return str(value)


@dataclass(frozen=True)
class Flag:
    """A yes / no switch, written ``1`` / ``0`` (``true`` / ``false`` are read too)."""

    name: str
    default: bool = False

    def parse(self, raw: str | None) -> bool:
        if raw is None:
            return self.default
        low = raw.strip().lower()
        if low in ("1", "true", "yes", "on"):
            return True
        if low in ("0", "false", "no", "off"):
            return False
        return self.default

    def format(self, value) -> str:
        return "1" if value else "0"


@dataclass(frozen=True)
class Numbers:
    """A comma-separated list of numbers in ``[lo, hi]``: unique, sorted; malformed → the default.

    With ``options``, only the listed values are kept (matched to 1e-9, so ``0.1`` finds ``0.1``
    whatever its float spelling) — what a multiselect over fixed choices needs.
    """

    name: str
    default: tuple
    lo: float
    hi: float
    integer: bool = False
    max_items: int = 50
    options: tuple | None = None

    def parse(self, raw: str | None) -> tuple:
        if raw is None or not raw.strip():
            return tuple(self.default)
        try:
            values = [float(v) for v in raw.split(",") if v.strip()]
        except ValueError:
            return tuple(self.default)
        if (not values or len(values) > self.max_items
                or any(not math.isfinite(v) or not self.lo <= v <= self.hi for v in values)):
            return tuple(self.default)
        if self.integer:
            if any(v != round(v) for v in values):
                return tuple(self.default)
            values = [int(v) for v in values]
        if self.options is not None:
            return tuple(o for o in self.options if any(math.isclose(o, v, abs_tol=1e-9) for v in values))
        return tuple(sorted(set(values)))

    def format(self, value) -> str:
        return ",".join(str(int(v)) if self.integer else f"{float(v):g}" for v in value)


@dataclass(frozen=True)
class Names:
    """A list of names (``sep``-separated); with ``options``, unknown names are dropped (and with
    ``empty_is_default``, a list left empty by that gives the default)."""

    name: str
    default: tuple = ()
    options: tuple | None = None
    sep: str = ","
    max_items: int = 200
    empty_is_default: bool = False

    def parse(self, raw: str | None) -> tuple:
        if raw is None:
            return tuple(self.default)
        names = [v for v in raw.split(self.sep) if v != ""]
        if len(names) > self.max_items:
            return tuple(self.default)
        if self.options is not None:
            allowed = {str(o): o for o in self.options}
            names = [allowed[n] for n in names if n in allowed]
        if not names and self.empty_is_default:
            return tuple(self.default)
        return tuple(dict.fromkeys(names))

    def format(self, value) -> str:
        return self.sep.join(map(str, value))


@dataclass(frozen=True)
class Row:
    """One value per position, joined by ``sep`` (``|``): a typed instance, one value per column.

    ``options[j]`` lists position ``j``'s values; an item that is not one of them (or missing: a
    short list) gives that position its first option, and items beyond the last position are
    ignored.  Empty items keep their place (unlike :class:`Names`, nothing is dropped or merged).

    >>> Row("x", (("hi", "lo"), ("a", "b"))).parse("lo|zzz")
    ('lo', 'a')
    """

    name: str
    options: tuple = ()          # one tuple of allowed values per position
    sep: str = "|"

    @property
    def default(self) -> tuple:
        return tuple(values[0] for values in self.options)

    def parse(self, raw: str | None) -> tuple:
        parts = raw.split(self.sep) if raw else []
        return tuple(next((v for v in values if j < len(parts) and str(v) == parts[j]), values[0])
                     for j, values in enumerate(self.options))

    def format(self, value) -> str:
        return self.sep.join(map(str, value))


@dataclass(frozen=True)
class Text:
    """Free text of at most ``max_len`` characters (shown only as widget values, never as HTML)."""

    name: str
    default: str = ""
    max_len: int = 500

    def parse(self, raw: str | None) -> str:
        return raw if raw is not None and len(raw) <= self.max_len else self.default

    def format(self, value) -> str:
        return str(value)


class UrlState:
    """The typed query parameters of one page."""

    def __init__(self, *fields):
        names = [f.name for f in fields]
        if len(set(names)) != len(names):
            raise ValueError(f"duplicate URL parameter names: {names}")
        self.fields = {f.name: f for f in fields}

    def __iter__(self):
        return iter(self.fields.values())

    def __getitem__(self, name: str):
        return self.fields[name]

    def read(self, params: Mapping) -> dict:
        """Every field's value from ``params`` (a dict or ``st.query_params``); defaults where absent
        or malformed."""
        return {name: field.parse(_raw(params, name)) for name, field in self.fields.items()}

    def write(self, values: Mapping, only: Sequence[str] | None = None) -> dict[str, str]:
        """Canonical query parameters of ``values`` (fields missing from ``values`` are left out)."""
        names = self.fields if only is None else only
        return {n: self.fields[n].format(values[n]) for n in names if n in values and values[n] is not None}

    def names_any(self, params: Mapping) -> bool:
        """Whether ``params`` hold at least one of this state's fields (a link to this view, not a
        bare page address)."""
        return any(name in params for name in self.fields)

    def defaults(self) -> dict:
        return {name: field.default for name, field in self.fields.items()}
