"""Typeset rulebook content into PDF pages: title page, contents, chapters, tables, glossary.

Two passes: the first records on which page every heading lands, the second draws the first's
pages with those numbers in the contents (replay.py; the contents' length does not change them).
Headings become PDF outline entries (bookmarks) and named destinations; cross-references link to
them. `invariant=1` keeps the bytes the same for the same input.
"""
from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Any

from reportlab.lib.colors import HexColor
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import (BaseDocTemplate, CondPageBreak, Flowable, Frame, KeepInFrame, KeepTogether,
                                NextPageTemplate, PageBreak, PageTemplate, Spacer)

from generator import fonts
from generator.context import A5_MM, PAPER_MM
from generator.drawn_registry import offer

from .blocks import BULLET, OWN, Content, Heading, Para, TableBlock, Text
from .content import own_mark
from . import drawn
from .drawn import BookRecord
from .furniture import GREY, ContentsLine, draw_footer
from .flowables import ACCENT, Indented, KPara, Recorder, SideBySide, Style
from .replay import RecordingDoc, recording_frame, replay
from .strings import label
from .tables import cramped, table

PAGE_SIZES_MM = {"a4": PAPER_MM["a4"], "letter": PAPER_MM["letter"], "a5": A5_MM}


@dataclass(frozen=True)
class Geometry:
    page: str
    width: float  # pt
    height: float
    margin: float
    base: float  # body font size, pt

    @classmethod
    def of(cls, page: str) -> "Geometry":
        w, h = PAGE_SIZES_MM[page]
        small = page == "a5"
        return cls(page, w * mm, h * mm, (12 if small else 16) * mm, 8.5 if small else 9.5)

    @property
    def frame_width(self) -> float:
        return self.width - 2 * self.margin

    @property
    def frame_height(self) -> float:
        """The text block: between the top margin and 5 mm above the bottom margin (the footer's room)."""
        return self.height - 2 * self.margin - 5 * mm


def face_font(content: Content, lang: str, role: str = "regular") -> str:
    """The font `lang` is set in, in this book (its face from the game's data or the default)."""
    return fonts.register_face(content.faces.get(lang) or fonts.face_of(lang).id, role)


def mixed_font(content: Content, role: str = "regular") -> str:
    """The font of a line that holds every language of the book ("目次 / Contents", the running
    title): a Latin-script language's face, whose missing characters (kana, kanji) are drawn in the
    CJK face run by run (fonts.runs), so each language keeps its own letters."""
    latin = [lg for lg in content.langs if lg.split("-")[0] not in fonts.CJK_LANGUAGES]
    return face_font(content, (latin or content.langs)[0], role)


class _Styles:
    """The styles of one language's text. Japanese: IPAex Gothic, ragged right as kinsoku leaves
    it, generous leading. Latin scripts: the Latin text face, body text hyphenated and justified
    (justify.py), headings in bold, examples in italic, book leading."""

    def __init__(self, content: Content, base: float, lang: str):
        font = face_font(content, lang)
        cjk = lang.split("-")[0] in fonts.CJK_LANGUAGES
        bold = font if cjk else face_font(content, lang, "bold")
        italic = font if cjk else face_font(content, lang, "italic")
        lead = 1.7 if cjk else 1.4
        latin = not cjk
        self.body = Style(font, base, base * lead, space_after=base * 0.35, justify=latin)
        self.item = Style(font, base, base * lead, space_after=base * 0.15, justify=latin)
        self.note = Style(font, base * 0.92, base * 0.92 * lead, GREY, space_after=base * 0.3, justify=latin)
        self.example = Style(italic, base * 0.92, base * 0.92 * lead, GREY, space_after=base * 0.3, justify=latin)
        # a clarification is ours, not the source's: set apart in the accent colour
        self.clarification = Style(font, base * 0.92, base * 0.92 * lead, ACCENT, space_after=base * 0.3, justify=latin)
        self.cell = Style(font, base * 0.9, base * 0.9 * 1.35)
        self.h = [Style(bold, base * 1.6, base * 2.2, ACCENT, space_before=base * 1.2, space_after=base * 0.5),
                  Style(bold, base * 1.2, base * 1.7, ACCENT, space_before=base * 0.6, space_after=base * 0.2),
                  Style(bold, base * 1.05, base * 1.5, HexColor("#333333"), space_before=base * 0.3)]
        # the signs of list items, notes and examples: catalogue words, looked up once per book
        self.marks = {kind: label(f"{kind}_mark" if kind != "item" else "bullet", lang)
                      for kind in ("item", "note", "example", "from", "clarification")}


def typeset(content: Content, page: str, page_numbers: dict[str, int] | None = None, *,
            layout_only: bool = False, back_cover: bool = False, leaflet: bool = False,
            lines: bool = True) -> tuple[bytes, Recorder]:
    """One pass (`render` makes the book: a layout pass, then the drawing pass that prints the
    contents' page numbers). `layout_only` draws no text and writes no PDF (no bytes come back) for
    a pass that only needs to know where the headings land. `back_cover` ends the book with a cover
    page (for booklets). `leaflet`: the blocks alone, no title page, contents or colophon (the
    one-page print guide). `lines`: the recorder keeps every line drawn (Recorder.keep_lines; the
    same bytes either way)."""
    rec = Recorder(layout_only=layout_only, keep_lines=lines)
    buf = io.BytesIO()
    doc = _document(content, page, buf, rec, leaflet)
    doc.build(_story(content, page, rec, page_numbers or {}, back_cover, leaflet))
    if not layout_only and not lines:
        _offer(buf.getvalue(), rec, doc.canv.getPageNumber() - 1, page)
    return buf.getvalue(), rec


def _offer(pdf: bytes, rec: Recorder, pages: int, page: str) -> None:
    """Hand preflight what the drawing pass drew (drawn.py), for the file of these bytes; a
    build's books only (`lines=False`): a test's are never preflighted."""
    geo = Geometry.of(page)
    # the strings move to the record, which preflight lets go of, so that reference counting frees
    # them: the book's document and canvas, which hold `rec.drawn`, are freed only by a collection,
    # which walked the strings too (some 0.5 CPU-s over the examples' books at their units' ends)
    strings, rec.drawn[:] = rec.drawn[:], []
    offer(pdf, BookRecord(strings, pages, (geo.width, geo.height)))


def _document(content: Content, page: str, buf: io.BytesIO, rec: Recorder, leaflet: bool = False,
              recording: bool = False) -> BaseDocTemplate:
    """The book's document: paper, metadata, the text block's frame, the page templates (the title
    page's, the body's with the footer, drawn unless `rec` is in a layout pass). `recording`: a
    RecordingDoc, which notes its pages for `replay`."""
    font = mixed_font(content)  # running heads, contents, the title page's "Rulebook / ルールブック"
    geo = Geometry.of(page)
    title = " / ".join(content.title[lg] for lg in content.langs)
    doc = (RecordingDoc if recording else BaseDocTemplate)(
        buf, pagesize=(geo.width, geo.height), invariant=1, title=title, author="pnp-forge",
        subject=label("rulebook", content.langs[-1]), creator="pnp-forge", leftMargin=geo.margin,
        rightMargin=geo.margin, topMargin=geo.margin, bottomMargin=geo.margin,
        initialFontName=font, initialFontSize=geo.base)  # not reportlab's unembedded Helvetica on every page
    doc._doSave = not rec.layout_only  # reportlab's switch: the layout pass's pages are never written out
    if not rec.layout_only:  # its canvas keeps every string drawn, for preflight (drawn.py)
        make = doc._makeCanvas
        doc._makeCanvas = lambda *a, **k: drawn.recording(make(*a, **k), rec.drawn)
    box = (geo.margin, geo.height - geo.margin - geo.frame_height, geo.frame_width, geo.frame_height)
    pads = dict(id="body", leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
    frame = recording_frame(doc.pages, *box, **pads) if isinstance(doc, RecordingDoc) else Frame(*box, **pads)
    # a translation draft says so at the foot of every page, beside the running title
    running = title + "".join(f" — {label('draft_mark', lg)}" for lg in content.drafts)

    def footer(canv: Any, d: Any) -> None:
        if not rec.layout_only:
            draw_footer(canv, geo, font, running, canv.getPageNumber())

    templates = [PageTemplate("title", [frame]), PageTemplate("body", [frame], onPage=footer)]
    doc.addPageTemplates(templates[::-1] if leaflet else templates)
    return doc


def _story(content: Content, page: str, rec: Recorder, pages: dict[str, int], back_cover: bool,
           leaflet: bool) -> list[Flowable]:
    """The book's flowables; the contents print the page numbers in `pages` (looked up as they are drawn)."""
    font, geo = mixed_font(content), Geometry.of(page)
    if leaflet:
        return _body(content, geo, font, rec)
    story = _title_page(content, geo, font, rec) + _contents(content, geo, font, rec, pages)
    if back_cover:
        story += _body(content, geo, font, rec)
        return story + [NextPageTemplate("title"), PageBreak()] + _back_cover(content, geo, font, rec)
    colophon = _colophon(content, geo, rec) if content.colophon else []
    return story + _body(content, geo, font, rec, tail=colophon) + colophon


def render(content: Content, page: str, back_cover: bool = False, leaflet: bool = False,
           lines: bool = True, links: bool = True) -> tuple[bytes, Recorder]:
    """The book's PDF: a layout pass finds the page of every heading, then its pages are drawn
    (replay.py: the layout pass's flowables where it put them, the contents with those pages). A
    leaflet has no contents, so it is drawn at once (its links name destinations, not pages).
    `lines`: see `typeset`. Without `links`: no links, destinations or outline (a book to impose)."""
    if leaflet:
        return typeset(content, page, leaflet=True, lines=lines)
    rec = Recorder(layout_only=True, keep_lines=lines)
    layout = _document(content, page, io.BytesIO(), rec, recording=True)
    layout.build(_story(content, page, rec, rec.anchors, back_cover, False))
    rec.layout_only = False  # the same flowables now draw
    pages, layout.canv = layout.pages, None  # its canvas, with the layout's pages, is done with
    buf = io.BytesIO()
    count = len(pages)
    replay(_document(content, page, buf, rec), pages, links)
    if not lines:
        _offer(buf.getvalue(), rec, count, page)
    return buf.getvalue(), rec


# --------------------------------------------------------------------------- parts of the book

def _title_page(content: Content, geo: Geometry, font: str, rec: Recorder) -> list[Flowable]:
    """Title, subtitle and facts on one page, whatever their length: a long title takes
    the room above it first, then the whole block is scaled down to fit (it never spills over)."""
    out: list[Flowable] = []
    for i, lg in enumerate(content.langs):
        big = Style(face_font(content, lg, "bold"), geo.base * (3.2 if i == 0 else 2.2),
                    geo.base * (4.2 if i == 0 else 3.0), ACCENT)
        out.append(KPara(Text(content.title[lg]), big, rec, lang=lg, phrases=True, balance=True))
        if content.subtitle[lg]:
            out.append(KPara(Text(content.subtitle[lg]), Style(face_font(content, lg), geo.base * 1.3, geo.base * 2), rec, lang=lg,
                             phrases=True, balance=True))
    out.append(Spacer(1, geo.base * 2))
    out.append(KPara(Text(" / ".join(label("rulebook", lg) for lg in content.langs)),
                     Style(font, geo.base * 1.4, geo.base * 2.2, GREY), rec))
    out.append(Spacer(1, geo.base * 3))
    for lg in content.langs:
        for line in content.facts[lg]:
            out.append(KPara(Text(line), Style(face_font(content, lg), geo.base, geo.base * 1.6), rec, lang=lg))
        out.append(Spacer(1, geo.base))
    out.append(Spacer(1, geo.base * 2))
    for lg in content.drafts:  # a translation draft says so on its cover
        out.append(KPara(Text(label("draft", lg)), Style(face_font(content, lg, "bold"), geo.base * 1.1, geo.base * 1.6,
                                                          ACCENT), rec, lang=lg))
    for lg in content.langs:  # the cover is the game's: how the book was made is said on the last page only
        if content.missing and lg != content.langs[0] and lg not in content.drafts:
            out.append(KPara(Text(label("untranslated", lg)), Style(face_font(content, lg), geo.base * 0.85, geo.base * 1.4, GREY), rec, lang=lg))
    width, height = geo.frame_width, geo.frame_height
    used = sum(f.wrap(width, height)[1] for f in out)
    top = max(0.0, min(geo.height * 0.22, height - used))
    return [Spacer(1, top), KeepInFrame(width, height - top, out, mode="shrink"), NextPageTemplate("body"), PageBreak()]


def _back_cover(content: Content, geo: Geometry, font: str, rec: Recorder) -> list[Flowable]:
    """The outside of the last sheet: the titles and the colophon in the lower part of the page,
    so a folded booklet reads as a book from both sides."""
    out: list[Flowable] = []
    for i, lg in enumerate(content.langs):
        style = Style(face_font(content, lg, "bold"), geo.base * (1.8 if i == 0 else 1.4), geo.base * (2.5 if i == 0 else 2.0), ACCENT)
        out.append(KPara(Text(content.title[lg]), style, rec, lang=lg, phrases=True, balance=True))
    out.append(Spacer(1, geo.base * 1.5))
    for lg in content.langs:
        out.append(KPara(Text(label("colophon", lg)), Style(face_font(content, lg), geo.base * 0.85, geo.base * 1.4, GREY), rec, lang=lg))
    width, height = geo.frame_width, geo.frame_height
    used = sum(f.wrap(width, height)[1] for f in out)
    top = max(0.0, height * 0.62 - used / 2)
    return [Spacer(1, top), KeepInFrame(width, height - top, out, mode="shrink")]


def _colophon(content: Content, geo: Geometry, rec: Recorder) -> list[Flowable]:
    """How the book was made, after everything else: the last lines of the last page."""
    out: list[Flowable] = [Spacer(1, geo.base * 3)]
    for lg in content.langs:
        out.append(KPara(Text(label("colophon", lg)), Style(face_font(content, lg), geo.base * 0.85, geo.base * 1.4, GREY),
                         rec, lang=lg))
    return [KeepTogether(out)]


def _toc_entries(content: Content) -> list[tuple[int, str, str, str]]:
    """(level, number, title, anchor) of chapters and first-level clauses that have titles."""
    out = []
    for b in content.blocks:
        if isinstance(b, Heading) and b.level <= 1:
            out.append((b.level, b.number, " / ".join(b.texts[lg].text for lg in content.langs), b.anchor))
    return out


def _contents(content: Content, geo: Geometry, font: str, rec: Recorder, pages: dict[str, int]) -> list[Flowable]:
    h = _Styles(content, geo.base, content.langs[0]).h[0]
    h = Style(mixed_font(content, "bold"), h.size, h.leading, h.colour, h.space_before, h.space_after)
    heading = KPara(Text(" / ".join(label("contents", lg) for lg in content.langs)), h, rec,
                    anchor="contents", outline=(" / ".join(label("contents", lg) for lg in content.langs), 0), rule=True)
    out: list[Flowable] = [heading]
    line_style = Style(font, geo.base, geo.base * 1.75)
    for level, number, title, anchor in _toc_entries(content):
        out.append(ContentsLine(level, number, title, anchor, pages, line_style, rec))
    out.append(PageBreak())
    return out


def _body(content: Content, geo: Geometry, font: str, rec: Recorder, tail: list[Flowable] | None = None) -> list[Flowable]:
    """The blocks as flowables. A chapter starts a new page when less than a quarter page is
    left; the last one only when it and `tail` (what follows it on its page: the colophon) do
    not fit what is left, so a short last chapter never stands alone on a new page."""
    langs = content.langs
    styles = {lg: _Styles(content, geo.base, lg) for lg in langs}
    gap = 6 * mm
    width = geo.width - 2 * geo.margin
    col_w = width if len(langs) == 1 else (width - gap) / 2
    out: list[Flowable] = []
    level_seen = -1
    last_chapter = -1

    def faces(lang: str) -> str:
        return face_font(content, lang)

    for b in content.blocks:
        if isinstance(b, Heading):
            level = min(b.level, level_seen + 1)
            level_seen = level
            title = " / ".join(b.texts[lg].text for lg in langs)
            paras = [_heading_para(b, styles[lg], rec, lg, anchor=(b.anchor if i == 0 else ""),
                                   outline=(_outline_title(b, title), level) if i == 0 and b.outline else None)
                     for i, lg in enumerate(langs)]
            if b.level == 0:
                out.append(CondPageBreak(geo.height * 0.25))
                last_chapter = len(out) - 1
            heading = _pair(paras, gap)
            heading.keepWithNext = True  # never a heading alone at the foot of a page
            out.append(heading)
            continue
        if isinstance(b, Para):
            paras = [_para(b, styles[lg], rec, lg, anchor=(b.anchor if i == 0 else "")) for i, lg in enumerate(langs)]
            out.append(_pair(paras, gap))
            continue
        if isinstance(b, TableBlock):
            # a clause's table sits under its text; a book table (components, setup) spans the column
            hang = {lg: clause_hang(b.depth, styles[lg].body) if b.depth else 0.0 for lg in langs}

            def placed(lg: str, w: float, b: TableBlock = b, hang: dict[str, float] = hang) -> Flowable:
                return Indented(table(b, lg, styles[lg].cell, rec, w - hang[lg], faces), hang[lg], rec)

            if b.shared or len(langs) == 1:
                out.append(placed(langs[0], width))
            elif any(cramped(b, lg, styles[lg].cell, col_w - hang[lg], faces) for lg in langs):
                # too many columns for half a page: each language's table across the full width
                out += [placed(langs[0], width), Spacer(1, geo.base * 0.6), placed(langs[1], width)]
            else:
                out.append(SideBySide(placed(langs[0], col_w), placed(langs[1], col_w), gap))
            out.append(Spacer(1, geo.base * 0.6))
    if last_chapter >= 0:  # the last chapter starts a new page only when it does not fit the one before
        rest = _height(out[last_chapter + 1:] + list(tail or []), width, geo)
        out[last_chapter] = CondPageBreak(min(geo.height * 0.25, rest))
    return out


def _height(flowables: list[Flowable], width: float, geo: Geometry) -> float:
    """The height the flowables take in a column of `width`, as the frame stacks them (a
    KeepTogether, which wraps only on a canvas, by the flowables it holds)."""
    return sum(_height(f._content, width, geo) if isinstance(f, KeepTogether)
               else f.wrap(width, geo.frame_height)[1] + f.getSpaceBefore() + f.getSpaceAfter() for f in flowables)


def _outline_title(b: Heading, title: str) -> str:
    return f"{b.number} {title}" if b.number else title


def _pair(paras: list[Flowable], gap: float) -> Flowable:
    return paras[0] if len(paras) == 1 else SideBySide(paras[0], paras[1], gap)


def _heading_para(b: Heading, st: _Styles, rec: Recorder, lang: str, *, anchor: str,
                  outline: tuple[str, int] | None) -> KPara:
    style = st.h[min(b.level, 2)]
    indent = 0.0 if b.level <= 1 else (b.level - 1) * st.body.size
    style = Style(style.font, style.size, style.leading, style.colour, style.space_before, style.space_after, indent)
    marker = b.number
    width = stringWidth(marker + "  ", style.font, style.size) if marker else 0.0
    return KPara(b.texts[lang], style, rec, lang=lang, marker=marker, marker_width=width, anchor=anchor,
                 outline=outline, rule=b.level == 0, role="heading", balance=True)


def clause_hang(depth: int, style: Style) -> float:
    """Where a clause's text starts at `depth`: past the widest number of that depth (00.00.00) and two
    spaces; its lists, notes, examples and tables start there too."""
    return stringWidth(".".join(["00"] * (depth + 1)) + "  ", style.font, style.size)


def _para(b: Para, st: _Styles, rec: Recorder, lang: str, *, anchor: str) -> KPara:
    base = {"text": st.body, "item": st.item, "note": st.note, "example": st.example, "from": st.note,
            "clarification": st.clarification}.get(b.kind, st.body)
    indent = max(b.depth - 1, 0) * st.body.size
    if b.kind != "text" and not b.number and b.depth:
        # lists, notes and examples of a numbered clause sit under its text, past the clause number
        indent = clause_hang(b.depth, base)
    text, item_sign = b.texts[lang], st.marks["item"] if b.marker == BULLET else b.marker
    if b.marker == OWN:  # "a) ...": the item's own mark is its sign
        item_sign, text = own_mark(text)
    sign = item_sign if b.kind == "item" else st.marks.get(b.kind, "")  # the item number, note or example mark
    style = Style(base.font, base.size, base.leading, base.colour, base.space_before, base.space_after, indent,
                  base.justify)
    sign_w = fonts.string_width(sign + " ", style.font, style.size) if sign else 0.0
    if b.marker == OWN:  # own marks hang in one column, wide enough for "(10)"
        sign_w = max(sign_w, fonts.string_width("(10) ", style.font, style.size))
    tab = 0.0
    if b.number and sign:
        # the clause number, then the sign where the clause's unnumbered items, notes and examples put
        # theirs (past the widest clause number), so a list's first item lines up with the rest
        tab = max(clause_hang(b.depth, base) - indent,
                  fonts.string_width(b.number + "  ", style.font, style.size))
        marker = f"{b.number}\t{sign}"
        width = tab + sign_w
    elif b.number:
        marker = b.number
        # one hanging indent per depth, so 2.2.9 and 2.2.10 start their text at the same x
        width = max(fonts.string_width(marker + " ", style.font, style.size),
                    clause_hang(b.depth, style))
    else:
        marker, width = sign, sign_w
    return KPara(text, style, rec, lang=lang, marker=marker, marker_width=width, anchor=anchor,
                 marker_tab=tab)
