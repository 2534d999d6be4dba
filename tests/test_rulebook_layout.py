"""Page layout of the typeset rulebooks, read back from the PDF (pt): nothing over anything else,
nothing past the margins or out of its column or table cell, a running footer that gives way to
the page number, no widow or orphan lines, no heading alone at the foot of a page."""
from __future__ import annotations

import dataclasses
import io
from collections import defaultdict

import pytest
from reportlab.lib.units import mm

from generator import fonts
from generator.rulebook.content import TableBlock, Text, rulebook_content
from generator.rulebook.flowables import KPara, Recorder, RowTable, Style
from generator.rulebook.tables import column_widths
from generator.rulebook.typeset import Geometry, render, typeset
from generator.rulebook.pdftext import collisions, outside, text_runs
from solver.game.loader import load_game

LONG_TITLE = {"ja": "ロード・オブ・ザ・リング 拡張「サウロン」ダークイベント・エキストラカード入り完全版",
              "en": "The Lord of the Rings: Sauron (expansion) with the Dark Events and two extra cards"}


@pytest.fixture(scope="module")
def books():
    """(name, page size, pdf, recorder) of real books: the known-bad side-by-side Sauron book, a
    Japanese one, an A5 side-by-side one (the booklet's pages)."""
    out = []
    for game_id, langs, page in [("lotr-sauron", ["ja", "en"], "a4"), ("dont-drop-the-ring", ["ja"], "a4"),
                                 ("saboteur-the-lost-mines", ["ja", "en"], "a5")]:
        content = rulebook_content(load_game(game_id), langs, None)
        pdf, rec = render(content, page)
        out.append((f"{game_id}-{'+'.join(langs)}-{page}", page, pdf, rec))
    return out


def _footer_runs(pdf: bytes, page: str):
    geo = Geometry.of(page)
    runs, sizes = text_runs(pdf)
    return [r for r in runs if r.y < geo.margin], runs, sizes, geo


@pytest.mark.parametrize("page", ["a4", "a5"])
def test_footer_title_gives_way_to_the_page_number(page):
    content = rulebook_content(load_game("dont-drop-the-ring"), ["ja", "en"], None)
    content = dataclasses.replace(content, title=LONG_TITLE)
    pdf, _ = render(content, page)
    footer, runs, sizes, geo = _footer_runs(pdf, page)
    by_page = defaultdict(list)
    for r in footer:
        by_page[r.page].append(r)
    assert len(by_page) == len(sizes) - 1  # every page but the title page has a footer
    for n, rs in sorted(by_page.items()):
        rs.sort(key=lambda r: r.x0)
        # the number on the outer edge (right on odd pages); the title is drawn run by run, each
        # language's letters in its own face
        number, title = (rs[-1], rs[:-1]) if n % 2 else (rs[0], rs[1:])
        text = "".join(r.text for r in title)
        assert number.text == str(n)
        assert text.endswith("…") and text.startswith("ロード・オブ・ザ・リング")
        gap = number.x0 - title[-1].x1 if n % 2 else title[0].x0 - number.x1
        assert gap >= 6 * mm - 0.01  # a clear gap of the promised 6 mm, never an overlap
        assert rs[0].x0 >= geo.margin - 0.01 and rs[-1].x1 <= geo.width - geo.margin + 0.01
    assert collisions(runs) == []


def test_real_books_have_no_text_over_text_or_past_the_margins(books):
    for name, page, pdf, _ in books:
        runs, sizes = text_runs(pdf)
        assert len(runs) > 300, name
        assert collisions(runs) == [], name
        assert outside(runs, sizes, Geometry.of(page).margin) == [], name


def test_every_line_stays_in_its_column_or_table_cell(books):
    for name, _, _, rec in books:
        cells = [ln for ln in rec.lines if ln.role == "cell" and ln.text]
        assert len(cells) > 50, name
        too_wide = [(ln.text, ln.x1, ln.limit) for ln in rec.lines if ln.text and ln.x1 > ln.limit + 0.01]
        assert too_wide == [], name


def test_no_widow_or_orphan_lines(books):
    crossing = 0
    for name, _, _, rec in books:
        pages_of = defaultdict(lambda: defaultdict(int))
        for ln in rec.lines:
            if ln.role != "cell":  # tables break between rows, and repeat their header row
                pages_of[ln.para][ln.page] += 1
        split = [counts for counts in pages_of.values() if len(counts) > 1]
        crossing += len(split)
        assert [dict(c) for c in split if min(c.values()) < 2] == [], name
    assert crossing, "no paragraph crosses a page: the check would prove nothing"


@pytest.mark.parametrize("n_lines,room,expected", [
    (5, 4, [3, 2]),  # one line would be a widow: take one more along
    (5, 1, []),  # one line would be an orphan: all to the next page
    (3, 2, []),  # no split leaves two and two
    (4, 2, [2, 2]),
    (6, 9, [6]),
])
def test_paragraph_split_keeps_two_lines_each_side(n_lines, room, expected):
    font = fonts.register()
    style = Style(font, 10, 12)
    para = KPara(Text("\n".join(["あ"] * n_lines)), style, Recorder())
    parts = para.split(200, room * 12 + 1)
    assert [len(p._lines(200)) for p in parts] == expected


def test_no_heading_alone_at_the_foot_of_a_page(books):
    for name, _, _, rec in books:
        for lang in {ln.lang for ln in rec.lines}:
            lines = [ln for ln in rec.lines if ln.lang == lang and ln.text]  # in the order drawn
            for i, ln in enumerate(lines):
                if ln.role != "heading":
                    continue
                below = next((b for b in lines[i + 1:] if b.role != "heading"), None)
                assert below is None or below.page == ln.page, (name, ln.text, below.text)


@pytest.mark.parametrize("game_id, langs, page, back_cover", [
    ("dont-drop-the-ring", ["ja", "en"], "a5", False),
    ("riddle-of-the-ring", ["en"], "a4", False),  # its colophon, tables split over pages
    ("saboteur-the-lost-mines", ["ja", "fr"], "a5", True),  # a booklet's pages, ending with the back cover
])
def test_the_drawn_book_is_what_a_second_whole_pass_gives(game_id, langs, page, back_cover):
    """render lays the book out once and draws the layout pass's own pages (replay.py): its PDF,
    lines and links are those of a second pass that platypus lays out again from a new story,
    given the first pass's pages of the headings (and that first pass may draw everything)."""
    content = rulebook_content(load_game(game_id), langs, None)
    _, full_first = typeset(content, page, back_cover=back_cover)  # a first pass that draws everything
    slow, again = typeset(content, page, full_first.anchors, back_cover=back_cover)
    fast, rec = render(content, page, back_cover=back_cover)  # the first pass lays out only
    assert fast == slow
    assert rec.anchors == again.anchors and rec.links == again.links
    assert [dataclasses.replace(ln, para=0) for ln in rec.lines] == [dataclasses.replace(ln, para=0) for ln in again.lines]


def test_a_layout_pass_draws_no_columns_rules_but_finds_every_headings_page(monkeypatch):
    """The layout pass's canvas is never saved: side-by-side columns are placed without their rule
    (or state), a clause's table not at all, and their headings' pages are still found (the same
    anchors as a pass that draws everything)."""
    from reportlab.pdfgen.canvas import Canvas

    from generator.rulebook.typeset import _document, _story

    content = rulebook_content(load_game("dont-drop-the-ring"), ["ja", "en"], None)
    streams: list[list[str]] = []
    show = Canvas.showPage
    monkeypatch.setattr(Canvas, "showPage", lambda self: (streams.append(list(self._code)), show(self))[-1])
    rec = Recorder(layout_only=True, keep_lines=False)
    doc = _document(content, "a4", io.BytesIO(), rec, recording=True)
    doc.build(_story(content, "a4", rec, rec.anchors, False, False))
    monkeypatch.undo()
    ops = [op for page in streams for op in page]
    assert len(streams) > 5 and ops.count("q") == ops.count("Q")
    assert not [op for op in ops if op.endswith((" RG", " l S", " w"))]  # no column rule, no table line
    _, drawn = typeset(content, "a4")
    assert rec.anchors == drawn.anchors and len(rec.anchors) > 10


@pytest.mark.parametrize("natural,width", [
    ([50, 400, 30], 300), ([50, 60], 300), ([200, 200, 200], 300), ([20, 300, 280, 15], 400), ([10] * 8, 50),
])
def test_table_columns_fill_the_width_only_when_text_must_wrap(natural, width):
    widths = column_widths(natural, width)
    assert all(w <= n + 1e-9 for w, n in zip(widths, natural))  # no column wider than its text
    if sum(natural) <= width:
        assert widths == natural
    else:
        assert abs(sum(widths) - width) < 1e-6  # no empty room beside a wrapping column
        squeezed = [w for w, n in zip(widths, natural) if w < n]
        assert squeezed and all(w >= max(squeezed) - 1e-9 or n <= w for w, n in zip(widths, natural))


def test_a_table_whose_text_wraps_is_as_wide_as_its_column():
    from generator.rulebook.content import Content, TableBlock
    from generator.rulebook.tables import table
    from generator.rulebook.typeset import _Styles

    effect = "旅の仲間プレイヤーのホビットが誘惑ラインを闇の方向に1マス進みます。" * 2
    block = TableBlock({"ja": [Text("シンボル"), Text("効果")]},
                       {"ja": [[Text("黒の丸"), Text(effect)], [Text("指輪"), Text("1枚")]]})
    cell = _Styles(Content(langs=["ja"], title={}, subtitle={}, facts={}), 9.5, "ja").cell
    for width in (240.0, 480.0):
        t = table(block, "ja", cell, Recorder(), width)
        t.wrap(width, 800)
        assert abs(sum(t._colWidths) - width) < 1e-6
        assert t._colWidths[0] < width / 4  # the short column keeps its own width
    short = TableBlock({"ja": [Text("シンボル"), Text("効果")]}, {"ja": [[Text("指輪"), Text("1枚")]]})
    t = table(short, "ja", cell, Recorder(), 480.0)
    t.wrap(480.0, 800)
    assert sum(t._colWidths) < 200  # a table that fits stays narrow


def test_title_page_facts_say_four_players_not_four_to_four():
    game = load_game("dont-drop-the-ring")
    assert rulebook_content(game, ["ja"], None).facts["ja"][0] == "3〜5人"
    game.meta.players = game.meta.players.model_copy(update={"min": 4, "max": 4})
    assert rulebook_content(game, ["ja", "en"], None).facts == {
        "ja": ["4人"] + rulebook_content(game, ["ja"], None).facts["ja"][1:],
        "en": ["4 players"] + rulebook_content(game, ["en"], None).facts["en"][1:]}


def _setup_like_table() -> tuple[TableBlock, dict[str, list[str]]]:
    counts = range(3, 10)
    names = {"ja": ["ドワーフカード(使用)", "ドワーフカード(箱に戻す)", "スタートカード(使用)", "山札の枚数"],
             "en": ["Dwarf cards in play", "Dwarf cards back in the box", "Start cards in play", "Draw pile"]}
    header = {"ja": [Text("プレイ人数")] + [Text(f"{n}人") for n in counts],
              "en": [Text("Players")] + [Text(str(n)) for n in counts]}
    rows = {lg: [[Text(name)] + [Text(str(10 + n)) for n in counts] for name in names[lg]] for lg in names}
    return TableBlock(header, rows), names


def test_side_by_side_tables_with_many_columns_go_full_width_instead_of_cramped():
    content = rulebook_content(load_game("dont-drop-the-ring"), ["ja", "en"], None)
    block, names = _setup_like_table()
    content.blocks.insert(2, block)
    _, rec = render(content, "a5")
    geo = Geometry.of("a5")
    for lg in ("ja", "en"):
        cells = [ln for ln in rec.lines if ln.role == "cell" and ln.lang == lg and ln.text in names[lg]]
        assert sorted(ln.text for ln in cells) == sorted(names[lg])  # every name on one line, none wrapped
        last = max((ln for ln in rec.lines if ln.role == "cell" and ln.lang == lg and ln.para > cells[0].para),
                   key=lambda ln: ln.limit)
        assert last.limit > geo.width / 2  # the table reaches past the middle of the page: full width


@pytest.mark.parametrize("rows,room,expected", [
    (10, 9, [8, 2]),  # one row would be left alone: two go to the next page
    (10, 2, [2, 8]),
    (10, 1, []),  # one row under the header at the foot of a page: all of it to the next page
    (3, 2, []),
    (6, 4, [4, 2]),
    (30, 12, [12, 18]),
])
def test_tables_break_with_two_rows_or_more_on_each_side(rows, room, expected):
    table = RowTable([["head", "x"]] + [[f"r{i}", "1"] for i in range(rows)], rowHeights=[10] * (rows + 1),
                     repeatRows=1)
    table.wrap(200, 1000)
    parts = table.split(200, (room + 1) * 10 + 0.5)  # the header and `room` rows fit
    assert [len(p._cellvalues) - 1 for p in parts] == expected  # body rows of each part


def _table_pdf(table_class, room: float) -> tuple[bytes, list, list]:
    """A table of wrapping KPara cells (and a Spacer, an empty cell) drawn on two pages of a
    canvas, split at `room`: the PDF, the row heights and row positions of each part."""
    from reportlab.platypus import Spacer

    font = fonts.register_face(fonts.face_of("en").id)
    style, rec = Style(font, 8.5, 11.5), Recorder(keep_lines=False)
    words = "Each player draws two cards, then passes one to the left; the ring moves on."
    data = [[KPara(Text("Header"), style, rec, role="cell"), KPara(Text("Count"), style, rec, role="cell")]]
    data += [[KPara(Text(words[: 12 + 9 * i]), style, rec, lang="en", role="cell"),
              KPara(Text(str(i)), style, rec, role="cell") if i % 3 else Spacer(1, 1)] for i in range(7)]
    table = table_class(data, colWidths=[70, 40], repeatRows=1, hAlign="LEFT")
    table.setStyle([("LEFTPADDING", (0, 0), (-1, -1), 3), ("RIGHTPADDING", (0, 0), (-1, -1), 3),
                    ("TOPPADDING", (0, 0), (-1, -1), 1.5), ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
                    ("VALIGN", (0, 0), (-1, -1), "TOP")])
    pdf, parts = _split_and_drawn(table, (200, 400), 110, room)
    return pdf, [p._rowHeights for p in parts], [p._rowpositions for p in parts]


def _split_and_drawn(table, pagesize: tuple[float, float], width: float, room: float) -> tuple[bytes, list]:
    """`table` split into `room` at `width`, each part drawn on a page of its own: the PDF and the parts."""
    from reportlab.pdfgen.canvas import Canvas

    buf = io.BytesIO()
    canvas = Canvas(buf, pagesize=pagesize, invariant=1)
    table.wrapOn(canvas, width, 400)
    parts = table.splitOn(canvas, width, room)
    for part in parts:
        part.wrapOn(canvas, width, 400)
        part.drawOn(canvas, 10, 380 - part._height)
        canvas.showPage()
    canvas.save()
    return buf.getvalue(), parts


@pytest.mark.parametrize("room", [60.0, 95.0, 400.0])
def test_a_table_of_our_paragraphs_measures_and_draws_as_reportlabs_own_table(room):
    """RowTable measures a cell of one KPara itself (generator/rulebook/flowables.py): its rows,
    their splits and its drawn bytes are reportlab's Table's, compared with that Table (its own
    cell geometry) on the same cells."""
    from reportlab.platypus import Table

    class Reference(RowTable):
        _listCellGeom = Table._listCellGeom  # reportlab's own measuring of a cell

    ours, theirs = _table_pdf(RowTable, room), _table_pdf(Reference, room)
    assert len(ours[1]) == (2 if room < 400 else 1)  # the small rooms split it
    assert ours == theirs


@pytest.mark.parametrize("room", [60.0, 400.0])
def test_a_books_table_shares_one_cell_style_and_draws_as_with_a_style_per_cell(room):
    """tables.table gives all its cells one CellStyle (font, alignment, paddings): its rows, their
    split and its drawn bytes are those of the same cells each given its own style by reportlab's
    commands over every cell, as the table was styled before."""
    from reportlab.lib.colors import HexColor

    from generator.rulebook.content import Content, TableBlock
    from generator.rulebook.flowables import ACCENT
    from generator.rulebook.tables import CELL_PAD, table
    from generator.rulebook.typeset import _Styles

    words = "Each player draws two cards, then passes one to the left; the ring moves on."
    block = TableBlock({"en": [Text("Step"), Text("What happens"), Text("Cards")]},
                       {"en": [[Text(f"Step {i}"), Text(words[: 12 + 9 * i])] + ([Text(str(i))] if i % 3 else [])
                               for i in range(7)]})
    cell = _Styles(Content(langs=["en"], title={}, subtitle={}, facts={}), 8.5, "en").cell
    ours = table(block, "en", cell, Recorder(keep_lines=False), 200.0)
    assert len({id(style) for row in ours._cellStyles for style in row}) == 1
    theirs = RowTable([list(row) for row in ours._cellvalues], colWidths=ours._argW, repeatRows=1, hAlign="LEFT")
    every = ((0, 0), (-1, -1))
    theirs.setStyle([("GRID", *every, 0.3, HexColor("#999999")), ("FONTNAME", *every, cell.font),
                     ("VALIGN", *every, "TOP"), ("LEFTPADDING", *every, CELL_PAD), ("RIGHTPADDING", *every, CELL_PAD),
                     ("TOPPADDING", *every, 1.5), ("BOTTOMPADDING", *every, 1.5), ("BACKGROUND", (0, 0), (-1, 0), ACCENT)])

    def pdf(t: RowTable) -> tuple[bytes, list]:
        drawn, parts = _split_and_drawn(t, (300, 400), 200, room)
        return drawn, [p._rowHeights for p in parts]

    mine, reference = pdf(ours), pdf(theirs)
    assert len(mine[1]) == (2 if room < 400 else 1)  # the small room splits it
    assert mine == reference


def _lines_from(pdf: bytes, starts: str) -> list[list[dict]]:
    """The text lines (pdfplumber characters, left to right) of the first page holding a line that
    starts with `starts`, from that line on."""
    import io

    import pdfplumber

    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        for page in doc.pages:
            lines = defaultdict(list)
            for ch in page.chars:
                lines[round(ch["top"])].append(ch)
            rows = [sorted(cs, key=lambda c: c["x0"]) for _, cs in sorted(lines.items())]
            for i, r in enumerate(rows):
                if "".join(c["text"] for c in r).startswith(starts):
                    return rows[i:]
    raise AssertionError(f"no line starts with {starts!r}")


@pytest.mark.parametrize("lang, bullet", [("en", "•"), ("ja", "・")])
def test_a_lists_numbered_first_item_puts_its_bullet_where_the_other_items_do(lang, bullet):
    """Clause 1.1 of Riddle of the Ring is a list of five components: "1.1  • 1 game map" and the
    four items under it. Read back with pdfplumber, the five bullets stand in one column, and the
    five texts start in one column (the first bullet used to follow the number, its text further on)."""
    pdf, _ = render(rulebook_content(load_game("riddle-of-the-ring"), [lang], None), "a4")
    items = _lines_from(pdf, "1.1")[:5]
    marks = [next(c for c in r if c["text"] == bullet) for r in items]
    texts = [r[r.index(m) + 1:] for r, m in zip(items, marks)]
    starts = [next(c for c in t if c["text"].strip()) for t in texts]
    assert max(m["x0"] for m in marks) - min(m["x0"] for m in marks) < 0.1
    assert max(s["x0"] for s in starts) - min(s["x0"] for s in starts) < 0.1
    assert marks[0]["x0"] - items[0][2]["x1"] > 2 * mm  # a clear gap after the number "1.1"


def test_a_list_that_brings_its_own_marks_hangs_them_instead_of_a_bullet():
    """Riddle's optional rule 7.3 lists a) b) c) (kept: 'use rule a) above' cites them). Read back
    with pdfplumber: no bullet on those lines, the three marks in one column, and the second line
    of item a) starts where its first line's text does (a hanging indent past the mark)."""
    pdf, _ = render(rulebook_content(load_game("riddle-of-the-ring"), ["en"], None), "a4")
    rows = _lines_from(pdf, "a)Team-mates")
    texts = ["".join(c["text"] for c in r) for r in rows]
    a, a2 = rows[0], rows[1]
    b = next(r for r, t in zip(rows, texts) if t.startswith("b)"))
    c = next(r for r, t in zip(rows, texts) if t.startswith("c)"))
    assert not any(ch["text"] == "•" for r in (a, a2, b, c) for ch in r)
    assert max(r[0]["x0"] for r in (a, b, c)) - min(r[0]["x0"] for r in (a, b, c)) < 0.1
    text_x = a[2]["x0"]  # after "a" and ")"
    assert text_x - a[1]["x1"] > 1.5 * mm  # the mark hangs in its own column
    assert abs(a2[0]["x0"] - text_x) < 0.1
    assert abs(b[2]["x0"] - text_x) < 0.1 and abs(c[2]["x0"] - text_x) < 0.1


def test_a_clauses_table_sits_under_its_text_and_a_book_table_spans_the_page():
    """Don't Drop the Ring 4.5 holds a table of rank orders: read back with pdfplumber, its header
    band starts where the clause's text does (past the clause number), while the components table
    of the book's front matter starts at the margin."""
    import io

    import pdfplumber

    pdf, _ = render(rulebook_content(load_game("dont-drop-the-ring"), ["en"], None), "a4")
    ACCENT_RGB = (0x7a / 255, 0x2e / 255, 0x1d / 255)  # the header rows' band
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        bands = {}  # first word of the header row -> x0 of its accent band
        text_x = None
        for page in doc.pages:
            words = page.extract_words()
            for r in page.rects:
                colour = r.get("non_stroking_color")
                if colour and len(colour) == 3 and all(abs(a - b) < 0.01 for a, b in zip(colour, ACCENT_RGB)):
                    inside = [w["text"] for w in words if r["x0"] <= w["x0"] < r["x1"] and r["top"] <= w["top"] < r["bottom"]]
                    if inside:
                        bands.setdefault(inside[0], r["x0"])
            for i, w in enumerate(words):
                if w["text"] == "4.5" and i + 1 < len(words) and words[i + 1]["text"] == "When":
                    text_x = words[i + 1]["x0"]
    assert text_x is not None
    assert abs(bands["Value"] - text_x) < 0.5, (bands, text_x)  # the rank-order table of 4.5
    assert abs(bands["Component"] - Geometry.of("a4").margin) < 0.5  # the book's components table


def _last_chapter_book(lines: int) -> bytes:
    """A leaflet: a chapter of `lines` one-line paragraphs, then a last chapter of one line."""
    from generator.rulebook.blocks import Content, Heading, Para
    from generator.rulebook.blocks import Text as T

    blocks = [Heading("c1", 0, "1", {"en": T("First chapter")})]
    blocks += [Para("text", {"en": T(f"Filler line {i}.")}) for i in range(lines)]
    blocks += [Heading("c2", 0, "2", {"en": T("Last words")}), Para("text", {"en": T("Closing line.")})]
    content = Content(langs=["en"], title={"en": "T"}, subtitle={"en": ""}, facts={"en": []}, blocks=blocks)
    pdf, _ = typeset(content, "a4", leaflet=True)
    return pdf


def test_a_short_last_chapter_shares_the_page_before_when_it_fits():
    """Issue 29: a one-line last chapter went alone onto a new page whenever the page before was
    75 % full. Read back with pdfplumber: it starts a new page only when it would not fit below
    the last line of the page before; and it does stay on a page filled past 75 %."""
    import io

    import pdfplumber

    geo = Geometry.of("a4")
    bottom = geo.height - geo.margin - 5 * mm  # the text block's foot, pt from the top
    kept_on_full_page = 0
    for lines in range(34, 52, 2):
        with pdfplumber.open(io.BytesIO(_last_chapter_book(lines))) as pdf:
            words = [(i, w) for i, page in enumerate(pdf.pages) for w in page.extract_words()]
        heading = next((i, w) for i, w in words if w["text"] == "Last")
        closing = next((i, w) for i, w in words if w["text"] == "Closing")
        filler = max(((i, w) for i, w in words if w["text"] == "Filler"), key=lambda iw: (iw[0], iw[1]["top"]))
        assert heading[0] == closing[0]
        if heading[0] != filler[0]:
            # what the chapter takes at the head of its page (the heading's space above it
            # included), against what was left below the last line, give or take a line's leading
            need = closing[1]["bottom"] - geo.margin
            assert filler[1]["bottom"] + need > bottom - geo.base * 1.5, (lines, filler[1]["bottom"], need)
        elif filler[1]["bottom"] - geo.margin >= 0.75 * (bottom - geo.margin):
            kept_on_full_page += 1
    assert kept_on_full_page > 0


def test_the_colophon_never_stands_alone_on_the_last_page():
    """Saboteur's English book: its short last chapter (how to print) moved up to the glossary's
    page would leave the colophon's one line alone on a new page; the chapter and the colophon
    go together instead. Read back with pdfplumber: the last page holds more than the colophon."""
    import io

    import pdfplumber

    content = rulebook_content(load_game("saboteur-the-lost-mines"), ["en"], None)
    pdf, _ = render(content, "a4")
    geo = Geometry.of("a4")
    with pdfplumber.open(io.BytesIO(pdf)) as book:
        last = book.pages[-1]
        lines = {round(w["top"]) for w in last.extract_words() if w["bottom"] < geo.height - geo.margin}
    assert len(lines) > 2, lines  # the colophon's line and more
