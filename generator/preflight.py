"""Preflight: read the PDFs a build wrote back, as a print shop's preflight would, and report
what would go wrong on paper. Every finding is worded from the file: fonts from its resources
(generator/pdffonts.py), characters, colours and crop marks from pdfium's reading of the page,
the colours behind the text from the page rendered at 100 dpi (pagetext.py reads the characters,
pdfread.py and pageink.py the rest; this module judges). A record of what the build drew only
ever decides that a file has nothing to report (below).

Checks (error findings make `pnp preflight` exit 1; the build reports every finding as a warning):
- fonts-embedded (error): every font any page or form uses is embedded in the file;
- text-near-edge: on pages printed at home (A4, Letter, A5) no visible text within 5 mm of the
  paper edge, where home printers do not print;
- text-safe-zone: on sheets with crop marks, text inside a piece stays inside its safe zone
  (`safe_mm`, 3 mm by default, at most a tenth of the piece's short side for small counters);
- text-contrast: small text (under 18 pt) at least 4.5:1 against the colour under it (the paper,
  band, shape or picture the rendered page shows round the run), larger text 3:1 (the WCAG ratios);
- text-unreadable (error): text under 1.5:1 against the colour under it, e.g. a label in its own
  band's colour, which nobody can read; each names its pages and the piece of the first;
- symbols-overlap: two symbols (form XObjects) on one piece of a sheet with crop marks placed on
  top of each other by more than a fifth of the smaller one;
- type-size (error): no text on a piece under 6 pt, or the game's `min_type` (generator/typesize.py).

Text that a clip hides (a tiled map's sheets clip one big drawing) is not on paper: a character
counts only when the rendered page shows its colour inside its box. A tiled print's sheets are judged
on their own text when its full-size twin, judged first, has no finding: the big page's text is the
twin's to judge (generator/tileflight.py: what a sheet's read-back of it could find, and why not).

A book a build has just typeset (rulebook, booklet, print guide, missing list) is first judged from
what its drawing pass drew (generator/rulebook/drawn.py: every string, its font, size, colour,
place and the fill under it), a sheet of pieces (cards, counters, boards, maps, the calibration
page) from its recorded drawing calls (generator/pieces/drawn.py: its text, the fill under each,
its crop marks' trims, its symbols), by the same checks with some slack (`Slack`): a file they
find nothing on is not read back, one they find anything on is; of a sheet whose record cannot tell
some pages (text on a picture), only those pages are read back when the others find nothing. The
contents' dot leaders (#aaaaaa, 2.3:1) are decoration, never judged for contrast (the read-back
drops them too: at 100 dpi their dots are too small to count as glyphs).

Preflight is incremental like the build: a file's findings are kept by its bytes, its name, the
options and the reader's code (`file_key`) in the build record (`Memo`, generator/incremental.py), and
in this process by all but the name, and a file known that way is not read again.
"""
from __future__ import annotations

import hashlib
import itertools
import json
from collections import defaultdict
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable, Iterator, Literal, Mapping, NamedTuple, Sequence

import numpy as np

from .context import A5_MM, PAPER_MM, PRINTER_MARGIN_MM
from .contrast import _hex, contrast_ratio
from .drawn_registry import Record, digest, take_record
from .geometry import MM_PER_PT
from .pagetext import Char, PageText, Rect, Run, read_page_text
from .pdfplain import plain_forms
from .preflightmemo import READER_CODE, READER_LIBRARIES, Memo, _rows_ok
from .pdfread import Image, RunsSeen, crop_mark_trims, form_boxes, inks_strip, render, runs_seen, unembedded_fonts
from .rulebook.bookclear import Strings, pair_ratios, strings_judged
from .rulebook.drawn import BookRecord, seen_of
from .preflightsheet import Sheet, _read_sheet
from .tileflight import TiledRecord
from .typesize import MIN_TYPE_PT, SLACK_PT, small_type

if TYPE_CHECKING:
    import pypdfium2 as pdfium  # imported where it is used: `pnp --help` stays fast

    from .pieces.drawn import SheetRecord

    Drawn = BookRecord | SheetRecord  # a record of what was drawn, not a tiled print's

SAFE_MM = 3.0
MIN_CONTRAST, MIN_CONTRAST_LARGE, LARGE_PT = 4.5, 3.0, 18.0
UNREADABLE = 1.5  # under this contrast text cannot be read at all: an error, not a warning
HOME_PAPER_MM = [PAPER_MM["a4"], PAPER_MM["letter"], A5_MM]
OVERLAP_SHARE = 0.2


# How much wider a record's checks are than the read-back's (what they find only sends the file to be
# read back): contrast ratios times `contrast`; the edge strip `edge_mm` and the safe zone `trim_mm`
# wider (a crop mark's place is read to 0.1 mm, from pdfium's float32 bounds); the minimum type `type_pt`
# larger. A book's read-back paper is the mean of the palest pixels round a run, rules' anti-aliased edges
# among them (#fefefe); a sheet's fills read back as recorded (in every example), its glyphs within 0.05 mm.
Slack = NamedTuple("Slack", [("contrast", float), ("edge_mm", float), ("trim_mm", float), ("type_pt", float)])
RECORD_SLACK, SHEET_SLACK = Slack(1.05, 0.5, 0.15, 0.05), Slack(1.001, 0.1, 0.15, 0.05)

Level = Literal["error", "warning"]


@dataclass(frozen=True)
class Finding:
    level: Level
    path: str
    page: int  # 1-based; 0 for the whole file
    code: str
    message: str

    def __str__(self) -> str:
        where = f"{self.path}: page {self.page}" if self.page else self.path
        return f"{where}: {self.code}: {self.message}"


# Findings of the files this process has checked, by `file_key` with no name: a file several units
# write (every card unit writes its game's calibration page) is read once, and so is one of the same
# bytes under another name (every game's calibration page is the same file): its findings are
# worded from the file alone, but for the path they name.
_CHECKED: dict[str, list[Finding]] = {}
def file_key(data: bytes, name: str, safe_mm: float, min_type_pt: float) -> str:
    """What a file's findings depend on: its bytes, its name, the options and the reader."""
    return _key(digest(data), name, safe_mm, min_type_pt)


def _key(data_digest: str, name: str, safe_mm: float, min_type_pt: float) -> str:
    return hashlib.sha256(json.dumps([data_digest, name, safe_mm, min_type_pt, reader_digest()]).encode()).hexdigest()


@lru_cache(maxsize=1)
def reader_digest() -> str:
    """The reader's code and the versions of the libraries it reads with: a change checks every file again."""
    from importlib import metadata

    here = Path(__file__).resolve().parent
    code = [hashlib.sha256((here / f).read_bytes()).hexdigest() for f in READER_CODE]
    return hashlib.sha256(json.dumps([code, [metadata.version(d) for d in READER_LIBRARIES]]).encode()).hexdigest()


def preflight(paths: Iterable[Path], root: Path | None = None, safe_mm: float = SAFE_MM, min_type_pt: float = MIN_TYPE_PT,
              memo: Memo | None = None, names: Mapping[Path, str] | None = None) -> list[Finding]:
    """Findings for every PDF among `paths` (others skipped), shown relative to `root` or by their `names` (in that
    order). A file `memo` (or this process) knows by its bytes is not read again. A tiled print is judged after its
    full-size twin (tileflight.py), found by name (a unit's files lie flat in its scratch), its findings in order."""
    memo = memo if memo is not None else Memo()
    found: dict[Path, tuple[str, str, list[Finding], bool]] = {}  # by output name (else path): name, key, findings, read
    tiled: list[tuple[Path, Path, str, str, TiledRecord]] = []
    for p in (Path(x) for x in paths):
        if p.suffix.lower() == ".pdf":
            name = names[p] if names is not None else str(p.relative_to(root)) if root and p.is_relative_to(root) else str(p)
            data_digest = digest(p.read_bytes())
            record = take_record(data_digest)  # what a book or sheet written in this process drew, if it is one
            at = Path(names[p]) if names is not None else p
            if isinstance(record, TiledRecord):
                tiled.append((p, at, name, data_digest, record))
            else:
                found[at] = _checked(p, name, data_digest, safe_mm, min_type_pt, memo, record)
    for p, at, name, data_digest, record in tiled:  # judged with its twin only when the twin found nothing
        twin = found.get(at.parent / record.twin)
        found[at] = _checked(p, name, data_digest, safe_mm, min_type_pt, memo, record if twin and not twin[2] else None)
    for name, key, findings, read in (found[at] for at in sorted(found)):
        memo.read += [name] if read else []
        memo.seen[key] = [[f.level, f.path, f.page, f.code, f.message] for f in findings]
    return [f for at in sorted(found) for f in found[at][2]]


def _checked(p: Path, name: str, data_digest: str, safe_mm: float, min_type_pt: float, memo: Memo,
             record: Record | None) -> tuple[str, str, list[Finding], bool]:
    """One file's name, `memo` key and findings, and whether it was read."""
    key, same = (_key(data_digest, n, safe_mm, min_type_pt) for n in (name, ""))
    if key in memo.known and _rows_ok(memo.known[key]):
        found, read = [Finding(*row) for row in memo.known[key]], False
    elif same in _CHECKED:
        found, read = [replace(f, path=name) for f in _CHECKED[same]], False
    else:
        found, read = preflight_pdf(p, name, safe_mm, min_type_pt, record), True
    if len(_CHECKED) >= 4096:  # `pnp serve` runs for hours: keep the memory bounded
        _CHECKED.clear()
    _CHECKED[same] = found
    return name, key, found, read


def preflight_pdf(path: Path, name: str, safe_mm: float = SAFE_MM, min_type_pt: float = MIN_TYPE_PT,
                  record: Record | None = None) -> list[Finding]:
    """Every finding of one PDF (`name` is how findings show its path). A book's `record` (what
    its drawing pass drew) or a sheet's that describes the file (its pages, their size) and on which
    the checks find nothing stands for the pages it tells read back; a tiled print's (its twin found
    nothing) has its sheets judged on their own text (tileflight.py); the fonts are read from the file
    either way."""
    import pypdfium2 as pdfium

    findings = [Finding("error", name, 0, "fonts-embedded", f"font {f} is not embedded; embed it (or draw with "
                        "the project font) so the printer does not substitute another")
                for f in unembedded_fonts(path)]
    low: dict[tuple[str, str, bool], list[LowContrast]] = defaultdict(list)  # (text, back, unreadable) -> runs
    pages: Sequence[int] | None = None  # the pages read back (None: every one)
    if record is not None and not isinstance(record, TiledRecord):
        doc = pdfium.PdfDocument(str(path))
        try:
            if _describes(record, doc) and not (pages := _record_reads(name, record, safe_mm, min_type_pt)):
                return findings
        finally:
            doc.close()
    doc = pdfium.PdfDocument(plain_forms(path.read_bytes()))  # its forms decoded once, not on every page (pdfplain.py)
    own = range(1, len(doc)) if isinstance(record, TiledRecord) and record.pages == len(doc) else ()  # its sheets
    try:
        for i in range(len(doc)) if pages is None else pages:
            page = doc[i]
            sheet = _read_sheet(page, True) if i in own else _read_sheet(page)
            findings += _judge(name, i + 1, sheet, safe_mm, min_type_pt, low)
            page.close()
    finally:
        doc.close()
    # contrast last, one finding per pair of colours over the whole file
    return findings + [_contrast(name, fg, back, bad, hits) for (fg, back, bad), hits in sorted(low.items())]


def _record_finds(name: str, record: Drawn, safe_mm: float, min_type_pt: float) -> bool:
    """Whether the checks find anything on a record, or it cannot tell a page (`_record_reads`)."""
    return bool(_record_reads(name, record, safe_mm, min_type_pt))


def _record_reads(name: str, record: Drawn, safe_mm: float, min_type_pt: float) -> Sequence[int]:
    """The pages (0-based) to read back: of a book, every one when the checks find anything on its
    record; of a sheet, those they find anything on and those it cannot tell (text on a picture),
    whose read-back alone makes the file's findings (a page the record tells and finds nothing on
    adds none, as a file whose pages all find nothing has none): every character drawn
    (`drawn.seen_of`, pieces/drawn.py), those the read-back counts among them, on the same fills. A
    finding's counts and examples depend on which small glyphs the 100 dpi render shows (a full stop, often an
    "l"): the read-back's. A book is judged a few pages as one at a time, each string a run first: if that finds, its runs."""
    low: dict[tuple[str, str, bool], list[LowContrast]] = defaultdict(list)
    if isinstance(record, BookRecord):
        # the strings' view of the whole book first: when it passes, so does every part's, none worked out
        finds = not _book_clear(strings_judged(record)) and any(all(_judge(name, 1, recorded_sheet(record, seen), safe_mm, min_type_pt, low := defaultdict[
            tuple[str, str, bool], list[LowContrast]](list)) or low for seen in views) for views in seen_of(record))
        return range(record.pages if finds else 0)
    from .pieces.drawn import sheet_pages_each

    pages = sheet_pages_each(record)
    finding: set[int] = set()  # the pages (`id`: a page repeated is the very object) the checks find anything on
    for i, ((w, h), page) in enumerate(zip(record.sizes, pages)):
        if page is not None and not any(p is page for p in pages[:i]):  # a page repeated: judged before
            sheet = Sheet(w, h, *page[:3], None, page[3].copy, SHEET_SLACK)
            if _judge(name, i + 1, sheet, safe_mm, min_type_pt, low) or low:
                finding.add(id(page))
            low.clear()
    return [i for i, page in enumerate(pages) if page is None or id(page) in finding]


def _book_clear(s: Strings) -> bool:
    """Whether a whole book's strings, each a run, pass a book page's checks (near the edge, contrast)."""
    near = _home_paper(s.w_mm, s.h_mm) and bool((_edge_dist(s.box, s.w_mm, s.h_mm) < PRINTER_MARGIN_MM + RECORD_SLACK.edge_mm).any())
    return not near and not _too_low(pair_ratios(s.fg, s.under), s.size, RECORD_SLACK.contrast).any()


def _describes(record: Drawn, doc: pdfium.PdfDocument) -> bool:
    """Whether the record is of a file of this many pages, each of its size (to a hundredth of a pt)."""
    sizes = [record.size] * record.pages if isinstance(record, BookRecord) else record.sizes_pt()
    return len(sizes) == len(doc) and all(abs(a - w) < 0.01 and abs(b - h) < 0.01
                                          for (a, b), (w, h) in zip((doc.get_page_size(i) for i in range(len(doc))), sizes))


def recorded_sheet(record: BookRecord, seen: tuple[PageText, RunsSeen | None]) -> Sheet:
    """Some of a book's pages as one (`drawn.seen_of`), as the checks are given a page read back."""
    return Sheet(record.size[0] * MM_PER_PT, record.size[1] * MM_PER_PT, *seen, [], None, list, RECORD_SLACK)


def _judge(name: str, page_no: int, sheet: Sheet, safe_mm: float, min_type_pt: float,
           low: dict[tuple[str, str, bool], list[LowContrast]]) -> list[Finding]:
    """The findings of one page but its contrast, which go to `low` (judged over the whole file)."""
    chars, trims, w_mm, h_mm = sheet.read, sheet.trims, sheet.w_mm, sheet.h_mm
    rec = sheet.recorded
    slack = {"margin": rec.contrast} if rec else {}
    if sheet.seen is not None:
        chars = sheet.seen.chars
        for colours, hit in _low_contrast(page_no, sheet.seen, trims, **slack):
            low[colours].append(hit)
    edge = {"strip_mm": PRINTER_MARGIN_MM + rec.edge_mm} if rec else {}
    findings = _edge(name, page_no, chars, w_mm, h_mm, sheet.image, **edge) if _home_paper(w_mm, h_mm) else []
    safe_mm, min_type_pt = (safe_mm + rec.trim_mm, min_type_pt + rec.type_pt) if rec else (safe_mm, min_type_pt)
    # the pieces text must keep inside of: a page with none (a rulebook's) has no piece to judge
    findings += _safe_zone(name, page_no, chars, trims, safe_mm) if trims else []
    findings += _overlaps(name, page_no, sheet.forms(), trims) if trims else []
    # only a run under the minimum makes a finding: a page with none is not made into Char tuples
    under_min = bool((sheet.read.size < min_type_pt - SLACK_PT).any())
    small = small_type(page_no, sheet.read.chars(), trims, min_type_pt) if trims and under_min else []
    return findings + [Finding("error", name, n, "type-size", m) for n, m in small]


@dataclass(frozen=True)
class LowContrast:
    page: int
    run: Run
    ratio: float
    piece: str  # where on the page: "piece 3 (at 12, 40 mm)" on a sheet with crop marks, else ""


# --------------------------------------------------------------------------- the checks

def _edge(name: str, page: int, text: PageText, w: float, h: float, image: Image | None = None,
          strip_mm: float = 0.0) -> list[Finding]:
    at = np.flatnonzero((dist := _edge_dist(text.box, w, h)) < (strip_mm or PRINTER_MARGIN_MM)).tolist()
    near = [(d, c) for d, c in zip(dist[at].tolist(), text.chars(at))
            if image is None or inks_strip(c, image, w, h, PRINTER_MARGIN_MM)]
    if not near:
        return []
    d = min(d for d, _ in near)
    sample = "".join(c.text for _, c in near[:12])
    return [Finding("warning", name, page, "text-near-edge",
                    f"{len(near)} characters within {PRINTER_MARGIN_MM:g} mm of the paper edge (closest {d:.1f} mm, "
                    f"e.g. {sample!r}); home printers leave that strip blank: move the text inwards")]


def _edge_dist(b: np.ndarray, w: float, h: float) -> np.ndarray:
    return np.minimum(np.minimum(b[:, 0], b[:, 1]), np.minimum(w - b[:, 2], h - b[:, 3])) if len(b) else np.zeros(0)


def _safe_zone(name: str, page: int, text: PageText, trims: list[Rect], safe_mm: float) -> list[Finding]:
    """Characters whose centre is on a piece (the first trim holding it) and whose box comes nearer
    its cut than the piece's safe zone; as arrays (a sheet has thousands of characters)."""
    if not len(text):
        return []
    b, t = text.box, np.array(trims, dtype=np.float64)
    cx, cy = (b[:, 0] + b[:, 2]) / 2, (b[:, 1] + b[:, 3]) / 2
    holds = (t[:, 0] <= cx[:, None]) & (cx[:, None] <= t[:, 2]) & (t[:, 1] <= cy[:, None]) & (cy[:, None] <= t[:, 3])
    on = t[holds.argmax(axis=1)]
    safe = np.minimum(safe_mm, 0.1 * np.minimum(on[:, 2] - on[:, 0], on[:, 3] - on[:, 1]))
    d = np.minimum(np.minimum(b[:, 0] - on[:, 0], b[:, 1] - on[:, 1]), np.minimum(on[:, 2] - b[:, 2], on[:, 3] - b[:, 3]))
    at = np.flatnonzero(holds.any(axis=1) & (d < safe - 0.05))
    if not len(at):
        return []
    k = int(at[np.argmin(d[at])])  # the first of the closest
    sample = "".join(text.text[i] for i in at[:12].tolist())
    return [Finding("warning", name, page, "text-safe-zone",
                    f"{len(at)} characters outside the {float(safe[k]):g} mm safe zone inside the trim (closest "
                    f"{float(d[k]):.1f} mm from the cut, e.g. {sample!r}); a cut that drifts would clip them: move "
                    f"them inwards in layouts.yaml")]


def _low_contrast(page: int, seen: RunsSeen, trims: list[Rect], margin: float = 1.0) -> Iterator[tuple[tuple[str, str, bool], LowContrast]]:
    """Runs whose contrast with the colour under them is under the WCAG ratio for their size
    (times `margin`), keyed by their (text, background) colours and whether they cannot be read at all."""
    text, starts, ends, bg, on_page = seen.chars, seen.starts, seen.ends, seen.under, seen.on_page
    if not len(starts):
        return
    sizes, fg = text.size[starts], text.rgb[starts]
    low = on_page & _too_low(ratios := pair_ratios(fg, bg), sizes, margin)
    for k in np.flatnonzero(low).tolist():
        r = Run(tuple(text.chars(range(starts[k], ends[k]))))
        f, b = tuple(fg[k].tolist()), tuple(bg[k].tolist())
        yield (_hex(f), _hex(b), bool(ratios[k] < UNREADABLE)), LowContrast(page, r, float(ratios[k]), _piece(r, trims))


def _too_low(ratios: np.ndarray, sizes: np.ndarray, margin: float) -> np.ndarray:
    return ratios < margin * np.where(sizes >= LARGE_PT, MIN_CONTRAST_LARGE, MIN_CONTRAST)


def _piece(run: Run, trims: list[Rect]) -> str:
    cx, cy = (run.box[0] + run.box[2]) / 2, (run.box[1] + run.box[3]) / 2
    for i, (x0, y0, x1, y1) in enumerate(trims):
        if x0 <= cx <= x1 and y0 <= cy <= y1:
            return f"piece {i + 1} (at {x0:.0f}, {y0:.0f} mm)"
    return ""


def _contrast(name: str, fg: str, back: str, unreadable: bool, hits: list[LowContrast]) -> Finding:
    pages = sorted({h.page for h in hits})
    worst = min(h.ratio for h in hits)
    sample = " / ".join(dict.fromkeys(h.run.text for h in hits))[:40]
    sizes = sorted({round(h.run.size_pt, 1) for h in hits})
    if unreadable:
        first = next((f"; first on page {h.page}, {h.piece}" for h in hits if h.piece), "")
        return Finding("error", name, pages[0], "text-unreadable",
                       f"{len(hits)} text runs {fg} on {back} at {worst:.1f}:1, which nobody can read (under "
                       f"{UNREADABLE:g}:1: text in the colour under it; {', '.join(f'{s:g}' for s in sizes)} pt; "
                       f"pages {_span(pages)}{first}; e.g. {sample!r}); give the field a colour of its own in "
                       f"layouts.yaml (or `colour: contrast`), or change the fill under it")
    return Finding("warning", name, pages[0], "text-contrast",
                   f"{len(hits)} text runs {fg} on {back} at {worst:.1f}:1 (need {MIN_CONTRAST:g}:1 "
                   f"under {LARGE_PT:g} pt, {MIN_CONTRAST_LARGE:g}:1 above; "
                   f"{', '.join(f'{s:g}' for s in sizes)} pt; pages {_span(pages)}; e.g. {sample!r}); "
                   f"darken the text or lighten the background")


def _overlaps(name: str, page_no: int, boxes: list[Rect], trims: list[Rect]) -> list[Finding]:
    """Symbols (form XObjects, `boxes`) on one piece that cover each other by more than OVERLAP_SHARE."""
    hits = []
    for t in trims:
        inside = [b for b in boxes if t[0] <= (b[0] + b[2]) / 2 <= t[2] and t[1] <= (b[1] + b[3]) / 2 <= t[3]]
        for a, b in itertools.combinations(inside, 2):
            ix = min(a[2], b[2]) - max(a[0], b[0])
            iy = min(a[3], b[3]) - max(a[1], b[1])
            small = min((a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1]))
            if ix > 0 and iy > 0 and small > 0 and ix * iy > OVERLAP_SHARE * small:
                hits.append(b)
    if not hits:
        return []
    x, y = hits[0][0], hits[0][1]
    return [Finding("warning", name, page_no, "symbols-overlap",
                    f"{len(hits)} symbols drawn over another symbol on the same piece (first at {x:.0f}, {y:.0f} mm "
                    f"from the page's top-left); give each its own box in layouts.yaml")]


def _home_paper(w: float, h: float) -> bool:
    a, b = sorted((w, h))
    return any(abs(a - pw) < 1 and abs(b - ph) < 1 for pw, ph in HOME_PAPER_MM)


def _span(pages: list[int]) -> str:
    return str(pages[0]) if len(pages) == 1 else f"{pages[0]}-{pages[-1]}" if len(pages) > 3 else ", ".join(map(str, pages))
