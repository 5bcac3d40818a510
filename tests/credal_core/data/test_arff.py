"""ARFF through the loader: declarations kept as categories, sparse rows, clear refusals, JNCC2's files."""
import csv

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from credal_core.data.arff import looks_like_arff, parse_arff
from credal_core.data.csv_loader import (
    CsvLimits,
    CsvProblem,
    check_class_column,
    default_class_column,
    read_csv_bytes,
)
from tests.credal_core._helpers import reference_data, table_or_clear_problem

JNCC2 = reference_data("jncc2")    # may be absent
JNCC2_FILES = sorted(JNCC2.glob("*/*.arff")) + sorted(JNCC2.glob("*/unkClasses/*.arff"))

WEATHER = """% the weather data, with every feature of the format
% a second comment line

@RELATION 'weather, nominal'
@attribute outlook {sunny, overcast, 'light rain'}   % inline comment
@Attribute 'air temp' REAL
@attribute humidity integer
@attribute "wind, gusts" {"calm", 'it\\'s windy'}
@attribute play {yes,no,maybe}

@data
sunny, 85, 85, calm, no
'light rain',70.5,?,'it\\'s windy',yes   % a comment after a row
?, -1e1, 96, calm, yes
  overcast ,  .5 , 3 , "calm" , yes
"""


def test_a_hand_written_arff_with_every_supported_feature():
    table = read_csv_bytes(WEATHER.replace("\n", "\r\n").encode())
    assert table.format == "arff" and table.relation == "weather, nominal"
    assert list(table.frame.columns) == ["outlook", "air temp", "humidity", "wind, gusts", "play"]
    assert table.frame.shape == (4, 5)
    outlook = table.frame["outlook"]
    assert list(outlook.cat.categories) == ["sunny", "overcast", "light rain"]
    assert outlook.tolist()[:2] == ["sunny", "light rain"] and pd.isna(outlook.iloc[2])
    assert outlook.iloc[3] == "overcast"
    assert list(table.frame["wind, gusts"].cat.categories) == ["calm", "it's windy"]
    assert table.frame["wind, gusts"].tolist() == ["calm", "it's windy", "calm", "calm"]
    # numeric attributes: kept as text (like the CSV path), listed to discretise, missing as NA
    assert table.numeric == ["air temp", "humidity"] and table.number_like == ["air temp", "humidity"]
    assert table.frame["air temp"].tolist() == ["85", "70.5", "-1e1", ".5"]
    assert table.numeric_frame()["air temp"].tolist() == [85.0, 70.5, -10.0, 0.5]
    assert pd.isna(table.frame["humidity"].iloc[1])
    assert table.missing == {"outlook": 1, "air temp": 0, "humidity": 1, "wind, gusts": 0, "play": 0}
    # the declared class "maybe" has no row but stays a category; the class is the last attribute
    assert list(table.frame["play"].cat.categories) == ["yes", "no", "maybe"]
    assert default_class_column(table) == "play"
    info = check_class_column(table, "play")
    assert info["labels"] == {"yes": 3, "no": 1} and info["empty"] == ["maybe"] and info["rare"] == []


def test_sparse_rows_fill_zero_or_the_first_declared_value():
    text = ("@relation s\n@attribute a numeric\n@attribute b {x, 'y z'}\n@attribute c numeric\n"
            "@attribute class {p, q}\n@data\n{0 3, 1 'y z', 3 q}\n{2 ?}\n{}\n")
    table = read_csv_bytes(text.encode())
    assert table.frame["a"].tolist() == ["3", "0", "0"]
    assert table.frame["b"].tolist() == ["y z", "x", "x"]
    assert table.frame["c"].tolist()[0] == "0" and pd.isna(table.frame["c"].iloc[1])
    assert table.frame["class"].tolist() == ["q", "p", "p"]
    assert any("sparse" in note for note in table.notes)


@pytest.mark.parametrize("kind", ["string", "STRING", "date", "date 'yyyy-MM-dd'", "relational"])
def test_unsupported_attribute_types_are_refused_naming_the_attribute(kind):
    text = (f"@relation r\n@attribute ok numeric\n@attribute 'my notes' {kind}\n"
            "@attribute class {a,b}\n@data\n")
    with pytest.raises(CsvProblem, match=f"attribute 'my notes' is of type {kind.split()[0].lower()}"):
        read_csv_bytes(text.encode())


HEADER = "@relation r\n@attribute x numeric\n@attribute class {a, b}\n"


@pytest.mark.parametrize("body,message", [
    ("@data\n1, c\n", r"line 5: 'c' is not a declared value of attribute 'class' \(\{a, b\}\)"),
    ("@data\none, a\n", "'one' in numeric attribute 'x' is not a number"),
    ("@data\n1e400, a\n", "is not a number"),
    ("@data\nnan, a\n", "is not a number"),
    ("@data\n1, a, 3\n", "line 5 has 3 values but 2 attributes are declared"),
    ("@data\n1\n", "has 1 values but 2"),
    ("@data\n1, 'a\n", "line 5: unbalanced quote"),
    ("@data\n, a\n", "an empty value in attribute 'x'"),
    ("@data\n1, a, {2}\n", "instance weights"),
    ("@data\n{0 1, 1 a}, {3}\n", "instance weights"),
    ("@data\n{5 1}\n", "sparse index 5 is beyond the 2 attributes"),
    ("@data\n{x}\n", "is not 'index value'"),
    ("@data\n{0 1\n", "no closing brace"),
    ("@data\n", "no data rows"),
    ("", "no @data section"),
    ("@attribute x {a}\n@data\n1, a\n", "duplicate attribute names: 'x'"),
    ("hello\n@data\n", "expected @relation, @attribute or @data"),
    ("@end r\n@data\n", "relational"),
])
def test_malformed_arff_is_refused_with_a_specific_message(body, message):
    with pytest.raises(CsvProblem, match=message):
        read_csv_bytes((HEADER + body).encode())


@pytest.mark.parametrize("declaration,message", [
    ("{}", "declares no values"),
    ("{a, b, a}", "declares 'a' twice"),
    ("{a, , b}", "declares an empty value"),
    ("{a, b", "has no closing brace"),
    ("blob", "unknown type"),
])
def test_bad_declarations_are_refused(declaration, message):
    with pytest.raises(CsvProblem, match=message):
        read_csv_bytes(f"@relation r\n@attribute f {declaration}\n@attribute class {{a,b}}\n@data\n".encode())


def test_detection_by_content_or_name():
    assert looks_like_arff("% comment\n\n@relation x\n") and not looks_like_arff("a,b\n@relation,x\n")
    csv_text = b"a,class\n1,x\n2,y\n"
    assert read_csv_bytes(csv_text).format == "csv"
    assert read_csv_bytes(csv_text, name="data.csv").format == "csv"
    with pytest.raises(CsvProblem, match="named .arff but has no ARFF header"):
        read_csv_bytes(csv_text, name="DATA.ARFF")
    assert read_csv_bytes(WEATHER.encode(), name="weather.arff").format == "arff"


def test_limits_apply_to_arff_too():
    many = HEADER + "@data\n" + "".join(f"{i}, a\n" for i in range(30))
    with pytest.raises(CsvProblem, match="more than 20 data rows"):
        read_csv_bytes(many.encode(), CsvLimits(max_rows=20))
    wide = "@relation r\n" + "".join(f"@attribute f{j} numeric\n" for j in range(60)) + "@data\n"
    with pytest.raises(CsvProblem, match="more than 50 attributes"):
        read_csv_bytes(wide.encode(), CsvLimits(max_columns=50))
    long_value = HEADER.replace("{a, b}", "{a, " + "b" * 2000 + "}") + "@data\n1, " + "b" * 2000 + "\n"
    with pytest.raises(CsvProblem, match="2,000 characters"):
        read_csv_bytes(long_value.encode())
    with pytest.raises(CsvProblem, match="single attribute"):
        read_csv_bytes(b"@relation r\n@attribute class {a,b}\n@data\na\n")


def test_id_like_and_empty_columns():
    text = ("@relation r\n@attribute id numeric\n@attribute name {p,q,r}\n@attribute gone {u,v}\n"
            "@attribute class {a,b}\n@data\n1,p,?,a\n2,q,?,b\n3,r,?,a\n")
    table = read_csv_bytes(text.encode())
    assert table.id_like == ["id", "name"]
    assert any("'gone' is empty" in note for note in table.notes)


# ---------------------------------------------------------------- hostile input, generated
pieces = st.sampled_from(["@relation r", "@attribute a numeric", "@attribute 'b c' {x,'y z',\"w\"}",
                          "@attribute d {", "@attribute e string", "@data", "{0 1, 1 x}", "{", "}",
                          "1, x, y", "?,?", "'", '"', "%", "\\", "1e999", ",", "{1 'x}", "@end"])


@st.composite
def arff_like(draw):
    lines = draw(st.lists(st.one_of(pieces, st.text(max_size=15)), max_size=12))
    head = ["@relation r", "@attribute a numeric", "@attribute b {x, y}"] if draw(st.booleans()) else []
    return "\n".join(head + lines).encode(draw(st.sampled_from(["utf-8", "latin-1"])), errors="replace")


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.one_of(arff_like(), st.binary(max_size=200).map(lambda b: b"@relation r\n" + b)))
def test_hostile_arff_gives_a_table_or_a_clear_problem(data):
    table_or_clear_problem(data)


# ---------------------------------------------------------------- JNCC2's example files
def _jncc2_or_skip():
    if not JNCC2_FILES:
        pytest.skip("../shared/reference/jncc2 is not available")


def test_every_jncc2_arff_file_is_read():
    _jncc2_or_skip()
    for path in JNCC2_FILES:
        table = read_csv_bytes(path.read_bytes(), name=path.name)
        assert table.format == "arff" and table.frame.shape[0] >= 12, path.name
    glass = read_csv_bytes((JNCC2 / "glass" / "glass.training.arff").read_bytes())
    assert len(glass.frame["Type"].cat.categories) == 7                  # one declared class has no row
    assert check_class_column(glass, "Type")["empty"] == ["vehic wind non-float"]


@pytest.mark.parametrize("example", ["contact-lenses", "iris", "glass", "hepatitis", "labor"])
@pytest.mark.parametrize("part", ["train", "test"])
def test_jncc2_nominal_codes_and_missing_cells_are_reproduced(example, part):
    # generated/<ex>_<part>_discretised.csv holds JNCC2's own reading: 0-based category index in
    # declaration order, ? where missing (numeric columns are its bins, checked in the parity tests)
    _jncc2_or_skip()
    folder = JNCC2 / example
    arff = folder / f"{example}.{'training' if part == 'train' else 'testing'}.arff"
    table = read_csv_bytes(arff.read_bytes())
    rows = list(csv.DictReader((folder / "generated" / f"{example}_{part}_discretised.csv").open()))
    assert len(rows) == len(table.frame)
    class_name = table.frame.columns[-1]
    checked = 0
    for name in [c for c in table.frame.columns if c not in table.numeric]:
        key = "class" if name == class_name else name
        if key not in rows[0]:
            continue                          # a feature JNCC2 dropped (a single declared value)
        codes = table.frame[name].cat.codes.to_numpy()
        want = np.array([-1 if r[key] == "?" else int(r[key]) for r in rows])
        assert np.array_equal(codes, want), name
        checked += 1
    assert checked >= 1
    for name in table.numeric:                # missing numeric cells where JNCC2 has ?
        if name in rows[0]:
            assert table.frame[name].isna().tolist() == [r[name] == "?" for r in rows], name


def _cell_text(value, style):
    """``value`` written in one ARFF quoting style, blanks around it included."""
    if style == "bare":
        return f" {value} "
    quote = "'" if style == "single" else '"'
    return f"{quote}{value.replace(quote, chr(92) + quote)}{quote} "


ROW_VALUES = ["a", "b c", "d,e", "f'g", "h\"i"]
cells = st.one_of(st.tuples(st.sampled_from(["a", "?"]), st.just("bare")),
                  st.tuples(st.sampled_from(ROW_VALUES), st.sampled_from(["single", "double"])))


@settings(max_examples=300, deadline=None)
@given(row=st.lists(cells, min_size=3, max_size=3))
def test_quoting_styles_and_a_trailing_comment_do_not_change_a_row(row):
    # the same line through the quick single-quote path and, with a comment, through the general one
    declared = "{a, 'b c', 'd,e', 'f\\'g', 'h\"i'}"
    header = "@relation r\n" + "".join(f"@attribute v{j} {declared}\n" for j in range(3)) + "@data\n"
    line = ",".join(_cell_text(value, style) for value, style in row)
    want = [[None if value == "?" else value for value, _ in row]]
    assert parse_arff(header + line + "\n").rows == want
    assert parse_arff(header + line + "% a comment, with 'quotes'\n").rows == want
