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
