"""Read a user's CSV (or ARFF) safely: detect encoding and delimiter, refuse what cannot be a data table,
describe it.

Everything a researcher's messy file can throw at the app ends here as a :class:`CsvProblem`
(a ``ValueError``) with one specific sentence, never a traceback.  Nothing is evaluated or unpickled:
the bytes are decoded as text and split as CSV, every cell kept as a string; numbers are recognised
afterwards, per column.  Weka's ARFF format is recognised from its header (``@relation`` /
``@attribute``) or the file name, and read by :mod:`credal_core.data.arff`: its declared nominal values
become the categories of a pandas Categorical column (so a declared class or value with no row is
kept), its numeric attributes are the columns to discretise.
"""
from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .arff import ArffProblem, looks_like_arff, parse_arff

__all__ = ["CsvLimits", "CsvProblem", "LoadedTable", "read_csv_bytes", "MISSING_TOKENS",
           "neutralise_formulas", "default_class_column", "check_class_column"]

# Cells that mean "no value" (after stripping blanks), compared case-insensitively.
MISSING_TOKENS = frozenset({"", "?", "na", "n/a", "nan", "null", "missing", "-"})
# Whole-number columns with at most this many distinct values are codes of categories (e.g. the
# MONK's a1..a6 = 1..4), not measurements: they are not discretised.
MAX_CODE_LEVELS = 12
SNIFF_LINES, SNIFF_LINE_CHARS = 30, 2_000   # csv.Sniffer's time grows with the square of a line
DELIMITERS = ",;\t|"
CLASS_NAMES = ("class", "target", "label", "y", "outcome")


class CsvProblem(ValueError):
    """A CSV that cannot be used, with the reason in words."""


@dataclass(frozen=True)
class CsvLimits:
    """What the app accepts (the API can raise them)."""

    max_bytes: int = 20 * 1024 * 1024
    max_rows: int = 100_000
    max_columns: int = 500
    max_levels: int = 200          # distinct values of a categorical column
    max_cell_chars: int = 1_000


@dataclass
class LoadedTable:
    """A parsed CSV: the cells as text, plus what was detected and what the user should know."""

    frame: pd.DataFrame                   # every cell a str (ARFF nominal: Categorical); missing cells NA
    encoding: str
    delimiter: str
    numeric: list = field(default_factory=list)        # number columns to discretise by default
    id_like: list = field(default_factory=list)        # columns unique on every row (row identifiers?)
    missing: dict = field(default_factory=dict)        # column -> number of missing cells
    notes: list = field(default_factory=list)          # things worth telling the user
    number_like: list = field(default_factory=list)    # every present value a number (codes included)
    format: str = "csv"                                 # "csv" or "arff"
    relation: str = ""                                  # ARFF's @relation name

    def numeric_frame(self) -> pd.DataFrame:
        """The numeric columns as floats (missing → NaN); the others unchanged."""
        out = self.frame.copy()
        for name in self.numeric:
            out[name] = pd.to_numeric(out[name], errors="coerce").astype(float)
        return out


def _decode(data: bytes) -> tuple[str, str]:
    if data.startswith(b"\xef\xbb\xbf"):
        return data[3:].decode("utf-8"), "utf-8-sig"
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16"), "utf-16"
        except UnicodeDecodeError:
            pass
    head = data[:2000]
    for name, zeros in (("utf-16-le", head[1::2]), ("utf-16-be", head[0::2])):
        # ASCII text in UTF-16 without a BOM: every other byte is zero
        if len(head) >= 8 and zeros.count(0) > 0.9 * len(zeros):
            try:
                return data.decode(name), name
            except UnicodeDecodeError:
                pass
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    try:
        return data.decode("cp1252"), "cp1252"       # Windows' Latin-1 (€, curly quotes)
    except UnicodeDecodeError:
        return data.decode("latin-1"), "latin-1"     # every byte sequence is valid Latin-1


def _looks_binary(text: str) -> bool:
    """NUL characters, or more than 1 % control characters, in the decoded text."""
    sample = text[:65536]
    if "\x00" in sample:
        return True
    control = sum(ord(ch) < 32 and ch not in "\t\n\r" for ch in sample)
    return control > 0.01 * max(len(sample), 1)


def _sniff_delimiter(text: str) -> str:
    # a bounded sample: the Sniffer is quadratic in the line length (a 200 KB line would take minutes)
    head = text[:SNIFF_LINES * SNIFF_LINE_CHARS * 2].splitlines()[:SNIFF_LINES]
    lines = [line[:SNIFF_LINE_CHARS] for line in head if line.strip()]
    sample = "\n".join(lines)
    try:
        return csv.Sniffer().sniff(sample, delimiters=DELIMITERS).delimiter
    except csv.Error:
        # the Sniffer gives up on one-column or irregular files: take the delimiter that splits the
        # header into the most fields, if it splits the other lines the same way
        header = lines[0] if lines else ""
        counts = {d: header.count(d) for d in DELIMITERS}
        best = max(counts, key=counts.get)
        return best if counts[best] > 0 else ","


def read_csv_bytes(data: bytes, limits: CsvLimits | None = None, *, name: str | None = None) -> LoadedTable:
    """Parse CSV or ARFF bytes into a :class:`LoadedTable`, or raise :class:`CsvProblem` saying why not.

    Encoding: UTF-8 (with or without BOM), UTF-16 with BOM, else Latin-1.  Delimiter: comma,
    semicolon, tab or bar, detected from the first lines.  The first row is the header.  ARFF is
    read instead when the first line that is not a ``%`` comment starts with ``@relation`` or
    ``@attribute``, or when ``name`` (the file's name, optional) ends with ``.arff``.

    Examples
    --------
    >>> table = read_csv_bytes(b"id,colour,size,class\\n1,red,3.5,yes\\n2,blue,,no\\n3,red,1,yes\\n")
    >>> table.numeric, table.id_like, table.missing["size"]
    (['size'], ['id'], 1)
    """
    limits = limits or CsvLimits()
    if not isinstance(data, (bytes, bytearray)):
        raise CsvProblem("expected the file's bytes")
    if len(data) == 0 or not data.strip():
        raise CsvProblem("the file is empty")
    if len(data) > limits.max_bytes:
        raise CsvProblem(f"the file has {len(data) / 1e6:.1f} MB; "
                         f"the limit is {limits.max_bytes / 1e6:.0f} MB")
    text, encoding = _decode(bytes(data))
    if _looks_binary(text):
        raise CsvProblem("the file looks binary (e.g. a spreadsheet or an archive), not a text CSV; "
                         "export it as CSV first")
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if text.count("\n") > 2 * limits.max_rows + 1000:       # refuse before parsing a huge file
        raise CsvProblem(f"the file has more than {2 * limits.max_rows:,} lines; the limit is "
                         f"{limits.max_rows:,} data rows")
    if looks_like_arff(text):
        return _read_arff(text, encoding, limits)
    if name is not None and str(name).lower().endswith(".arff"):
        raise CsvProblem("the file is named .arff but has no ARFF header (@relation / @attribute lines)")
    first, _, rest = text.partition("\n")
    if first.strip().lower().startswith("sep=") and len(first.strip()) == 5:   # Excel's "sep=;" line
        delimiter, text = first.strip()[4], rest
    else:
        delimiter = _sniff_delimiter(text)
    try:
        rows = list(csv.reader(io.StringIO(text), delimiter=delimiter, strict=True))
    except csv.Error as exc:
        raise CsvProblem(f"the file is not valid CSV ({exc}); check for an unbalanced quote") from None
    rows = [row for row in rows if any(cell.strip() for cell in row)]
    if not rows:
        raise CsvProblem("the file is empty")
    header = [cell.strip() for cell in rows[0]]
    body = rows[1:]
    if not body:
        raise CsvProblem("the file has a header but no data rows")
    if len(header) < 2:
        raise CsvProblem("the file has a single column; a classifier needs at least one feature and a "
                         "class column (is the delimiter one of , ; tab |?)")
    if len(header) > limits.max_columns:
        raise CsvProblem(f"the file has {len(header)} columns; the limit is {limits.max_columns}")
    if len(body) > limits.max_rows:
        raise CsvProblem(f"the file has {len(body)} data rows; the limit is {limits.max_rows:,}")
    notes = []
    for j, name in enumerate(header):
        if not name:
            header[j] = f"column_{j + 1}"
            notes.append(f"column {j + 1} has no name; it is called '{header[j]}'")
    seen = {}
    for name in header:
        seen[name] = seen.get(name, 0) + 1
    duplicated = [name for name, count in seen.items() if count > 1]
    if duplicated:
        raise CsvProblem(f"duplicate column names: {', '.join(repr(n) for n in duplicated[:5])}; "
                         "rename them so that every column has its own name")
    for i, row in enumerate(body, start=2):
        if len(row) != len(header):
            raise CsvProblem(f"row {i} has {len(row)} fields but the header has {len(header)}")
    raw = pd.DataFrame(body, columns=header, dtype=object)
    columns, numeric, number_like, id_like, missing = {}, [], [], [], {}
    for name in header:
        col = raw[name].astype(str)
        longest = int(col.str.len().max())
        if longest > limits.max_cell_chars:
            raise CsvProblem(f"a cell of column '{name}' has {longest:,} characters; the limit is "
                             f"{limits.max_cell_chars:,} (is this a data table?)")
        col = col.str.strip()
        absent = col.str.lower().isin(MISSING_TOKENS)
        missing[name] = int(absent.sum())
        present = col[~absent]
        columns[name] = col.where(~absent, None)
        if present.empty:
            notes.append(f"column '{name}' is empty; it will be ignored")
            continue
        head = pd.to_numeric(present.iloc[:200], errors="coerce").to_numpy(float)
        if np.isfinite(head).mean() < 0.5 and not present.iloc[:200].str.contains(",", regex=False).any():
            values = np.full(present.size, np.nan)     # text: parsing every cell as a number is slow
        else:
            values = pd.to_numeric(present, errors="coerce").to_numpy(float)
        if not np.isfinite(values).all() and delimiter != ",":
            # decimal commas (1,5) in a file separated by ; or tab: read them as decimal points
            dotted = present.str.replace(",", ".", regex=False)
            commas = pd.to_numeric(dotted, errors="coerce").to_numpy(float)
            if np.isfinite(commas).all() and present.str.contains(",", regex=False).any():
                values = commas
                columns[name] = columns[name].str.replace(",", ".", regex=False)
                notes.append(f"column '{name}' uses decimal commas; they are read as decimal points")
        finite = np.isfinite(values)
        distinct = present.nunique()
        whole = finite.all() and bool(np.all(values == np.round(values)))
        if finite.all():
            number_like.append(name)
        if finite.all() and not (whole and distinct <= MAX_CODE_LEVELS):
            numeric.append(name)
        elif finite.all():
            notes.append(f"column '{name}' holds {distinct} whole numbers; they are taken as categories "
                         "(codes), not discretised")
        elif finite.mean() >= 0.8:
            bad = sorted(set(present[~finite].tolist()))[:3]
            notes.append(f"column '{name}' is mostly numbers but also holds {', '.join(map(repr, bad))}; "
                         "it is treated as categorical")
        if name not in numeric and limits.max_levels < distinct < present.size:
            notes.append(f"column '{name}' has {distinct} distinct values (more than "
                         f"{limits.max_levels}); it will be ignored as a feature")
        if present.size == len(body) and distinct == len(body) and len(body) > 2:
            # unique on every row: an identifier if text or whole numbers (measurements with decimals
            # are often all distinct too, and are features)
            if name not in numeric or whole:
                id_like.append(name)
    frame = pd.DataFrame(columns, columns=header)
    return LoadedTable(frame, encoding, delimiter, numeric, id_like, missing, notes, number_like)


def _read_arff(text: str, encoding: str, limits: CsvLimits) -> LoadedTable:
    """An ARFF text as a :class:`LoadedTable`: nominal attributes as Categorical columns with their
    declared values as categories, numeric attributes as text columns listed in ``numeric``."""
    try:
        parsed = parse_arff(text, max_rows=limits.max_rows, max_columns=limits.max_columns)
    except ArffProblem as problem:
        raise CsvProblem(str(problem)) from None
    attributes, rows = parsed.attributes, parsed.rows
    if not rows:
        raise CsvProblem("the file has a header but no data rows")
    if len(attributes) < 2:
        raise CsvProblem("the file has a single attribute; a classifier needs at least one feature and a "
                         "class attribute")
    notes = ["read as ARFF (Weka's format): declared nominal values are kept as categories"]
    if parsed.sparse:
        notes.append("sparse rows: an omitted value is 0 (numeric) or the first declared value (nominal)")
    columns, numeric, number_like, id_like, missing = {}, [], [], [], {}
    for j, attribute in enumerate(attributes):
        cells = [row[j] for row in rows]
        longest = max((len(c) for c in cells if c is not None), default=0)
        if longest > limits.max_cell_chars:
            raise CsvProblem(f"a value of attribute '{attribute.name}' has {longest:,} characters; the limit "
                             f"is {limits.max_cell_chars:,}")
        present = [c for c in cells if c is not None]
        missing[attribute.name] = len(cells) - len(present)
        distinct = len(set(present))
        if attribute.kind == "numeric":
            columns[attribute.name] = pd.Series(cells, dtype=object)
            numeric.append(attribute.name)
            number_like.append(attribute.name)
            whole = all(float(c) == round(float(c)) for c in present)
        else:
            columns[attribute.name] = pd.Series(pd.Categorical(cells, categories=list(attribute.values)))
            whole = False
            if present and all(_is_number(v) for v in attribute.values):
                number_like.append(attribute.name)
        if not present:
            notes.append(f"column '{attribute.name}' is empty; it will be ignored")
        elif attribute.kind == "nominal" and limits.max_levels < distinct < len(present):
            notes.append(f"column '{attribute.name}' has {distinct} distinct values (more than "
                         f"{limits.max_levels}); it will be ignored as a feature")
        if len(present) == len(rows) and distinct == len(rows) > 2 and (attribute.kind == "nominal" or whole):
            id_like.append(attribute.name)
    frame = pd.DataFrame(columns)
    return LoadedTable(frame, encoding, ",", numeric, id_like, missing, notes, number_like, format="arff",
                       relation=parsed.relation)


def _is_number(text: str) -> bool:
    try:
        return bool(np.isfinite(float(text)))
    except ValueError:
        return False


def default_class_column(table: LoadedTable) -> str:
    """A column named like a class (``class``, ``target``, …), else the last column; for an ARFF file
    always its last attribute (Weka's and JNCC2's convention)."""
    if table.format == "arff":
        return table.frame.columns[-1]
    lowered = {name.lower(): name for name in table.frame.columns}
    for name in CLASS_NAMES:
        if name in lowered:
            return lowered[name]
    return table.frame.columns[-1]


def check_class_column(table: LoadedTable, column: str, *, min_per_class: int = 1) -> dict:
    """Check a class column; returns ``{"labels", "rare", "missing_rows", "empty"}`` or raises CsvProblem.

    ``rare`` lists the classes with fewer than ``min_per_class`` instances (a protocol such as
    k-fold cross-validation needs some of each); rows whose class is missing are counted in
    ``missing_rows`` (they cannot be used); ``empty`` lists the declared classes (categories of a
    Categorical column, e.g. from an ARFF header) without any row, which ``labels`` and ``rare`` leave out.
    """
    if column not in table.frame.columns:
        raise CsvProblem(f"there is no column named {column!r}")
    labels = table.frame[column]
    present = labels.dropna()
    counts = present.value_counts()
    empty = [c for c, n in counts.items() if n == 0]
    counts = counts[counts > 0]
    if counts.size < 2:
        only = f" (only {counts.index[0]!r})" if counts.size else ""
        raise CsvProblem(f"the class column '{column}' has fewer than two classes{only}")
    if column in table.numeric and counts.size > 20 and counts.size > 0.5 * present.size:
        raise CsvProblem(f"the class column '{column}' holds {counts.size} distinct numbers: it looks "
                         "continuous (a regression target), not a class")
    rare = sorted(counts[counts < min_per_class].index.tolist())
    return {"labels": counts.to_dict(), "rare": rare, "missing_rows": int(labels.isna().sum()),
            "empty": empty}


def neutralise_formulas(frame: pd.DataFrame) -> pd.DataFrame:
    """A copy safe to open in a spreadsheet: text cells starting with ``= + - @`` (or a tab / carriage
    return) get a leading apostrophe, so they are shown as text instead of run as formulas (OWASP's
    advice against CSV injection).  Numbers are left alone."""
    out = frame.copy()
    for name in out.columns:
        if out[name].dtype == object or pd.api.types.is_string_dtype(out[name]):
            out[name] = out[name].map(lambda v: "'" + v if _formula_like(v) else v)
    if any(_formula_like(c) for c in out.columns):
        out.columns = ["'" + c if _formula_like(c) else c for c in out.columns]
    return out


def _formula_like(value) -> bool:
    """A text cell a spreadsheet would run: starts (after blanks) with = + - @, a tab or a return."""
    if not isinstance(value, str):
        return False
    first = value.lstrip(" \n")[:1]
    return value[:1] in ("\t", "\r") or (first != "" and first in "=+-@")
