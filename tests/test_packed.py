"""The packed print (`pnp build --layout packed`, issue 25), read back from the PDFs with pdfplumber
and pypdf: every copy of every piece once, each back at the mirror image of its front across the
flip edge (within 0.1 mm), every cut a straight line across the part it divides (guillotine), the
marks in the margin on such cuts, the same bytes from any folder; and for every example game fewer
sheets than one component at a time, near the area bound."""
from __future__ import annotations

import json
import math
import os
from pathlib import Path

import pdfplumber
import pytest
from pypdf import PdfReader

from generator.cli import main
from pdf_units import MM_PER_PT

GAME_YAML = """\
id: packing-test
title: Harbour Lights
players: {min: 2, max: 4}
source_language: en
languages: [en]
"""
CARDS_CSV = "id,name,count\n" + "".join(f"ship-{n},Ship {n},{1 + n % 2}\n" for n in range(1, 12))
COMPONENTS_YAML = """\
components:
  - id: ship-cards
    kind: deck
    name: Ship cards
    size: poker
    items_file: cards.csv
  - id: crew
    kind: counters
    name: Crew counters
    size: half-inch
    items:
""" + "".join(f"""\
      - id: crew-{n}
        count: {1 + n % 3}
        front: {{label: F{n:02d}}}
        back: {{label: B{n:02d}}}
""" for n in range(1, 31)) + """\
  - id: cargo
    kind: tokens
    name: Cargo tokens
    size: {width_mm: 20, height_mm: 20}
    shape: square
    items:
""" + "".join(f"""\
      - id: cargo-{n}
        count: 2
        front: {{label: T{n:02d}}}
        back: {{label: U{n:02d}}}
""" for n in range(1, 9))
LAYOUTS_YAML = """\
layouts:
  - id: ship-front
    size: poker
    background: "#f4ecd8"
    fields:
      - {kind: text, box: [5, 5, 53, 12], text: "{name}", size_pt: 14}
  - id: ship-back
    size: poker
    background: "#23364a"
    fields:
      - {kind: text, box: [5, 40, 53, 10], text: "Harbour", size_pt: 14, colour: "#f2c14e"}
  - id: crew-face
    size: half-inch
    background: "#9fc5e8"
    fields:
      - {kind: text, box: [0.6, 3, 11.5, 5], text: "{face.label}", size_pt: 7, wrap: false}
  - id: cargo-face
    size: {width_mm: 20, height_mm: 20}
    background: "#e6b8af"
    fields:
      - {kind: text, box: [2, 6, 16, 6], text: "{face.label}", size_pt: 9, wrap: false}
components:
  ship-cards: {front: ship-front, back: ship-back}
  crew: {front: crew-face, back: crew-face}
  cargo: {front: cargo-face, back: cargo-face}
"""
# each piece's art: its trim and its bleed (cards 3 mm, counters and tokens 1.5 mm)
ART = {"card": (69.5, 94.9), "crew": (15.7, 15.7), "cargo": (23.0, 23.0)}
TOL = 0.1


def write_game(folder: Path) -> Path:
    folder.mkdir(parents=True)
    for name, text in (("game.yaml", GAME_YAML), ("cards.csv", CARDS_CSV), ("components.yaml", COMPONENTS_YAML),
                       ("layouts.yaml", LAYOUTS_YAML)):
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def build(game: Path, out: Path, *extra: str) -> int:
    return main(["build", str(game), "--out", str(out), "--jobs", "1", "--layout", "packed",
                 "--only", "manifest", "--only", "packed", *extra])


@pytest.fixture(scope="module")
def harbour(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("packed")
    game = write_game(tmp / "harbour")
    assert build(game, tmp / "out") == 0
    return tmp, game, tmp / "out" / "packing-test"


def art_boxes(page) -> list[tuple[str, float, float, float, float]]:
    """(kind, x, y, w, h) in mm of every piece's art (a filled rectangle of an art size)."""
    out = []
    for r in page.rects:
        w, h = r["width"] * MM_PER_PT, r["height"] * MM_PER_PT
        for kind, (aw, ah) in ART.items():
            if abs(w - aw) < 0.01 and abs(h - ah) < 0.01 and r.get("fill"):
                out.append((kind, r["x0"] * MM_PER_PT, r["top"] * MM_PER_PT, w, h))
    return out


def labels(page) -> list[tuple[str, float, float]]:
    """Each F/B/T/U label with its centre in mm."""
    return [(w["text"], (w["x0"] + w["x1"]) / 2 * MM_PER_PT, (w["top"] + w["bottom"]) / 2 * MM_PER_PT)
            for w in page.extract_words() if len(w["text"]) == 3 and w["text"][0] in "FBTU"]


def box_of(boxes, x, y):
    hits = [b for b in boxes if b[1] < x < b[1] + b[3] and b[2] < y < b[2] + b[4]]
    assert len(hits) == 1, (x, y, hits)
    return hits[0]


def test_every_copy_once_and_each_back_behind_its_front(harbour):
    _, _, out = harbour
    expected = {f"F{n:02d}": 1 + n % 3 for n in range(1, 31)} | {f"T{n:02d}": 2 for n in range(1, 9)}
    seen: dict[str, int] = {}
    with pdfplumber.open(out / "packed-en.pdf") as pdf:
        assert len(pdf.pages) % 2 == 0  # a backs page behind every fronts page
        for front, back in zip(pdf.pages[::2], pdf.pages[1::2]):
            W, H = float(front.width) * MM_PER_PT, float(front.height) * MM_PER_PT
            f_boxes, b_boxes = art_boxes(front), art_boxes(back)
            assert len(f_boxes) == len(b_boxes) > 0
            backs = [(t, box_of(b_boxes, x, y)) for t, x, y in labels(back)]
            for text, x, y in labels(front):
                seen[text] = seen.get(text, 0) + 1
                kind, fx, fy, fw, fh = box_of(f_boxes, x, y)
                # after a flip about the paper's long edge: x mirrors on a portrait page, y on a landscape one
                mirror = (fx, H - fy - fh) if W > H else (W - fx - fw, fy)
                own = ("B" if text[0] == "F" else "U") + text[1:]
                assert any(t == own and b[0] == kind and abs(b[1] - mirror[0]) <= TOL and abs(b[2] - mirror[1]) <= TOL
                           for t, b in backs), (text, mirror)
            for box in f_boxes:  # every front art has its back at the mirror image
                kind, fx, fy, fw, fh = box
                mirror = (fx, H - fy - fh) if W > H else (W - fx - fw, fy)
                assert any(b[0] == kind and abs(b[1] - mirror[0]) <= TOL and abs(b[2] - mirror[1]) <= TOL
                           for b in b_boxes), box
    assert seen == expected
    with pdfplumber.open(out / "packed-en.pdf") as pdf:
        cards = sum(1 for p in pdf.pages[::2] for b in art_boxes(p) if b[0] == "card")
    assert cards == sum(1 + n % 2 for n in range(1, 12))


def guillotine(boxes: list[tuple[float, float, float, float]], region: tuple[float, float, float, float]) -> bool:
    """Whether the boxes (x, y, w, h) part by straight cuts, each across the whole of the part it
    divides (a cut touching no box's inside), down to one box per part."""
    if len(boxes) <= 1:
        return True
    x0, y0, x1, y1 = region
    for axis in (1, 0):  # across first (strips), then down (columns)
        lo, size = (lambda b: b[axis]), (lambda b: b[axis + 2])
        cuts = sorted({round(lo(b) + size(b), 6) for b in boxes})
        for c in cuts:
            before = [b for b in boxes if lo(b) + size(b) <= c + 0.01]
            after = [b for b in boxes if lo(b) >= c - 0.01]
            if before and after and len(before) + len(after) == len(boxes):
                r1 = (x0, y0, c, y1) if axis == 0 else (x0, y0, x1, c)
                r2 = (c, y0, x1, y1) if axis == 0 else (x0, c, x1, y1)
                return guillotine(before, r1) and guillotine(after, r2)
    return False


def test_every_cut_spans_its_strip_and_margin_marks_lie_on_cuts(harbour):
    _, _, out = harbour
    with pdfplumber.open(out / "packed-en.pdf") as pdf:
        for page in pdf.pages[::2]:
            W, H = float(page.width) * MM_PER_PT, float(page.height) * MM_PER_PT
            boxes = [b[1:] for b in art_boxes(page)]
            assert guillotine(boxes, (0, 0, W, H))
            # the cuts across the whole sheet are marked in its margin, on lines that cross no piece
            margin = [ln for ln in page.lines if abs(ln["top"] - ln["bottom"]) < 0.01
                      and (ln["x1"] * MM_PER_PT < min(b[0] for b in boxes) or ln["x0"] * MM_PER_PT > max(b[0] + b[2] for b in boxes))]
            for ln in margin:
                y = ln["top"] * MM_PER_PT
                assert not any(b[1] + 0.01 < y < b[1] + b[3] - 0.01 for b in boxes), y
                assert 5.0 - 0.01 <= ln["x0"] * MM_PER_PT and ln["x1"] * MM_PER_PT <= W - 5.0 + 0.01


def test_the_manifest_counts_the_sheets(harbour):
    _, _, out = harbour
    sheets = json.loads((out / "manifest.json").read_text(encoding="utf-8"))["sheets"]
    pages = len(PdfReader(out / "packed-en.pdf").pages)
    assert sheets["packed"] == pages // 2
    # one at a time: 17 ship cards, 8 a landscape A4 sheet: 3; their tuck box: 1; 60 crew counters: 1; 16 cargo: 1
    assert sheets["per_component"] == 6
    # art: 17 x 69.5 x 94.9 + 60 x 15.7^2 + 16 x 23^2 = 135,428 mm2, and the tuck box's net for 17 cards
    # (inside 64 x 89.4 x 5.6 mm: 147.2 x 114.6 mm, 1.5 mm bleed) 150.2 x 117.6 = 17,664 mm2;
    # over A4 less 5 mm a side (57,400 mm2): 2.67
    assert sheets["area_bound"] == 3
    assert sheets["packed"] <= sheets["per_component"] - 1
    assert sheets["packed"] <= math.ceil(1.25 * sheets["area_bound"]) + 1


def test_same_bytes_from_another_folder(harbour, tmp_path):
    _, game, out = harbour
    again = tmp_path / "again"
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        assert build(game, again) == 0
    finally:
        os.chdir(cwd)
    assert (again / "packing-test" / "packed-en.pdf").read_bytes() == (out / "packed-en.pdf").read_bytes()


def test_gutterfold_packs_backs_mirrored_about_the_fold(harbour, tmp_path):
    _, game, _ = harbour
    assert main(["build", str(game), "--out", str(tmp_path), "--jobs", "1", "--layout", "packed,gutterfold",
                 "--only", "packed", "--no-preflight"]) == 0
    with pdfplumber.open(tmp_path / "packing-test" / "packed-en-gutterfold.pdf") as pdf:
        for page in pdf.pages:
            W = float(page.width) * MM_PER_PT
            boxes = art_boxes(page)
            fronts = [b for b in boxes if b[1] + b[3] <= W / 2]
            backs = [b for b in boxes if b[1] >= W / 2]
            assert len(fronts) == len(backs) == len(boxes) / 2 > 0
            for kind, x, y, w, h in fronts:
                assert any(b[0] == kind and abs(b[1] - (W - x - w)) <= TOL and abs(b[2] - y) <= TOL for b in backs)
            assert guillotine([b[1:] for b in fronts], (0, 0, W / 2, float(page.height) * MM_PER_PT))


def test_a_layout_that_is_no_layout_is_one_line_and_exit_2(harbour, tmp_path, capsys):
    _, game, _ = harbour
    assert main(["build", str(game), "--out", str(tmp_path), "--layout", "packed,folded"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("--layout") and "Traceback" not in err


def test_the_default_build_writes_no_packed_sheets(harbour, tmp_path):
    _, game, _ = harbour
    assert main(["build", str(game), "--out", str(tmp_path), "--jobs", "1", "--only", "manifest",
                 "--only", "packed", "--no-preflight"]) == 0
    folder = tmp_path / "packing-test"
    assert not list(folder.glob("packed-*"))
    assert "sheets" not in json.loads((folder / "manifest.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def examples(tmp_path_factory):
    out = tmp_path_factory.mktemp("examples")
    assert main(["build", "--all", "--out", str(out), "--jobs", "1", "--layout", "packed", "--only", "manifest",
                 "--only", "packed", "--no-preflight"]) == 0
    return out


@pytest.mark.parametrize("game", ["dont-drop-the-ring", "lotr-sauron", "riddle-of-the-ring",
                                  "saboteur-the-lost-mines", "war-of-the-ring-campaign"])
def test_every_example_packs_on_fewer_sheets_near_the_bound(examples, game):
    folder = examples / game
    sheets = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))["sheets"]
    pdf = next(folder.glob("packed-*.pdf"))
    reader = PdfReader(pdf)
    assert sheets["packed"] == len(reader.pages) // 2
    assert sheets["packed"] < sheets["per_component"]
    assert sheets["packed"] <= math.ceil(1.25 * sheets["area_bound"]) + 1
    with pdfplumber.open(pdf) as doc:
        for page in doc.pages[::2]:
            W, H = float(page.width) * MM_PER_PT, float(page.height) * MM_PER_PT
            arts = [(r["x0"] * MM_PER_PT, r["top"] * MM_PER_PT, r["width"] * MM_PER_PT, r["height"] * MM_PER_PT)
                    for r in page.rects if r.get("fill") and r["width"] * MM_PER_PT > 14]
            for x, y, w, h in arts:  # every piece's art on the paper, inside the printer's margin
                assert x >= 5.0 - 0.01 and y >= 5.0 - 0.01 and x + w <= W - 5.0 + 0.01 and y + h <= H - 5.0 + 0.01


def test_war_of_the_ring_per_component_figure_is_its_own_sheets(examples, tmp_path):
    """The manifest's per-component figure is what the component sheets really take: the card and
    counter sheets (fronts and backs), the tuck boxes and dice nets (one side)."""
    assert main(["build", "war-of-the-ring-campaign", "--out", str(tmp_path), "--jobs", "1", "--only", "cards",
                 "--only", "counters", "--only", "pieces", "--no-preflight", "--lang", "en"]) == 0
    folder = tmp_path / "war-of-the-ring-campaign"
    duplex = sum(len(PdfReader(p).pages) for p in folder.glob("*-en.pdf") if p.name.startswith(("cards-", "counters-")))
    single = sum(len(PdfReader(p).pages) for p in folder.glob("*-en.pdf") if p.name.startswith(("tuckbox-", "dice-")))
    assert single == 1  # the action cards' tuck box; the one event card the rules describe has none (too thin), its dice are standard ones (not printed)
    sheets = json.loads((examples / "war-of-the-ring-campaign" / "manifest.json").read_text(encoding="utf-8"))["sheets"]
    assert sheets["per_component"] == duplex // 2 + single
