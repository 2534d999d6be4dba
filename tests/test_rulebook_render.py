"""The typeset rulebooks: kinsoku on the lines actually drawn, links, outline, fonts, determinism."""
from __future__ import annotations

import io
import re

import pytest
from pypdf import PdfReader

from generator.context import BuildContext
from generator.rulebook.build import book_languages, rulebook_files
from generator.rulebook.content import Heading, rulebook_content
from generator.rulebook.impose import impose
from generator.rulebook.typeset import render
from generator.text.kinsoku import NOT_AT_LINE_END, NOT_AT_LINE_START
from solver.game.loader import load_game


@pytest.fixture(scope="module")
def side_by_side():
    game = load_game("dont-drop-the-ring")
    content = rulebook_content(game, ["ja", "en"], None)
    pdf, rec = render(content, "a4")
    return game, content, pdf, rec


@pytest.fixture(scope="module")
def saboteur_ja_a5():
    game = load_game("saboteur-the-lost-mines")
    content = rulebook_content(game, ["ja"], None)
    return render(content, "a5")


def _assert_kinsoku(lines):
    """Lines that a break inside a paragraph starts or ends (a cell holding just "?" is no break)."""
    ja = [ln for ln in lines if ln.lang == "ja" and ln.text]
    assert len([ln for ln in ja if ln.continues]) > 30
    bad_start = [ln.text for ln in ja if ln.continues and ln.text[0] in NOT_AT_LINE_START]
    bad_end = [ln.text for ln in ja if ln.continued and ln.text[-1] in NOT_AT_LINE_END]
    assert bad_start == [] and bad_end == []


def test_no_rendered_japanese_line_breaks_a_kinsoku_rule(side_by_side, saboteur_ja_a5):
    _assert_kinsoku(side_by_side[3].lines)
    _assert_kinsoku(saboteur_ja_a5[1].lines)


def test_every_clause_is_printed_in_both_languages_with_no_gap(side_by_side):
    game, content, _, _ = side_by_side
    assert content.missing == []
    rules = game.extras["rules"]
    headings = [b for b in content.blocks if isinstance(b, Heading)]
    titled = [p for p in rules.walk() if p.clause.title]
    assert len([h for h in headings if h.number]) == len(titled)


def _links(pdf: bytes) -> list[tuple[int, str, int, list[str]]]:
    """Every link of the book as a reader meets it, read with pypdf (the annotations) and pdfplumber
    (the words): (page, the words under the link, the page it lands on, the first words printed
    from the point it lands at down)."""
    import pdfplumber

    reader = PdfReader(io.BytesIO(pdf))
    page_of = {page.indirect_reference.idnum: i for i, page in enumerate(reader.pages)}
    out = []
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        for i, page in enumerate(reader.pages):
            for annot in page.get("/Annots") or []:
                a = annot.get_object()
                if a.get("/Subtype") != "/Link":
                    continue
                dest = a["/Dest"] if "/Dest" in a else a["/A"]["/D"]
                assert dest[1] == "/XYZ"                         # a point on the page: left, top, zoom
                x0, y0, x1, y1 = (float(v) for v in a["/Rect"])
                here, there = doc.pages[i], doc.pages[page_of[dest[0].idnum]]
                text = here.crop((x0, here.height - y1, x1, here.height - y0)).extract_text()
                top = there.height - float(dest[3])
                landed = [w["text"] for w in there.extract_words() if top - 2 <= w["top"] <= top + 30]
                out.append((i + 1, text, page_of[dest[0].idnum] + 1, landed))
    return out


def test_cross_reference_links_resolve_to_their_clauses(side_by_side):
    """Each link lands where what it names is printed, judged from the PDF alone: a clause number
    (4.2) lands on that number's line, a contents line on its heading, a clarification's clause
    (in the list at the back) on the clarification box printed beside the clause."""
    _, _, pdf, rec = side_by_side
    assert rec.links, "the rules of dont-drop-the-ring refer to clauses 4.2 and 4.9"
    links = _links(pdf)
    contents = [(text, page, landed) for at, text, page, landed in links if at == 2]
    clarifications = [(text, landed) for at, text, _, landed in links if at == 10]
    clauses = [(re.search(r"\d+(?:\.\d+)+", text), landed) for at, text, _, landed in links if at not in (2, 10)]
    assert len(contents) == 9                                     # every line of the contents page
    for text, page, landed in contents:
        number = re.search(r"(\d+)\s*$", text)[1]               # the page number the line prints
        assert int(number) == page, text
        assert text.split(" / ")[0].split()[-1] in landed, (text, landed)   # its heading is there
    assert {m[0] for m, _ in clauses if m} >= {"4.2", "4.9", "4.9.1"}
    for m, landed in clauses:
        assert m and landed[0] == m[0], (m, landed)               # the clause's number starts the line
    assert clarifications and all(landed[0].startswith("◆") for _, landed in clarifications)


def test_outline_lists_the_chapters(side_by_side):
    _, _, pdf, _ = side_by_side
    reader = PdfReader(io.BytesIO(pdf))
    titles = [o.title for o in reader.outline if not isinstance(o, list)]
    # the book opens with how to win (the section of kind objective), then what is in the box
    assert titles[:3] == ["目次 / Contents", "1 ゲームの目的 / Object of the game", "内容物 / Components"]
    assert "用語集 / Glossary" in titles


def test_fonts_are_embedded(side_by_side):
    _, _, pdf, _ = side_by_side
    reader = PdfReader(io.BytesIO(pdf))
    fonts = {}
    for page in reader.pages:
        for f in (page["/Resources"].get("/Font") or {}).values():
            f = f.get_object()
            desc = f.get("/FontDescriptor")
            if desc is None and "/DescendantFonts" in f:
                desc = f["/DescendantFonts"][0].get_object().get("/FontDescriptor")
            if desc is not None:
                fonts[str(f["/BaseFont"])] = "/FontFile2" in desc.get_object()
    assert fonts and all(fonts.values()), fonts


def test_same_input_same_bytes(side_by_side):
    game, content, pdf, _ = side_by_side
    again, _ = render(rulebook_content(game, ["ja", "en"], None), "a4")
    assert again == pdf


def test_a_book_without_its_lines_recorded_is_the_same_book(side_by_side):
    """A build asks the recorder to keep no line (Recorder.keep_lines): the book is the same bytes,
    and the lines of both books are the ones the recorder keeps when asked."""
    _, content, pdf, rec = side_by_side
    bare, none = render(content, "a4", lines=False)
    assert bare == pdf and none.lines == [] and none.anchors == rec.anchors
    assert len(rec.lines) > 500 and {ln.lang for ln in rec.lines} >= {"ja", "en"}
    guide, _ = render(content, "a4", leaflet=True)
    assert render(content, "a4", leaflet=True, lines=False)[0] == guide


def test_a_book_drawn_for_its_booklet_alone_has_no_links_and_gives_the_same_sheets(saboteur_ja_a5):
    """The build's A5 book is made only to be imposed, which keeps its pages' content and resources:
    drawn without links, destinations and outline entries (`links=False`), it gives the same
    booklet, byte for byte, with either flip."""
    pdf = saboteur_ja_a5[0]
    bare, _ = render(rulebook_content(load_game("saboteur-the-lost-mines"), ["ja"], None), "a5", links=False)
    full, plain = PdfReader(io.BytesIO(pdf)), PdfReader(io.BytesIO(bare))
    assert any("/Annots" in page for page in full.pages) and "/Outlines" in full.trailer["/Root"]
    assert not any("/Annots" in page for page in plain.pages) and "/Outlines" not in plain.trailer["/Root"]
    assert len(plain.pages) == len(full.pages) and bare != pdf
    for flip in ("short", "long"):
        assert impose(bare, flip=flip, back_cover=True) == impose(pdf, flip=flip, back_cover=True)


def test_contents_page_numbers_point_at_the_headings(side_by_side):
    """The contents page's numbers are read beside their titles, and each is the page on which the
    heading is printed (found by its text on the pages, whose folio is that number too)."""
    _, _, pdf, _ = side_by_side
    reader = PdfReader(io.BytesIO(pdf))
    pages = [page.extract_text().splitlines() for page in reader.pages]
    contents = "\n".join(pages[1])
    for title in ("Components", "Glossary"):
        listed = int(re.search(rf"/ {title} \n(\d+)\n", contents)[1])
        printed = next(n for n, lines in enumerate(pages[2:], start=3) if title in lines)
        assert listed == printed and pages[printed - 1][0] == str(printed), title


def test_build_stage_books_and_booklet(tmp_path):
    game = load_game("dont-drop-the-ring")
    assert book_languages(game) == ["ja", "en", "ja+en", "fr", "ja+fr"]
    ctx = BuildContext(out_root=tmp_path)
    [path] = rulebook_files(game, ctx, "en", booklet=True, report=None)
    assert path.name == "booklet-en.pdf"
    reader = PdfReader(str(path))
    assert len(reader.pages) % 2 == 0
    w, h = float(reader.pages[0].mediabox.width), float(reader.pages[0].mediabox.height)
    assert abs(w - 841.89) < 1 and abs(h - 595.28) < 1


def test_a_combined_pile_is_named_by_its_step_or_by_its_parts():
    """Sauron's setup combines base and Sauron event tiles `into: event-tile-bag`: the setup table's
    row is the step's `name`, and without one the parts' names joined by +, never the pile's id."""
    from generator.rulebook.content import TableBlock
    from solver.game.setup import CombineStep
    from solver.report import check_game

    game = load_game("lotr-sauron")
    i, step = next((i, s) for i, s in enumerate(game.setup.steps) if isinstance(s, CombineStep))

    def first_cells(g) -> list[str]:
        content = rulebook_content(g, ["en"], check_game(g))
        return [r[0].text for b in content.blocks if isinstance(b, TableBlock) for r in b.rows["en"]]

    assert step.name and any(c.startswith(step.name["en"] + " in play") for c in first_cells(game))
    game.setup.steps[i] = step.model_copy(update={"name": None})
    parts = " + ".join(game.component(c).name["en"] for c in step.combine)
    cells = first_cells(game)
    assert any(c.startswith(parts + " in play") for c in cells), cells
    assert not any(step.into in c for c in cells)


def test_a_built_books_strings_and_memos_are_freed_without_a_collection(side_by_side):
    """A build's book (lines=False) offers preflight its drawn strings; once preflight has let go of
    the record, neither those strings nor the drawing's memos (each string's runs) are left for the
    garbage collector: the book's document and canvas hold each other, and a collection that must
    find them walked every string they still held (0.5 CPU-s over the examples' books)."""
    import gc

    from generator.drawn_registry import digest, take_record

    _, content, _, _ = side_by_side
    gc.collect()
    gc.disable()
    try:
        bare, rec = render(content, "a4", lines=False)
        record = take_record(digest(bare))
        strings = len(record.strings)
        del record, rec, bare
        gc.set_debug(gc.DEBUG_SAVEALL)
        gc.collect()
    finally:
        gc.set_debug(0)
        gc.enable()
    left, gc.garbage[:] = list(gc.garbage), []
    tuples = sum(type(o) is tuple for o in left)
    assert strings > 1000
    assert tuples < strings / 10, (tuples, strings)
