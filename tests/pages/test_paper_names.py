"""Every "000 / 001 / 003 / 004" a page shows names its paper (issue 24 item 2): each registered page, and
every step of every lesson with its answer revealed, is rendered through app.py's navigation (AppTest),
and every text it shows is read — markdown, captions, headings, alerts, formulas, metric labels and values,
widget labels, help, options and placeholders, tab and expander labels, table and dataframe cells, column
names and labels, and the Plotly charts' titles, axis and legend titles, annotations, trace names, text and
hover texts.  A paper number is *named* when it is

* the text of a link to its References entry (``app_support.text.cite`` / ``paper_link`` in markdown,
  ``cite_chart``'s ``<a href="/references#paper-N">`` in a chart), or
* followed by its authors and year (``app_support.text.cite_plain``: ``"001 Fig. 5 (Corani & Antonucci
  2012)"``, ``"median split (004, Li, De Bock & de Cooman 2019)"``), where a link cannot go (options,
  cells, labels);

any other is *bare*, and the test fails naming each bare one with the page, the element and its text.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd
import pytest
from google.protobuf.json_format import MessageToDict
from streamlit.testing.v1 import AppTest

from app_support.registry import pages
from app_support.text import _CITATION, PAPER_TITLES, _short_name, cite, cite_chart, cite_plain

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "app.py")
SEED = "11"

# proto fields that are never shown as text (ids, formats, raw indices, styling, configuration)
HIDDEN_FIELDS = {"id", "formId", "type", "dataType", "format", "rawValue", "rawValues", "elementType", "tag",
                 "anchor", "config", "theme", "direction", "color", "deferredFileId", "url", "arrowData",
                 "data", "spec", "columns", "gapConfig", "flexContainer", "verticalAlignment", "icon",
                 "widthConfig", "heightConfig", "scrollingConfig", "useContainerWidth", "selectionMode"}
# the parts of a Plotly figure a reader sees (layout) and the trace fields shown on the chart or on hover
CHART_LAYOUT_TEXT = re.compile(r"^layout\.(title|[xyz]axis\d*\.title|legend\.title|annotations"
                               r"|coloraxis\.colorbar\.title)(\.|$)")
CHART_TRACE_TEXT = {"name", "text", "hovertemplate", "hovertext", "title", "header", "cells", "labels",
                    "legendgrouptitle"}

_LINKED_MD = re.compile(r"\[([^\]]*)\]\(/references#paper-(\d{3})(?: \"[^\"]*\")?\)")
_LINKED_HTML = re.compile(r'<a href="/references#paper-(\d{3})"[^>]*>(.*?)</a>')


def bare_numbers(text: str) -> list[str]:
    """The paper citations of ``text`` that do not name their paper (see the module's docstring)."""
    def gone(match: re.Match) -> str:                    # a citation the link names, if it is its own paper
        label, paper = (match.group(1), match.group(2)) if match.re is _LINKED_MD else match.group(2, 1)
        cited = _CITATION.fullmatch(label)
        return "" if cited is None or cited.group(1) == paper else label
    text = _LINKED_HTML.sub(gone, _LINKED_MD.sub(gone, text.replace("\\&", "&")))     # TeX's \& is &
    bare = []
    for match in _CITATION.finditer(text):
        name = _short_name(match.group(1))
        if not text.startswith((f" ({name})", f", {name})"), match.end()):
            bare.append(match.group(0))
    return bare


def _strings(obj, path: str = ""):
    if isinstance(obj, dict):
        for key, value in obj.items():
            yield from _strings(value, f"{path}.{key}" if path else key)
    elif isinstance(obj, list):
        for value in obj:
            yield from _strings(value, path)
    elif isinstance(obj, str):
        yield path, obj


def _chart_texts(spec: str):
    figure = json.loads(spec)
    for path, text in _strings(figure.get("layout", {}), "layout"):
        if CHART_LAYOUT_TEXT.match(path):
            yield f"chart {path}", text
    for trace in figure.get("data", []):
        for path, text in _strings(trace):
            if path.split(".")[0] in CHART_TRACE_TEXT:
                yield f"chart trace {path}", text


def _table_texts(frame: pd.DataFrame):
    for label in (*map(str, frame.columns), *map(str, frame.index)):
        yield "header", label
    for value in frame.to_numpy().ravel():
        if isinstance(value, str):
            yield "cell", value


def shown_texts(node, kind: str = "page"):
    """(element, text) for every text the rendered tree ``node`` shows."""
    proto = getattr(node, "proto", None)
    name = type(node).__name__
    if proto is not None and name not in ("ElementTree",):
        fields = MessageToDict(proto)
        for key, value in fields.items():
            if key not in HIDDEN_FIELDS:
                for path, text in _strings(value, key):
                    yield f"{name}.{path}", text
        spec = getattr(proto, "spec", None)
        if isinstance(spec, str) and spec.startswith("{"):
            yield from ((f"{name} {where}", text) for where, text in _chart_texts(spec))
        if name in ("Dataframe", "Table"):
            yield from ((f"{name} {where}", text) for where, text in _table_texts(node.value))
            columns = getattr(proto, "columns", "")
            if columns:
                for path, text in _strings(json.loads(columns)):
                    if path.endswith(("label", "help")):
                        yield f"{name} column {path}", text
    for child in getattr(node, "children", {}).values():
        yield from shown_texts(child, kind)


def render(stem: str, query: dict[str, str] | None = None, reveal: bool = False) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    at.switch_page(f"pages/{stem}.py")
    if query:
        at.query_params.update(query)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    if reveal:
        found = [b for b in at.button if b.key and b.key.endswith("reveal")]
        if found:
            found[0].click()
            at.run()
            assert not at.exception, [e.value for e in at.exception]
    return at


def bare_in(at: AppTest, where: str) -> list[str]:
    found = []
    for element, text in shown_texts(at._tree):
        for number in bare_numbers(text):
            found.append(f"{where}: {element}: bare {number!r} in {' '.join(text.split())[:110]!r}")
    return sorted(set(found))


def test_the_check_finds_bare_numbers_and_accepts_named_ones():
    assert bare_numbers("as in 000 Ex. 2 and 004") == ["000 Ex. 2", "004"]
    assert bare_numbers(cite("as in 000 Ex. 2 and 004")) == []
    assert bare_numbers(cite_plain("001 Fig. 5: safe instances")) == []
    assert bare_numbers(cite_plain("Selector (004)")) == [] and bare_numbers("Selector (004, x)") == ["004"]
    assert bare_numbers(cite_chart("003 Example 2, likelihood")) == []
    assert bare_numbers("10,000 rows, α = 0.001, preset=000-ex2") == []
    # a link or an authors' name must be the paper's own
    assert bare_numbers('[000 Ex. 2](/references#paper-001 "x")') == ["000 Ex. 2"]
    assert bare_numbers(f"001 ({_short_name('000')})") == ["001"]
    assert bare_numbers(r"\text{003 (Cattaneo 2010), 004 (Li, De Bock \& de Cooman 2019)}") == []
    frame = pd.DataFrame({"source": ["004 Table 2", cite_plain("004 Table 2")]})
    texts = [text for _, text in _table_texts(frame)]
    assert [n for t in texts for n in bare_numbers(t)] == ["004 Table 2"]
    spec = json.dumps({"layout": {"title": {"text": "001 Fig. 5"}, "xaxis": {"title": {"text": "N"}}},
                       "data": [{"name": cite_chart("000 Ex. 3"), "hovertemplate": "003 Ex. 2 %{x}"}]})
    assert [n for _, t in _chart_texts(spec) for n in bare_numbers(t)] == ["001 Fig. 5", "003 Ex. 2"]
    assert set(PAPER_TITLES) == {"000", "001", "003", "004"}


def _lesson_steps():
    try:
        from app_support.lessons.catalogue import lessons
    except ImportError:                        # the lessons package being written
        return []
    return [(lesson.id, n) for lesson in lessons() for n in range(1, len(lesson.steps) + 1)]


@pytest.mark.parametrize("stem", [p.stem for p in pages()])
def test_every_paper_number_a_page_shows_names_its_paper(stem):
    at = render(stem)
    assert list(shown_texts(at._tree)), "the page shows text"
    bare = bare_in(at, stem)
    assert bare == [], "\n".join(bare)


def test_every_paper_number_a_lesson_step_shows_names_its_paper():
    bare = []
    for lesson, step in _lesson_steps():
        at = render("lessons", {"lesson": lesson, "step": str(step), "seed": SEED}, reveal=True)
        bare += bare_in(at, f"lessons?lesson={lesson}&step={step}")
    assert bare == [], "\n".join(bare)
