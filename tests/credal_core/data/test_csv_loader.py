"""The CSV loader: encodings, delimiters, detection, and a clear refusal for every malformed file."""
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from credal_core.data.csv_loader import (
    CsvLimits,
    CsvProblem,
    check_class_column,
    default_class_column,
    neutralise_formulas,
    read_csv_bytes,
)
from tests.credal_core._helpers import table_or_clear_problem

GOOD = "colour;size;weight;class\nred;small;1.5;yes\nblue;large;2,5;no\ngreen;small;;yes\n"


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "latin-1", "utf-16"])
def test_encodings_are_detected(encoding):
    text = "café,größe,class\nnaïve,1.5,a\nbœuf,2.5,b\nçà,3.5,a\n" if encoding != "latin-1" else \
        "café,größe,class\nnaïve,1.5,a\nbeuf,2.5,b\nçà,3.5,a\n"
    table = read_csv_bytes(text.encode(encoding))
    # Latin-1 bytes without 0x80-0x9F read the same as Windows-1252, which is tried first
    assert table.encoding == {"latin-1": "cp1252"}.get(encoding, encoding)
    assert list(table.frame.columns) == ["café", "größe", "class"]
    assert table.frame.iloc[0, 0] == "naïve" and table.numeric == ["größe"]


@pytest.mark.parametrize("delimiter", [",", ";", "\t", "|"])
def test_delimiters_are_detected(delimiter):
    text = delimiter.join(["a", "b", "class"]) + "\n" + "\n".join(
        delimiter.join([f"x{i % 3}", str(i * 0.5), "yn"[i % 2]]) for i in range(12))
    table = read_csv_bytes(text.encode())
    assert table.delimiter == delimiter and table.frame.shape == (12, 3)


def test_missing_tokens_numeric_and_id_columns():
    text = "id,colour,size,note,class\n" + "\n".join(
        f"{i},{'rgb'[i % 3]},{'?' if i == 4 else i * 1.5},{'NA' if i % 2 else 'x'},{'ab'[i % 2]}"
        for i in range(20))
    table = read_csv_bytes(text.encode())
    assert table.numeric == ["id", "size"] and table.id_like == ["id"]
    assert table.missing == {"id": 0, "colour": 0, "size": 1, "note": 10, "class": 0}
    assert pd.isna(table.frame["size"].iloc[4])
    assert default_class_column(table) == "class"


def test_quoted_fields_with_delimiters_inside():
    table = read_csv_bytes(b'name,comment,class\n"Smith, J","said ""hi""",a\n"Doe, A","ok",b\n"X","y",a\n')
    assert table.frame.iloc[0].tolist() == ["Smith, J", 'said "hi"', "a"]


def test_mixed_column_is_categorical_with_a_note():
    values = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "oops"]
    text = "v,class\n" + "\n".join(f"{v},{'ab'[i % 2]}" for i, v in enumerate(values))
    table = read_csv_bytes(text.encode())
    assert "v" not in table.numeric
    assert any("mostly numbers" in note and "'oops'" in note for note in table.notes)


@pytest.mark.parametrize("data,message", [
    (b"", "empty"),
    (b"   \n\n  \n", "empty"),
    (b"a,b,class\n", "no data rows"),
    (b"\x00\x01\x02\x03binary\x00junk" * 20, "binary"),
    (b"PK\x03\x04\x14\x00\x06\x00\x08\x00\x00\x00!\x00" + bytes(range(256)) * 4, "binary"),
    (b"onlyone\n1\n2\n3\n", "single column"),
    (b"a,a,class\n1,2,x\n3,4,y\n", "duplicate column names"),
    (b"a,b,class\n1,2,x\n3,4\n", "row 3 has 2 fields"),
    (b'a,b,class\n"unclosed,2,x\n3,4,y\n', "unbalanced quote"),
    (b"a,b,class\n" + b"x" * 5000 + b",1,y\n2,3,z\n", "characters"),
])
def test_malformed_files_are_refused_with_a_specific_message(data, message):
    with pytest.raises(CsvProblem, match=message):
        read_csv_bytes(data)


def test_limits_on_rows_columns_and_size():
    wide = (",".join(f"c{j}" for j in range(60)) + "\n" + ",".join("1" for _ in range(60)) + "\n").encode()
    with pytest.raises(CsvProblem, match="60 columns; the limit is 50"):
        read_csv_bytes(wide, CsvLimits(max_columns=50))
    long = b"a,class\n" + b"".join(b"%d,x\n" % i for i in range(30))
    with pytest.raises(CsvProblem, match="30 data rows; the limit is 20"):
        read_csv_bytes(long, CsvLimits(max_rows=20))
    with pytest.raises(CsvProblem, match="MB; the limit"):
        read_csv_bytes(long, CsvLimits(max_bytes=100))


def test_too_many_levels_are_flagged():
    text = "free,class\n" + "\n".join(f"v{i % 40},{'ab'[i % 2]}" for i in range(100))
    table = read_csv_bytes(text.encode(), CsvLimits(max_levels=30))
    assert any("40 distinct values" in note for note in table.notes)


def test_class_column_checks():
    table = read_csv_bytes(b"f,class\na,x\nb,x\nc,y\nd,\ne,z\n")
    info = check_class_column(table, "class", min_per_class=2)
    assert info["rare"] == ["y", "z"] and info["missing_rows"] == 1 and info["labels"]["x"] == 2
    with pytest.raises(CsvProblem, match="fewer than two classes"):
        check_class_column(read_csv_bytes(b"f,class\na,x\nb,x\n"), "class")
    with pytest.raises(CsvProblem, match="no column named"):
        check_class_column(table, "nope")
    numeric_target = "f,mpg\n" + "\n".join(f"a,{10 + i * 0.37:.2f}" for i in range(40))
    with pytest.raises(CsvProblem, match="looks continuous"):
        check_class_column(read_csv_bytes(numeric_target.encode()), "mpg")


def test_formulas_are_neutralised_for_spreadsheets():
    frame = pd.DataFrame({"=cmd": ["=1+1", "+A1", "-2", "@SUM(A1)", "safe", "\tx"],
                          "n": [-1.5, 2, 3, 4, 5, 6]})
    safe = neutralise_formulas(frame)
    assert safe["'=cmd"].tolist() == ["'=1+1", "'+A1", "'-2", "'@SUM(A1)", "safe", "'\tx"]
    assert safe["n"].tolist() == frame["n"].tolist()             # numbers untouched
    assert frame.columns[0] == "=cmd"                             # the input is not modified


# ---------------------------------------------------------------- hostile input, generated
cells = st.one_of(st.text(max_size=12), st.sampled_from(["", "?", "NaN", "inf", "-inf", "=1+1", '"', "1e400",
                                                          "é", "\u202e", "x,y", "\x00"]),
                  st.floats(allow_nan=True, allow_infinity=True).map(str))


@st.composite
def csv_like(draw):
    n_cols = draw(st.integers(1, 6))
    n_rows = draw(st.integers(0, 8))
    delimiter = draw(st.sampled_from([",", ";", "\t", "|"]))
    header = draw(st.lists(st.text(max_size=6), min_size=n_cols, max_size=n_cols))
    rows = draw(st.lists(st.lists(cells, min_size=max(n_cols - 1, 1), max_size=n_cols + 1),
                         min_size=n_rows, max_size=n_rows))
    text = "\n".join(delimiter.join(r) for r in [header] + rows)
    encoding = draw(st.sampled_from(["utf-8", "utf-8-sig", "latin-1"]))
    return text.encode(encoding, errors="replace")


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.one_of(csv_like(), st.binary(max_size=300)))
def test_hostile_inputs_give_a_table_or_a_clear_problem(data):
    table = table_or_clear_problem(data)
    if table is None:
        return
    assert len(set(table.frame.columns)) == table.frame.shape[1]
    try:
        check_class_column(table, default_class_column(table), min_per_class=2)
    except CsvProblem as problem:
        assert str(problem)


def test_windows_1252_text_is_decoded_as_such():
    table = read_csv_bytes("name,price,class\n“quote”,5 €,a\nplain,6 €,b\n".encode("cp1252"))
    assert table.encoding == "cp1252" and table.frame.iloc[0, 0] == "“quote”"


def test_excel_sep_line_and_decimal_commas():
    table = read_csv_bytes(b"sep=;\nweight;colour;class\n1,5;red;a\n2,25;blue;b\n3,75;red;a\n")
    assert table.delimiter == ";" and list(table.frame.columns) == ["weight", "colour", "class"]
    assert table.numeric == ["weight"] and table.frame["weight"].tolist() == ["1.5", "2.25", "3.75"]
    assert any("decimal commas" in note for note in table.notes)


def test_whole_number_codes_are_categories_not_measurements():
    text = "a1,a5,age,class\n" + "\n".join(f"{1 + i % 3},{1 + i % 4},{20 + i * 3},{'01'[i % 2]}"
                                           for i in range(40))
    table = read_csv_bytes(text.encode())
    assert table.numeric == ["age"]                       # 40 distinct whole numbers: a measurement
    assert sum("taken as categories" in note for note in table.notes) == 3     # a1, a5 and the class


def test_a_pathological_long_line_does_not_stall_the_delimiter_detection():
    # csv.Sniffer is quadratic in the line length: on 48 KB of '","a' it used to take ~18 s
    data = b"a,b\n" + b',"a' * 16_000 + b"\n"
    with pytest.raises(CsvProblem):
        read_csv_bytes(data)


def test_too_many_lines_are_refused_before_parsing():
    with pytest.raises(CsvProblem, match="more than 40 lines"):
        read_csv_bytes(b"a,class\n" + b"1,x\n" * 2000, CsvLimits(max_rows=20))


def test_formula_neutralising_leaves_empty_cells_and_sees_through_blanks():
    frame = pd.DataFrame({"t": ["", " =1+1", "\n@x", "ok", None]})
    assert neutralise_formulas(frame)["t"].tolist()[:4] == ["", "' =1+1", "'\n@x", "ok"]


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be"])
def test_utf16_without_bom_is_read_not_called_binary(encoding):
    table = read_csv_bytes("colour,size,class\nred,1.5,a\nblue,2.5,b\n".encode(encoding))
    assert table.encoding == encoding and table.frame.iloc[1].tolist() == ["blue", "2.5", "b"]
