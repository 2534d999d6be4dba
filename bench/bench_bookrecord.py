"""A typeset book's preflight from its drawing pass's record against the read-back: the books of
the example games (rulebook, booklet, print guide, missing list) set in this process, each
preflighted both ways, their findings compared and the CPU seconds of each way printed per kind
of book.

    python3 bench/bench_bookrecord.py [--games a,b] [--contrast RATIO ...] [--safe MM] [--chars]

`--contrast 22` raises both contrast thresholds so that every run on a page is judged and named in
a finding (several may be given: each is a pass); `--chars` also compares, page by page, the
record's characters with pdfium's (text, order, box within 0.3 mm, size, colour), and checks that
the first character of each run the read-back judges is in a run of the record's on the same colour.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

import generator.preflight as pf  # noqa: E402
from generator.context import BuildContext  # noqa: E402
from generator.pdfread import RunsSeen  # noqa: E402
from generator import drawn_registry  # noqa: E402
from generator.missing import build_missing  # noqa: E402
from generator.rulebook import drawn  # noqa: E402
from generator.rulebook.build import build_rulebooks  # noqa: E402
from solver.game.folders import game_ids
from solver.game.loader import load_game  # noqa: E402


def books(games: list[str], out: Path) -> list[tuple[Path, drawn.BookRecord]]:
    """Every book of the games, set here, with its record."""
    drawn_registry.KEEP = 1 << 20  # keep every record offered: this script takes them after the stage
    written: list[Path] = []
    for gid in games:
        game = load_game(gid)
        ctx = BuildContext(out_root=out, preflight=False)
        written += build_rulebooks(game, ctx) + build_missing(game, ctx)
    out_books = []
    for p in written:
        record = drawn.take(drawn_registry.digest(p.read_bytes())) if p.suffix == ".pdf" else None
        if record is not None:
            out_books.append((p, record))
    return out_books


def compare_chars(p: Path, record: drawn.BookRecord) -> list[str]:
    """Pages where the record's characters are not pdfium's, and where what the checks are given differs."""
    import pypdfium2 as pdfium

    bad = []
    doc = pdfium.PdfDocument(str(p))
    book = drawn.book_text(record)  # the characters of every page at once, as preflight works them out
    first, drawn.FIRST_PART = drawn.FIRST_PART, 1 << 40  # the whole book as one part
    [views] = drawn.seen_of(record)
    *_, (_, seen) = views  # its runs, after each string as a run
    drawn.FIRST_PART = first
    on_paper = book.page[~book.deco]  # the page of each character of `seen`
    for i in range(len(doc)):
        page = doc[i]
        sheet = pf._read_sheet(page)
        a, b = sheet.read, book.read.take(book.page == i)
        mine = _page_runs(seen, on_paper, i) if len(b) else None
        if a.text != b.text:
            bad.append(f"{p.name} page {i + 1}: characters {len(a)} read back, {len(b)} recorded")
        elif len(a) and (np.abs(a.box - b.box).max() > 0.3 or np.abs(a.size - b.size).max() > 0.01 or (a.rgb != b.rgb).any()):
            bad.append(f"{p.name} page {i + 1}: box off by {np.abs(a.box - b.box).max():.2f} mm, size or colour differs")
        elif (sheet.seen is None) != (mine is None):
            bad.append(f"{p.name} page {i + 1}: text seen on one side only")
        elif sheet.seen is not None and mine is not None and (why := _not_covered(sheet.seen, mine)):
            bad.append(f"{p.name} page {i + 1}: {why}")
        page.close()
    doc.close()
    return bad


def _page_runs(seen: RunsSeen | None, page_of: np.ndarray, i: int) -> RunsSeen | None:
    """The characters and runs of a book's `seen` (drawn.seen_of: every page's, page after page, no
    run across pages) on page i (0-based), as a page's."""
    if seen is None:
        return None
    at = np.flatnonzero(page_of == i)
    runs, first = page_of[seen.starts] == i, at[0] if len(at) else 0
    return RunsSeen(seen.chars.take(at), seen.starts[runs] - first, seen.ends[runs] - first, seen.under[runs],
                    seen.on_page[runs])


def _not_covered(back: RunsSeen, mine: RunsSeen) -> str:
    """Why the record's runs do not hold the read-back's (each run's characters in one recorded
    run, on the same colour), or "" when they do."""
    if not len(back.starts):
        return ""
    starts = back.chars.box[back.starts]
    dist = np.abs(starts[:, None, :] - mine.chars.box[None, :, :]).max(axis=2)
    at = dist.argmin(axis=1)
    if (dist[np.arange(len(at)), at] > 0.3).any():
        return "a run's first character is not in the record"
    run = np.searchsorted(mine.starts, at, side="right") - 1
    off = np.abs(back.under - mine.under[run]).max(axis=1)
    if off.max() > 0:  # the same run on another colour: by how much its contrast differs
        k = int(off.argmax())
        fg, b, m = (tuple(v.tolist()) for v in (back.chars.rgb[back.starts[k]], back.under[k], mine.under[run][k]))
        return (f"colour under a run: {b} read back, {m} recorded (contrast {pf.contrast_ratio(fg, b):.3f} "
                f"against {pf.contrast_ratio(fg, m):.3f})")
    return ""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", default="", help="comma-separated game ids (default: every example game)")
    ap.add_argument("--contrast", type=float, nargs="*", default=[], help="contrast thresholds to pass with too")
    ap.add_argument("--safe", type=float, default=pf.SAFE_MM)
    ap.add_argument("--chars", action="store_true", help="compare the characters page by page too")
    a = ap.parse_args()
    games = a.games.split(",") if a.games else game_ids()
    with tempfile.TemporaryDirectory() as tmp:
        found = books(games, Path(tmp))
        print(f"{len(found)} books with a record")
        differ = 0
        for contrast in [0.0, *a.contrast]:
            if contrast:
                pf.MIN_CONTRAST = pf.MIN_CONTRAST_LARGE = contrast
            cpu: dict[tuple[str, str], float] = defaultdict(float)
            n = 0
            for p, record in found:
                kind = p.name.split("-")[0]
                t = time.process_time()
                back = pf.preflight_pdf(p, p.name, a.safe)
                cpu[kind, "read back"] += time.process_time() - t
                t = time.process_time()
                mine = pf.preflight_pdf(p, p.name, a.safe, record=record)
                cpu[kind, "record"] += time.process_time() - t
                n += len(back)
                if [str(f) for f in back] != [str(f) for f in mine]:
                    differ += 1
                    print(f"DIFFERENT findings ({'contrast ' + str(contrast) if contrast else 'build options'}): {p.name}")
                    for f in sorted({str(f) for f in back} ^ {str(f) for f in mine})[:6]:
                        print(f"   {'read back' if f in map(str, back) else 'record   '}: {f[:300]}")
            print(f"{'contrast ' + str(contrast) if contrast else 'build options'}: {n} findings read back; CPU s by kind "
                  + ", ".join(f"{k} {cpu[k, 'read back']:.2f} -> {cpu[k, 'record']:.2f}" for k in sorted({k for k, _ in cpu}))
                  + f"; total {sum(v for (k, w), v in cpu.items() if w == 'read back'):.2f} -> "
                  f"{sum(v for (k, w), v in cpu.items() if w == 'record'):.2f}")
        if a.chars:
            bad = [line for p, record in found for line in compare_chars(p, record)]
            paper = [line for line in bad if "colour under a run" in line]
            print(f"characters: {len(bad) - len(paper)} pages differ; {len(paper)} pages have a run on another colour")
            for line in [line for line in bad if line not in paper][:20] + paper[:3]:
                print("  " + line)
            if paper:
                print("  the colours under runs that differ: " + ", ".join(sorted({
                    line.split("colour under a run: ")[1].split(" (contrast")[0] for line in paper})))
        print("findings: " + ("the same in every book" if not differ else f"{differ} books DIFFER"))


if __name__ == "__main__":
    main()
