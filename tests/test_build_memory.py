"""A build's memory stays bounded by what one page and one unit need, not by the size of the game
(issue 26 item 2, issue 31 item 3): a PDF's pages are encoded as each is shown, not held as text
until the document is saved; a unit's files reach the output folder as files, never as bytes held
by the build. Memory is measured with tracemalloc (Python's own allocations, the same on any
machine and under any load), and what was written is read back with pypdf; the peak of every
process of a build is the kernel's (ru_maxrss), measured around a build in a fresh interpreter."""
from __future__ import annotations

import json
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest
from pypdf import PdfReader

from generator import incremental, output
from generator.context import BuildContext
from generator.geometry import Box
from generator.render import open_surface
from generator.cli import main
from generator.runners import serial

PAGES, RECTS = 200, 1500
PALETTE = ["#ffffff", "#202020", "#c0392b", "#2e86c1", "#f1c40f", "#27ae60"]


def _draw(surface) -> None:
    for page in range(PAGES):
        surface.begin_page(210, 297)
        for k in range(RECTS):  # a card sheet's kind of page: a few colours, boxes on a grid
            surface.rect(Box(k % 50 * 4, k // 50 * 9 + page % 7, 3.5, 8), fill=PALETTE[(k + page) % len(PALETTE)])
        surface.end_page()


def test_a_pdf_holds_its_pages_encoded_until_saved(tmp_path):
    surface = open_surface("pdf", title="memory")
    tracemalloc.start()
    try:
        _draw(surface)
        held, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    target = tmp_path / "sheet.pdf"
    surface.save(target)
    reader = PdfReader(target)
    assert len(reader.pages) == PAGES
    text = reader.pages[PAGES - 1].get_contents().get_data()  # the last page, decoded: every rectangle there
    raw = len(text) * PAGES
    assert text.count(b" re") >= RECTS
    # 200 pages of about 60 kB of operators each: held as text that is 12 MB; encoded, a fraction
    assert raw > 8_000_000
    assert held < raw / 4, f"{held / 1e6:.1f} MB held for {raw / 1e6:.1f} MB of page text"


def test_a_units_files_are_moved_into_place_not_held(game_copy, tmp_path, monkeypatch):
    """Every file a unit run in this process (or a local pool) wrote reaches the output folder as a
    path to move, and the scratch folders are gone after the build."""
    given: list[object] = []
    real = output.place

    def spy(target: Path, data, **kw):
        given.append(data)
        return real(target, data, **kw)

    monkeypatch.setattr(output, "place", spy)
    out = tmp_path / "out"
    ctx = BuildContext(preflight=False, out_root=out, lang="ja")
    report = incremental.build([game_copy()], ctx, {"cards", "manifest"}, runner=serial)
    assert report.written and len(given) == len(report.written)
    assert all(isinstance(d, Path) for d in given)
    assert not [p for p in out.iterdir() if p.name.startswith(".pnp-unit")]
    pdf = next(p for p in report.written if p.suffix == ".pdf")
    assert len(PdfReader(pdf).pages) >= 1


# a build in a fresh interpreter, as `pnp build` runs; then the peaks in kB (Linux) of that process
# and of the largest process it started, and whether OR-Tools was loaded in it
MEASURED_BUILD = """import json, resource, sys
from generator.cli import main
code = main(["build", *sys.argv[1:]])
print(json.dumps({"code": code, "own": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
                  "children": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss,
                  "ortools": any(m.split(".")[0] == "ortools" for m in sys.modules)}))
"""


def _measured_build(folder: Path, out: Path, *stages: str) -> dict:
    only = [a for s in stages for a in ("--only", s)]
    proc = subprocess.run([sys.executable, "-c", MEASURED_BUILD, str(folder), "--out", str(out), "--jobs", "1", *only],
                          capture_output=True, text=True, cwd=Path(__file__).resolve().parent.parent)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ru_maxrss in kB and fork: Linux")
def test_no_process_of_a_build_holds_the_optimiser_and_the_drawing(tmp_path):
    """Issue 26 item 2: the checker's OR-Tools (with pandas, about 65 MB that no `del` gives back)
    is loaded only in a process of its own, never where pieces are drawn. A newcomer's game (`pnp
    new`) built with its checker and its cards peaks, in every process, within 30 MB of the same
    game's cards alone; loaded in the build's process, the optimiser put it about 65 MB above."""
    folder = tmp_path / "my-game"
    assert main(["new", str(folder)]) == 0
    cards = _measured_build(folder, tmp_path / "cards", "cards")
    both = _measured_build(folder, tmp_path / "both", "check", "cards")
    report = json.loads((tmp_path / "both" / "my-game" / "check-report.json").read_text(encoding="utf-8"))
    assert report["findings"] is not None and next((tmp_path / "both" / "my-game").glob("cards-*.pdf"))
    largest = max(both["own"], both["children"])
    assert largest <= cards["own"] + 30 * 1024, (
        f"a process of the build peaked at {largest // 1024} MB; the cards alone at {cards['own'] // 1024} MB")
    assert not cards["ortools"] and not both["ortools"], "the build's own process loaded OR-Tools"
