"""Read Weka's ARFF format (the format of JNCC2's and Weka's example files) into plain rows.

Supported: ``@relation``, ``@attribute`` with a nominal ``{a, b, 'c d'}`` or a numeric / real /
integer type, ``@data`` with dense rows (``a, 1.5, ?``) or sparse rows (``{0 a, 3 1.5}``: an omitted
numeric value is 0, an omitted nominal value the first declared one, as in Weka), ``?`` for a
missing value, ``%`` comments, names and values quoted with ``'`` or ``"`` (backslash escapes inside
quotes).  Refused with a sentence naming the attribute or the line: string, date and relational
attributes, instance weights, values outside a nominal declaration, non-numbers in a numeric column.

Nothing is evaluated; the parser is a small hand-written tokenizer, linear in the file's length.
:func:`credal_core.data.csv_loader.read_csv_bytes` calls it when the text looks like ARFF.
"""
from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass, field

__all__ = ["ArffAttribute", "ArffData", "looks_like_arff", "parse_arff"]

NUMERIC_TYPES = ("numeric", "real", "integer")
UNSUPPORTED_TYPES = ("string", "date", "relational")
_NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")
_SPECIAL = re.compile(r"[,'\"%]")
_QUOTED = {"'": re.compile(r"'((?:[^'\\]|\\.)*)'", re.S), '"': re.compile(r'"((?:[^"\\]|\\.)*)"', re.S)}
_SIMPLE_FIELD = re.compile(r"[ \t]*(?:'([^']*)'|([^,']*))[ \t]*(,|$)")
_BLANKS = re.compile(r"[ \t]*")
_ESCAPE = re.compile(r"\\(.)", re.S)
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", "'": "'", '"': '"', "%": "%"}


class ArffProblem(ValueError):
    """An ARFF text that cannot be read, with the reason in words (the loader turns it into CsvProblem)."""


@dataclass(frozen=True)
class ArffAttribute:
    """One ``@attribute``: its name, ``"numeric"`` or ``"nominal"``, and the declared nominal values."""

    name: str
    kind: str
    values: tuple = ()
    allowed: frozenset = field(default=frozenset(), compare=False, repr=False)   # set(values), for lookups


@dataclass
class ArffData:
    relation: str
    attributes: list            # of ArffAttribute, in declaration order
    rows: list                  # one list per instance: str per cell, None where missing
    lines: list                 # the file's line number of each row (for messages)
    sparse: bool = False


def _meaningful_lines(text: str):
    for number, line in enumerate(text.split("\n"), start=1):
        stripped = line.strip()
        if stripped and not stripped.startswith("%"):
            yield number, stripped


def looks_like_arff(text: str) -> bool:
    """True if the first line that is not blank or a ``%`` comment starts with ``@relation`` /
    ``@attribute`` (case-insensitive)."""
    for _, line in _meaningful_lines(text[:200_000]):
        return line.lower().startswith(("@relation", "@attribute"))
    return False


def _tokens(text: str, where: str, *, inner_quotes: bool = False) -> list[tuple[str, bool]]:
    """Split on commas outside quotes: (value, was quoted) per field; an unquoted % starts a comment.

    A field that starts with a quote is that quoted string (nothing may follow it but blanks).  A quote
    inside an unquoted field is an ordinary character, or with ``inner_quotes`` (sparse entries,
    ``index 'value'``) the start of a quoted part kept verbatim in the field's text.
    """
    if "'" not in text and '"' not in text and "%" not in text:
        return [(part.strip(), False) for part in text.split(",")]
    if not inner_quotes and '"' not in text and "%" not in text and "\\" not in text:
        simple = _simple_tokens(text)
        if simple is not None:
            return simple
    fields, i, n = [], 0, len(text)
    while True:
        j = _BLANKS.match(text, i).end()
        if j < n and text[j] in "'\"":
            end, value = _quoted(text, j, where)
            i = _BLANKS.match(text, end).end()
            if i < n and text[i] not in ",%":
                raise ArffProblem(f"{where}: text after the closing quote of {value[:40]!r}")
            fields.append((value, True))
        else:
            parts = []
            while True:
                match = _SPECIAL.search(text, i)
                stop = match.start() if match else n
                parts.append(text[i:stop])
                i = stop
                if match is None or match.group() in ",%":
                    break
                end = _quoted(text, i, where)[0] if inner_quotes else i + 1
                parts.append(text[i:end])
                i = end
            fields.append(("".join(parts).strip(), False))
        if i >= n or text[i] == "%":
            return fields
        i += 1                                   # past the comma


def _simple_tokens(text: str) -> list[tuple[str, bool]] | None:
    """The common quoted case in one regex pass: fields plain or wholly in single quotes (no escapes,
    comments or double quotes); None when the line needs the general tokenizer."""
    fields, position = [], 0
    while True:
        match = _SIMPLE_FIELD.match(text, position)
        if match is None:
            return None
        quoted = match.group(1) is not None
        fields.append((match.group(1) if quoted else match.group(2).strip(), quoted))
        if not match.group(3):
            return fields if match.end() == len(text) else None
        position = match.end()


def _quoted(text: str, start: int, where: str) -> tuple[int, str]:
    """The quoted string opening at ``text[start]``: (index after the closing quote, its value)."""
    match = _QUOTED[text[start]].match(text, start)
    if match is None:
        raise ArffProblem(f"{where}: unbalanced quote")
    value = _ESCAPE.sub(lambda m: _ESCAPES.get(m.group(1), m.group(0)), match.group(1))
    return match.end(), value


def _name_and_rest(text: str, where: str) -> tuple[str, str]:
    """A (possibly quoted) name at the start of ``text``, and what follows it."""
    text = text.strip()
    if not text:
        raise ArffProblem(f"{where}: a name is missing")
    if text[0] in "'\"":
        end, name = _quoted(text, 0, where)
        return name, text[end:].strip()
    match = re.match(r"[^\s{]+", text)
    return match.group(0), text[match.end():].strip()


def _attribute(body: str, where: str) -> ArffAttribute:
    name, kind = _name_and_rest(body, where)
    if kind.startswith("{"):
        close = _closing_brace(kind, where, f"the values of attribute '{name}'")
        values = [value for value, _ in _tokens(kind[1:close], where)]
        if values == [""]:
            raise ArffProblem(f"attribute '{name}' declares no values ({where})")
        if "" in values:
            raise ArffProblem(f"attribute '{name}' declares an empty value ({where})")
        repeated = sorted(v for v, count in Counter(values).items() if count > 1)
        if repeated:
            raise ArffProblem(f"attribute '{name}' declares {repeated[0]!r} twice ({where})")
        return ArffAttribute(name, "nominal", tuple(values), frozenset(values))
    word = kind.split("%")[0].split()[0].lower() if kind.split("%")[0].split() else ""
    if word in NUMERIC_TYPES:
        return ArffAttribute(name, "numeric")
    if word in UNSUPPORTED_TYPES:
        raise ArffProblem(f"attribute '{name}' is of type {word}, which is not supported (only nominal "
                          "and numeric attributes can be classifier features); remove it from the file")
    raise ArffProblem(f"attribute '{name}' has an unknown type {kind[:40]!r} ({where})")


def _closing_brace(text: str, where: str, what: str) -> int:
    """Index of the ``}`` closing the ``{`` at text[0], skipping quoted parts."""
    i = 1
    while i < len(text):
        if text[i] in "'\"":
            i = _quoted(text, i, where)[0]
            continue
        if text[i] == "}":
            return i
        i += 1
    raise ArffProblem(f"{where}: {what} has no closing brace")


def parse_arff(text: str, *, max_rows: int = 100_000, max_columns: int = 500) -> ArffData:
    """Header and rows of an ARFF text (newlines already normalised to ``\\n``), or ArffProblem."""
    relation, attributes, rows, lines, sparse = "", [], [], [], False
    in_data = False
    for number, line in _meaningful_lines(text):
        where = f"line {number}"
        if not in_data:
            lowered = line.lower()
            if lowered.startswith("@relation"):
                relation = _name_and_rest(line[9:], where)[0] if line[9:].strip() else ""
            elif lowered.startswith("@attribute"):
                attributes.append(_attribute(line[10:], where))
                if len(attributes) > max_columns:
                    raise ArffProblem(f"the file declares more than {max_columns} attributes; the limit is "
                                      f"{max_columns}")
            elif lowered.startswith("@data"):
                _check_names(attributes)
                in_data = True
            elif lowered.startswith("@end"):
                raise ArffProblem(f"{where}: relational attributes (@end) are not supported")
            else:
                raise ArffProblem(f"{where}: expected @relation, @attribute or @data, found {line[:40]!r}")
            continue
        if line.startswith("{"):
            sparse = True
            rows.append(_sparse_row(line, attributes, where))
        else:
            rows.append(_dense_row(line, attributes, where))
        lines.append(number)
        if len(rows) > max_rows:
            raise ArffProblem(f"the file has more than {max_rows:,} data rows; the limit is {max_rows:,}")
    if not attributes:
        raise ArffProblem("the ARFF header declares no @attribute")
    if not in_data:
        raise ArffProblem("the ARFF file has no @data section")
    return ArffData(relation, attributes, rows, lines, sparse)


def _check_names(attributes: list) -> None:
    counts = Counter(a.name for a in attributes)
    repeated = [name for name, count in counts.items() if count > 1]
    if repeated:
        raise ArffProblem(f"duplicate attribute names: {', '.join(map(repr, repeated[:5]))}")


def _cell(token: tuple[str, bool], attribute: ArffAttribute, where: str) -> str | None:
    value, quoted = token
    if value == "?" and not quoted:
        return None
    if not value and not quoted:
        raise ArffProblem(f"{where}: an empty value in attribute '{attribute.name}' (write ? for a "
                          "missing value)")
    if attribute.kind == "numeric":
        if not _NUMBER.fullmatch(value) or not math.isfinite(float(value)):
            raise ArffProblem(f"{where}: {value[:40]!r} in numeric attribute '{attribute.name}' is not a "
                              "number")
        return value
    if value not in attribute.allowed:
        raise ArffProblem(f"{where}: {value[:40]!r} is not a declared value of attribute "
                          f"'{attribute.name}' ({{{', '.join(attribute.values[:6])}"
                          f"{', …' if len(attribute.values) > 6 else ''}}})")
    return value


def _dense_row(line: str, attributes: list, where: str) -> list:
    tokens = _tokens(line, where)
    if len(tokens) == len(attributes) + 1 and tokens[-1][0].startswith("{") and not tokens[-1][1]:
        raise ArffProblem(f"{where}: instance weights ({tokens[-1][0]}) are not supported")
    if len(tokens) != len(attributes):
        raise ArffProblem(f"{where} has {len(tokens)} values but {len(attributes)} attributes are declared")
    return [_cell(token, attribute, where) for token, attribute in zip(tokens, attributes)]


def _sparse_row(line: str, attributes: list, where: str) -> list:
    close = _closing_brace(line, where, "the sparse row")
    after = line[close + 1:].split("%")[0].strip()
    if after:
        raise ArffProblem(f"{where}: instance weights ({after[:20]}) are not supported")
    row = ["0" if a.kind == "numeric" else a.values[0] for a in attributes]
    body = line[1:close].strip()
    if not body:
        return row
    for text, quoted in _tokens(body, where, inner_quotes=True):
        if quoted:
            raise ArffProblem(f"{where}: a sparse entry must start with an attribute index")
        match = re.match(r"(\d+)\s+(.*)$", text, re.S)
        if not match:
            raise ArffProblem(f"{where}: sparse entry {text[:30]!r} is not 'index value'")
        index = int(match.group(1))
        if index >= len(attributes):
            raise ArffProblem(f"{where}: sparse index {index} is beyond the {len(attributes)} attributes")
        value = match.group(2).strip()
        token = (_quoted(value, 0, where)[1], True) if value[:1] in ("'", '"') else (value, False)
        row[index] = _cell(token, attributes[index], where)
    return row
