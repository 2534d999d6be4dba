"""draw_string (generator/rulebook/drawstring.py) writes a run's text operators itself (no reportlab text object per run, the
rulebook's hottest drawing call): its pages must be the bytes reportlab's own drawString gives,
and read back as the text drawn, each character in a font that has it."""
from __future__ import annotations

import io

import pdfplumber
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from generator import fonts
from generator.rulebook.drawstring import draw_string

# Latin with the characters PDF strings escape, a no-break space, Japanese the Latin face lacks
# (drawn in the project font), and more distinct glyphs than one 256-code subset holds.
SAMPLES = [
    "Roll (2d6) \\ add 1 — then “move” it",
    "Gondor’s\u00a0army: 10.10–10.12 … fin",
    "指輪を落とさないで ring 「指輪」 ※ ● end",
    "".join(chr(c) for c in range(0x4E00, 0x4E00 + 300)) + " abc",
    # 600 kanji the project font has, over three subsets (the ones above it partly lacks: drawn as code 0, never given one)
    "".join(chr(c) for c in sorted(fonts.covered_codepoints()) if c >= 0x4E00)[:600] + " abc",
]


def _pdf(draw) -> bytes:
    buf = io.BytesIO()
    canvas = Canvas(buf, pagesize=(800, 400), invariant=1)
    ends = draw(canvas)
    canvas.showPage()
    canvas.save()
    return buf.getvalue(), ends


def _reference(canvas, x, y, s, font, size):
    """What draw_string did before: setFont, drawString and stringWidth per run."""
    for text, f in fonts.runs(s, font):
        canvas.setFont(f, size)
        canvas.drawString(x, y, text)
        x += stringWidth(text, f, size)
    return x


def _draw_all(draw):
    latin, cjk = fonts.text_font("en"), fonts.text_font("ja")

    def go(canvas):
        ends = []
        # the same texts again: drawn from what was remembered; then their words and parts, new strings
        # of characters the document has already given codes (no code to give: worked out without reportlab)
        words = [w for s in SAMPLES for w in s.split(" ")] + [SAMPLES[4][150:], SAMPLES[4][::-1], SAMPLES[4][100:560]]
        for i, s in enumerate(SAMPLES + SAMPLES[::-1] + words):
            for j, (font, size) in enumerate(((latin, 9.5), (cjk, 8.55), (fonts.text_font("en", "italic"), 7.3))):
                ends.append(draw(canvas, 20.25 + j * 3.1, 390 - 15 * (3 * i + j), s, font, size))
        return ends
    return _pdf(go)


def test_the_same_bytes_as_reportlabs_drawstring():
    theirs, their_ends = _draw_all(_reference)
    for _ in range(2):  # and again in a second document: what is remembered across documents holds no codes
        ours, our_ends = _draw_all(draw_string)
        assert ours == theirs
        assert our_ends == their_ends  # where each string ends, to the bit


def test_read_back_as_drawn_in_fonts_that_have_the_characters():
    pdf, _ = _pdf(lambda c: draw_string(c, 20, 300, SAMPLES[2], fonts.text_font("en"), 10))
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        chars = [ch for ch in doc.pages[0].chars if not ch["text"].isspace()]
    assert "".join(ch["text"] for ch in chars) == SAMPLES[2].replace(" ", "")
    by_font = {ch["text"]: ch["fontname"].split("+")[-1] for ch in chars}
    assert by_font["r"].startswith("SourceSerif") and by_font["指"] == by_font["●"] != by_font["r"]
    assert abs(chars[0]["x0"] - 20) < 0.01 and all(abs(ch["size"] - 10) < 0.01 for ch in chars)


def _reference_words(canvas, x, y, words, gap, font, size):
    """What a justified line's words were drawn with before draw_words: one draw_string each."""
    for i, w in enumerate(words):
        x = _reference(canvas, x, y, w, font, size)
        if i < len(words) - 1:
            x += gap
    return x


def _state(canvas):
    return canvas._fontname, canvas._fontsize, canvas._leading, canvas._fillColorObj


def test_words_the_same_bytes_ends_and_canvas_state_as_reportlabs():
    """A justified line's words, drawn at once: the bytes, the end of each line to the bit and what
    the canvas is left with (its font, as drawString's setFont leaves it) as reportlab's own give."""
    from generator.rulebook.drawstring import draw_words

    lines = [s.split(" ") for s in SAMPLES] + [["", "two", "", "spaces"], [], ["指輪", "ring", "(x)"]]

    def go(draw):
        def page(canvas):
            out = []
            for i, words in enumerate(lines):
                for j, (font, size) in enumerate(((fonts.text_font("en"), 9.5), (fonts.text_font("ja"), 8.55))):
                    canvas.setFont(fonts.text_font("en", "italic"), 5)  # a state the line must leave as drawString does
                    out.append((draw(canvas, 20.5, 390 - 20 * (2 * i + j), words, 1.37 + i / 3, font, size), _state(canvas)))
            return out
        return _pdf(page)

    theirs, their_ends = go(_reference_words)
    ours, our_ends = go(draw_words)
    assert ours == theirs
    assert our_ends == their_ends


def test_words_measured_from_their_text_s_sums_the_same_bytes_and_ends():
    """KPara hands draw_words its text's running sums of advances (fonts.advances) and where its
    words start: a word new to the canvas is measured from them, not character by character; the
    bytes and the end of each line to the bit are still reportlab's own."""
    from generator.rulebook.drawstring import draw_words

    faces = ((fonts.text_font("en"), 9.5), (fonts.text_font("ja"), 8.55), (fonts.text_font("en", "italic"), 7.3))
    texts = [(s, font, size) for s in SAMPLES + ["Frodo  and   Sam ", " 指輪 と ring "] for font, size in faces
             if fonts.advances(s, font) is not None]
    assert len(texts) >= 4 and {font for _, font, _ in texts} >= {faces[0][0], faces[1][0]}

    def go(with_sums):
        def page(canvas):
            out = []
            for i, (text, font, size) in enumerate(texts):
                sums = fonts.advances(text, font) if with_sums else None
                cut = text.find(" ", len(text) // 3) + 1  # a line that starts inside the text
                for j, start in enumerate((0, cut, 0)):  # and the first again: its words now known
                    words = text[start:].split(" ")
                    y = 390 - 12 * (3 * i + j)
                    if with_sums:
                        out.append(draw_words(canvas, 20.5, y, words, 1.25 + j, font, size, sums, start))
                    else:
                        out.append(_reference_words(canvas, 20.5, y, words, 1.25 + j, font, size))
            return out
        return _pdf(page)

    assert go(True) == go(False)


def test_a_decoration_is_recorded_as_note_records_it_and_drawn_as_drawstring_draws_it():
    """The contents' dot leaders and page numbers are drawn by draw_string (decoration=True for the
    leaders): the bytes drawString gives, and in preflight's record what drawn.note says of them."""
    from reportlab.lib.colors import HexColor

    from generator.rulebook import drawn

    font, strings = fonts.text_font("en"), [("." * 37, True), ("12", False), ("指輪 ring", False)]

    def go(ours):
        record: list = []

        def page(canvas):
            drawn.recording(canvas, record)
            canvas.setFillColor(HexColor("#aaaaaa"))
            for i, (text, decoration) in enumerate(strings):
                if ours:
                    draw_string(canvas, 30.5, 300 - 20 * i, text, font, 9.5, decoration=decoration)
                else:
                    _reference(canvas, 30.5, 300 - 20 * i, text, font, 9.5)
                    x = 30.5
                    for run, f in fonts.runs(text, font):
                        drawn.note(canvas, x, 300 - 20 * i, run, f, 9.5, decoration=decoration)
                        x += stringWidth(run, f, 9.5)
        return _pdf(page)[0], record

    ours, theirs = go(True), go(False)
    assert ours == theirs and [s[9] for s in ours[1]] == [True, False, False, False]


def test_fill_colour_the_same_operators_as_reportlabs_setfillcolor():
    """set_fill writes what canvas.setFillColor writes, a colour again and again, after another
    one, and after the fill's opacity changed (reportlab then writes a graphics state too)."""
    from reportlab.lib.colors import CMYKColor, HexColor

    from generator.rulebook.drawstring import set_fill

    ink, link, grey = HexColor("#1f4e9a"), HexColor("#000000"), HexColor("#555555")
    see_through = HexColor("#336699")
    see_through.alpha = 0.5
    steps = [ink, ink, link, ink, grey, see_through, ink, ink, CMYKColor(0.1, 0.2, 0.3, 0.4), link, link]

    def mark(canvas):
        canvas.rect(10, 10, 5, 5, fill=1)

    theirs, their_states = _coloured(lambda c, colour: c.setFillColor(colour), steps, mark, "_fillColorObj")
    ours, our_states = _coloured(set_fill, steps, mark, "_fillColorObj")
    assert ours == theirs
    assert our_states == their_states


def _coloured(setter, steps, mark, state: str):
    """A page where each of `steps` is set by `setter(canvas, colour)` and then `mark`s the page:
    the PDF, and the canvas's colour `state` after each."""
    def page(canvas):
        states = []
        for colour in steps:
            setter(canvas, colour)
            mark(canvas)
            states.append(getattr(canvas, state))
        return states
    return _pdf(page)


def test_stroke_colour_the_same_operators_as_reportlabs_setstrokecolor():
    """set_stroke (the side-by-side columns' rule) writes what canvas.setStrokeColor writes, a
    colour again and again, after another one, and after the stroke's opacity changed."""
    from reportlab.lib.colors import CMYKColor, HexColor

    from generator.rulebook.drawstring import set_stroke

    rule, ink = HexColor("#cccccc"), HexColor("#1f4e9a")
    see_through = HexColor("#336699")
    see_through.alpha = 0.5
    steps = [rule, rule, ink, rule, see_through, rule, rule, CMYKColor(0.1, 0.2, 0.3, 0.4), ink, ink]

    def mark(canvas):
        canvas.line(10, 10, 20, 20)

    theirs, their_states = _coloured(lambda c, colour: c.setStrokeColor(colour), steps, mark, "_strokeColorObj")
    ours, our_states = _coloured(set_stroke, steps, mark, "_strokeColorObj")
    assert ours == theirs
    assert our_states == their_states


def test_the_same_bytes_when_the_remembered_figures_are_let_go(monkeypatch):
    """The figures of the numbers drawn at are remembered up to a bound, then let go: a document
    drawn with a bound of a few numbers is still reportlab's own, end for end."""
    from generator.rulebook import drawstring

    theirs, their_ends = _draw_all(_reference)
    monkeypatch.setattr(drawstring, "_FIGURES_MAX", 3)
    drawstring._FIGURES.clear()
    ours, our_ends = _draw_all(draw_string)
    assert len(drawstring._FIGURES) <= 3
    assert ours == theirs
    assert our_ends == their_ends


def test_draw_on_the_same_bytes_and_state_as_reportlabs_drawon():
    """draw_on places a flowable as reportlab's Flowable.drawOn does: the same operators (state
    saved, origin moved, restored), the same matrix while it draws, nested, under a rotated and
    scaled page and after a translation of its own (reportlab merges consecutive `cm`s), and the
    same canvas state after."""
    from reportlab.lib.colors import HexColor
    from reportlab.platypus import Flowable

    from generator.rulebook.drawstring import draw_on

    seen = []

    class Box(Flowable):
        def __init__(self, inner, place):
            super().__init__()
            self.inner, self.place, self.width, self.height = inner, place, 30, 12

        def draw(self):
            c = self.canv
            seen.append((c._currentMatrix, len(c.state_stack)))
            c.setFillColor(HexColor("#336699"))
            c.setFont(fonts.text_font("en"), 7.25)
            c.rect(0, 0, self.width, self.height, fill=1)
            if self.inner is not None:
                c.translate(1.5, 0)  # a `cm` the inner flowable's own must not be merged with
                self.place(self.inner, c, 2.125, -0.5)

    def go(place):
        def page(canvas):
            seen.clear()
            canvas.translate(40.3, 20.1)
            canvas.rotate(7)
            canvas.scale(1.1, 0.9)
            for i, (x, y) in enumerate(((0, 0), (10.333333, 250.1), (-3.2, 1e-7), (10.333333, 250.1))):
                place(Box(Box(Box(None, place), place) if i % 2 else None, place), canvas, x, y)
            return seen[:], (canvas._currentMatrix, canvas._fontname, canvas._fontsize, canvas._fillColorObj,
                             len(canvas.state_stack))
        return _pdf(page)

    theirs, their_state = go(lambda f, c, x, y: f.drawOn(c, x, y))
    ours, our_state = go(draw_on)
    assert ours == theirs
    assert our_state == their_state


def test_a_paragraph_s_lines_at_once_the_same_bytes_ends_state_and_record_as_line_by_line():
    """draw_lines draws a paragraph's lines in one call (KPara without links): the bytes, each
    line's end to the bit and the canvas's state are reportlab's own (setFillColor, then setFont
    and drawString run by run), a hyphen going on where its line ends (x None), in an opaque
    colour it remembers and in one reportlab writes each time (CMYK), with and without the text's
    sums, Japanese over several font subsets and a line with nothing to draw; preflight's record
    of every string is the one set_fill and draw_words give line by line."""
    from reportlab.lib.colors import CMYKColor, HexColor

    from generator.rulebook import drawn
    from generator.rulebook.drawstring import draw_lines, draw_words, set_fill

    text = SAMPLES[4][:200] + " Frodo and  Sam " + SAMPLES[2] + " ring-bearer"
    cases = [(font, size, colour, with_sums) for font, size in ((fonts.text_font("ja"), 8.55), (fonts.text_font("en"), 9.5))
             for colour in (HexColor("#1f4e9a"), CMYKColor(0.1, 0.2, 0.3, 0.4)) for with_sums in (True, False)]

    def lines_of(font, with_sums):
        out, y = [], 380.25
        for start, end, gap in ((0, 120, 0.0), (120, 120, 0.0), (120, 230, 1.37), (230, len(text), 0.5)):
            words = text[start:end].split(" ") if gap else (text[start:end],)
            out.append((20.5, y, words, gap, start if with_sums else -1))
            out.append((None, y, ("-",), 0.0, -1))
            y -= 11.5
        return out

    def go(how):
        record: list = []

        def page(canvas):
            drawn.recording(canvas, record)
            ends = []
            for i, (font, size, colour, with_sums) in enumerate(cases):
                canvas.translate(0, -3)
                canvas.setFont(fonts.text_font("en", "italic"), 5)  # a state the lines must leave as draw_words does
                sums = fonts.advances(text + "-", font) if with_sums else None
                if how == "ours":
                    ends.append(draw_lines(canvas, lines_of(font, with_sums), font, size, sums, colour))
                else:
                    line_ends: list = []
                    for x, y, words, gap, start in lines_of(font, with_sums):
                        x = line_ends[-1] if x is None else x
                        if how == "reportlab":
                            canvas.setFillColor(colour)
                            line_ends.append(_reference_words(canvas, x, y, words, gap, font, size))
                        else:
                            set_fill(canvas, colour)
                            line_ends.append(draw_words(canvas, x, y, words, gap, font, size,
                                                        sums if start >= 0 else None, max(start, 0)))
                    ends.append(line_ends)
                ends.append(_state(canvas))
            return ends
        return _pdf(page), record

    (ours, our_ends), our_record = go("ours")
    (theirs, their_ends), _ = go("reportlab")
    _, line_by_line = go("line by line")
    assert any(fonts.advances(text + "-", font) is not None for font, _, _, _ in cases)
    assert ours == theirs
    assert our_ends == their_ends
    assert our_record == line_by_line and len(our_record) > 40
