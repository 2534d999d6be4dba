"""Every component kind printed or left out for a reason (issue 24): read back from the files a
build writes (manifest.json as JSON; the PDFs with pypdf and pdfplumber), never from the model.

Counts are checked against the data read as plain YAML (components.yaml, else proposed.yaml), the
pieces counted from the drawing: each face paints its background over trim and bleed, so a piece
is one distinct position of a rectangle of its size plus bleed on a fronts page.
"""
from __future__ import annotations

import json
import re
from collections import defaultdict
from pathlib import Path

import pdfplumber
import pypdf
import pytest
import yaml

from generator.build import cards, manifest, pieces
from generator.context import BuildContext
from pdf_units import MM_PER_PT
from solver.game.folders import GAMES_DIR, game_ids
from solver.game.loader import load_game

RE_RECT = re.compile(rb"([-\d.]+) ([-\d.]+) ([-\d.]+) ([-\d.]+) re")
SAB = "saboteur-the-lost-mines"
WOTR = "war-of-the-ring-campaign"
PUNCH_BLEED = 1.5  # the punch-out printers' bleed (3 mm gutter)


def stated_or_proposed(gid: str, cid: str) -> dict[str, int]:
    """Item -> copies, from the YAML files as a person reads them."""
    comps = yaml.safe_load((GAMES_DIR / gid / "components.yaml").read_text(encoding="utf-8"))["components"]
    comp = next(c for c in comps if c["id"] == cid)
    proposed_file = GAMES_DIR / gid / "proposed.yaml"
    proposals = yaml.safe_load(proposed_file.read_text(encoding="utf-8"))["proposals"] if proposed_file.exists() else []
    proposed = {(p["component"], p["item"]): p["count"] for p in proposals}
    items = comp.get("items") or [{"id": cid, "count": comp.get("count")}]
    return {i["id"]: i["count"] if i.get("count") is not None else proposed[(cid, i["id"])] for i in items}


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("printers")
    for gid in game_ids():
        game = load_game(gid)
        manifest(game, BuildContext(out_root=out, formats=("pdf",), preflight=False))
        if gid in (SAB, WOTR):  # every language of these two games is complete
            for lang in ("ja", "en", "fr") if gid == SAB else ("ja", "en"):
                pieces(game, BuildContext(out_root=out, formats=("pdf",), preflight=False, lang=lang))
        if gid == SAB:
            cards(game, BuildContext(out_root=out, formats=("pdf",), preflight=False, lang="en"))
    return out


def dashed(line) -> bool:
    """A dashed stroke (pdfplumber gives a solid one after a dashed one the pattern ([], 0))."""
    return bool(line.get("dash") and line["dash"][0])


def rects_of(page) -> list[tuple[float, float, float, float]]:
    return [tuple(float(v) * MM_PER_PT for v in m.groups()) for m in RE_RECT.finditer(page.get_contents().get_data())]


def pieces_on(pdf: Path, size: tuple[float, float], bleed: float = PUNCH_BLEED) -> list[int]:
    """Per page, the distinct positions of a `size` + bleed rectangle."""
    out = []
    for page in pypdf.PdfReader(pdf).pages:
        found = {(round(x, 1), round(y, 1)) for x, y, w, h in rects_of(page)
                 if abs(w - size[0] - 2 * bleed) < 0.02 and abs(h - size[1] - 2 * bleed) < 0.02}
        out.append(len(found))
    return out


def test_every_component_is_printed_or_left_out_exactly_once(built):
    for gid in game_ids():
        data = json.loads((built / gid / "manifest.json").read_text(encoding="utf-8"))
        for c in data["components"]:
            has = [k for k in ("printed_in", "left_out") if c.get(k)]
            assert len(has) == 1, f"{gid}/{c['id']}: {has or 'neither'}"
            if "left_out" in c:  # a sentence per language, not an id
                assert all(len(text.split()) >= 3 or len(text) >= 8 for text in c["left_out"].values()), c


def test_what_the_manifest_says_is_left_out_is_what_cannot_be_printed(built):
    data = {gid: {c["id"]: c for c in json.loads((built / gid / "manifest.json").read_text(encoding="utf-8"))["components"]}
            for gid in game_ids()}
    assert "six-sided" in data[WOTR]["dice"]["left_out"]["en"]
    assert "left_out" in data[WOTR]["cup"]
    assert data[SAB]["dwarf-pieces"]["printed_in"] == [f"standees-dwarf-pieces-{lg}.pdf" for lg in ("ja", "en", "fr")]
    assert set(data[SAB]["game-board"]["printed_in"]) == {f"boards-game-board-{lg}{tiles}.pdf" for lg in ("ja", "en", "fr")
                                                         for tiles in ("", "-tiles-a4")}
    assert data[WOTR]["map"]["printed_in"][0] == "map-middle-earth.pdf"


def test_printed_in_names_files_the_build_writes(built):
    for gid in (SAB, WOTR):
        data = json.loads((built / gid / "manifest.json").read_text(encoding="utf-8"))
        for c in data["components"]:
            for f in c.get("printed_in", []):
                if f.split("-")[0] in ("tokens", "tiles", "standees", "boards") or (gid == SAB and f.endswith("-en.pdf")):
                    assert (built / gid / f).is_file(), f"{gid}/{c['id']}: {f} is not written"


@pytest.mark.parametrize("cid, printer, size", [
    ("forest-tokens", "tokens", (20, 20)), ("dragon-token", "tokens", (25, 25)), ("point-chips", "tokens", (20, 20)),
    ("dwarf-tiles", "tiles", (30, 30))])
def test_saboteur_tokens_chips_and_tiles_print_their_counts(built, cid, printer, size):
    want = sum(stated_or_proposed(SAB, cid).values())
    for lang in ("ja", "en"):
        assert sum(pieces_on(built / SAB / f"{printer}-{cid}-{lang}.pdf", size)) == want, (cid, lang)


def test_saboteur_dwarf_tiles_are_in_each_clans_colour(built):
    """Each tile's background (the rect of tile + bleed) is filled with its clan's colour."""
    palette = yaml.safe_load((GAMES_DIR / SAB / "layouts.yaml").read_text(encoding="utf-8"))["palettes"]["clan"]
    want = {tuple(round(int(c[i:i + 2], 16) / 255, 2) for i in (1, 3, 5)): n
            for c, n in zip((palette["blue"], palette["yellow"]), stated_or_proposed(SAB, "dwarf-tiles").values())}
    with pdfplumber.open(built / SAB / "tiles-dwarf-tiles-en.pdf") as pdf:
        fills: dict[tuple, int] = defaultdict(int)
        for r in pdf.pages[0].rects:
            if abs(r["width"] * MM_PER_PT - 33) < 0.05 and r["fill"]:
                fills[tuple(round(v, 2) for v in r["non_stroking_color"])] += 1
    assert dict(fills) == want


def test_saboteur_pawns_are_standees_whose_back_registers_behind_the_front(built):
    """Nine pawns; on each, a dashed vertical fold line with a panel either side, the back panel the
    front's mirror image about the fold, so the folded back lies exactly behind the front."""
    want = sum(stated_or_proposed(SAB, "dwarf-pieces").values())
    w, h = 22.0, 36.0
    registered = 0
    with pdfplumber.open(built / SAB / "standees-dwarf-pieces-en.pdf") as pdf:
        for page in pdf.pages:
            # trims of the panels: the rects of panel + bleed, less the bleed
            panels = {(round(r["x0"] * MM_PER_PT + PUNCH_BLEED, 1), round(r["top"] * MM_PER_PT + PUNCH_BLEED, 1))
                      for r in page.rects if abs(r["width"] * MM_PER_PT - w - 2 * PUNCH_BLEED) < 0.05
                      and abs(r["height"] * MM_PER_PT - h - 2 * PUNCH_BLEED) < 0.05}
            folds = [(ln["x0"] * MM_PER_PT, ln["top"] * MM_PER_PT) for ln in page.lines
                     if dashed(ln) and abs(ln["x0"] - ln["x1"]) < 0.01 and abs((ln["bottom"] - ln["top"]) * MM_PER_PT - h) < 0.05]
            for fx, top in folds:
                front_x = fx - w                       # the front's trim ends at the fold
                back_x = 2 * fx - (front_x + w)        # the front's right edge mirrored about the fold
                assert (round(front_x, 1), round(top, 1)) in panels, (fx, top)
                assert (round(back_x, 1), round(top, 1)) in panels, (fx, top)
                registered += 1
            assert len(panels) == 2 * len(folds)
    assert registered == want


def test_saboteur_board_has_its_mine_and_start_spaces(built):
    for lang, mine, start in (("en", "Mine", "Start"), ("ja", "鉱山", "スタート")):
        pdf_path = built / SAB / f"boards-game-board-{lang}.pdf"
        reader = pypdf.PdfReader(pdf_path)
        assert len(reader.pages) == 1
        box = reader.pages[0].mediabox
        assert (round(float(box.width) * MM_PER_PT), round(float(box.height) * MM_PER_PT)) == (440, 480)
        with pdfplumber.open(pdf_path) as pdf:
            words = [wd["text"] for wd in pdf.pages[0].extract_words()]
        assert sum(wd == mine for wd in words) == 4, words
        assert sum(wd.startswith(start) for wd in words) == 2, words
        tiled = pypdf.PdfReader(built / SAB / f"boards-game-board-{lang}-tiles-a4.pdf")
        sizes = {(round(float(p.mediabox.width) * MM_PER_PT), round(float(p.mediabox.height) * MM_PER_PT)) for p in tiled.pages}
        assert sizes <= {(210, 297), (297, 210)} and len(tiled.pages) >= 3  # an assembly page and the sheets


def test_war_of_the_ring_sheets_print_one_page_each(built):
    for cid, names in (("control-sheets", ["Alliance control sheet", "Dark Lord control sheet"]),
                       ("chart-sheet", ["Chart sheet"]),
                       ("card-lists", ["Card list: Alliance action cards", "Card list: Dark Lord action cards",
                                       "Card list: event cards"])):
        with pdfplumber.open(built / WOTR / f"boards-{cid}-en.pdf") as pdf:
            assert len(pdf.pages) == len(names), cid
            for page, name in zip(pdf.pages, names):
                assert (round(float(page.width) * MM_PER_PT), round(float(page.height) * MM_PER_PT)) == (210, 297)
                assert name in page.extract_text(), (cid, name)


def test_war_of_the_ring_sheets_carry_the_boxes_and_lists_the_rules_name(built):
    with pdfplumber.open(built / WOTR / "boards-control-sheets-en.pdf") as pdf:
        allied, dark = (page.extract_text() for page in pdf.pages)
    assert "Fellowship Movement box" in allied and "Army box" not in allied
    assert sum(f"Army box {n} " in dark for n in range(1, 8)) == 7 and "Fellowship Movement box" not in dark
    comps = yaml.safe_load((GAMES_DIR / WOTR / "components.yaml").read_text(encoding="utf-8"))["components"]
    actions = next(c for c in comps if c["id"] == "action-cards")["items"]
    with pdfplumber.open(built / WOTR / "boards-card-lists-en.pdf") as pdf:
        lists = [page.extract_text() for page in pdf.pages]
    for side, text in (("allied", lists[0]), ("dark", lists[1])):
        for item in actions:
            if "number" in item.get("attrs", {}):
                line = f"{item['attrs']['number']} {item['name']['en']}".replace("'", "’")  # printed with typographic apostrophes
                assert (line in text) == (item["attrs"]["side"] == side), (side, line)


def test_a_component_printed_nowhere_for_no_reason_is_a_build_warning_and_a_check_finding(tmp_path, capsys):
    """An eight-sided die with no faces given: no printer prints it and no rule excuses it."""
    from generator.cli import main

    folder = tmp_path / "dice-game"
    assert main(["new", str(folder)]) == 0
    comps = folder / "components.yaml"
    comps.write_text(comps.read_text(encoding="utf-8")
                     + "  - id: odd-die\n    kind: dice\n    name: {en: Odd die, ja: 変なダイス}\n    count: 1\n"
                       "    attrs: {sides: 8}\n", encoding="utf-8")
    line = comps.read_text(encoding="utf-8").splitlines().index("  - id: odd-die") + 1
    capsys.readouterr()
    main(["check", str(folder), "--json"])
    report = json.loads(capsys.readouterr().out)
    found = [f for f in report["findings"] if f["code"] == "component-not-printed"]
    assert len(found) == 1 and "odd-die" in found[0]["message"]
    assert found[0]["source"].endswith(f"components.yaml:{line}")
    out = tmp_path / "out"
    assert main(["build", str(folder), "--out", str(out), "--only", "manifest"]) == 0
    warnings = (out / "build-warnings.txt").read_text(encoding="utf-8")
    assert "odd-die: neither printed nor left out" in warnings
    entry = next(c for c in json.loads((out / "dice-game" / "manifest.json").read_text(encoding="utf-8"))["components"]
                 if c["id"] == "odd-die")
    assert "printed_in" not in entry and "left_out" not in entry


@pytest.mark.parametrize("deck", ["path-cards", "dwarf-cards", "action-cards"])
def test_a_tuck_box_fits_its_deck_within_one_millimetre(built, deck):
    """The box's inside, read from its fold lines (dashed), against the deck's card size and the
    cards counted in its sheet PDF at 0.3 mm each (a 300 gsm card: the data states no thickness)."""
    comp = next(c for c in yaml.safe_load((GAMES_DIR / SAB / "components.yaml").read_text(encoding="utf-8"))["components"]
                if c["id"] == deck)
    assert comp["size"] == "bridge" and "card_thickness_mm" not in comp
    card_w, card_h = 57.15, 88.9
    n = sum(pieces_on(built / SAB / f"cards-{deck}-en.pdf", (card_w, card_h), bleed=3.0)[0::2])
    assert n == sum(stated_or_proposed(SAB, deck).values())
    with pdfplumber.open(built / SAB / f"tuckbox-{deck}-en.pdf") as pdf:
        lines = [ln for ln in pdf.pages[0].lines if dashed(ln)]
    upright = [ln for ln in lines if abs(ln["x0"] - ln["x1"]) < 0.01]
    tall = max((ln["bottom"] - ln["top"]) * MM_PER_PT for ln in upright)
    xs = sorted({round(ln["x0"] * MM_PER_PT, 2) for ln in upright if abs((ln["bottom"] - ln["top"]) * MM_PER_PT - tall) < 0.05})
    assert len(xs) == 4  # the box's four corners: back | side | front | side
    width, depth, front = xs[1] - xs[0], xs[2] - xs[1], xs[3] - xs[2]
    assert 0 <= width - card_w <= 1 and 0 <= front - card_w <= 1
    assert 0 <= tall - card_h <= 1
    assert 0 <= depth - n * 0.3 <= 1, (depth, n)
    with pdfplumber.open(built / SAB / f"tuckbox-{deck}-en.pdf") as pdf:
        assert comp["name"]["en"] in pdf.pages[0].extract_text()


DIE = """  - id: weather-die
    kind: dice
    name: {en: Weather die, ja: 天気ダイス}
    count: 2
    faces:
%s"""


def test_a_die_with_faces_prints_as_a_net_and_five_faces_are_refused_at_their_line(tmp_path, capsys):
    from generator.cli import main

    folder = tmp_path / "weather"
    assert main(["new", str(folder)]) == 0
    comps = folder / "components.yaml"
    plain = comps.read_text(encoding="utf-8")
    words = ["Sun", "Rain", "Fog", "Storm", "Calm", "Hail"]
    faces = "".join(f"      - {{label: {{en: {w}, ja: {w}}}}}\n" for w in words)
    comps.write_text(plain + DIE % faces, encoding="utf-8")
    out = tmp_path / "out"
    assert main(["build", str(folder), "--out", str(out), "--only", "pieces", "--only", "manifest", "--lang", "en"]) == 0
    with pdfplumber.open(out / "weather" / "dice-weather-die-en.pdf") as pdf:
        page = pdf.pages[0]
        found = [wd["text"] for wd in page.extract_words()]
        folds = [ln for ln in page.lines if dashed(ln)]
    assert sorted(found) == sorted(words * 2)  # two dice, six faces each
    assert len(folds) == 2 * (5 + 7)  # per die: 5 folds between faces, 7 at the glue tabs' bases
    entry = next(c for c in json.loads((out / "weather" / "manifest.json").read_text(encoding="utf-8"))["components"]
                 if c["id"] == "weather-die")
    assert entry["printed_in"] == ["dice-weather-die-en.pdf", "dice-weather-die-ja.pdf"]
    comps.write_text(plain + DIE % "".join(f"      - {{label: {w}}}\n" for w in words[:5]), encoding="utf-8")
    capsys.readouterr()
    assert main(["check", str(folder)]) == 2
    err = capsys.readouterr().err
    line = (plain + DIE).splitlines().index("    faces:") + 2  # the list of faces starts on the next line
    assert f"components.yaml:{line}:" in err and "5 faces" in err


def test_a_tile_sheets_guide_line_shows_on_a_dark_board(built):
    """The guide a neighbour's cut edge is laid on is black with a white edge, so it shows on Saboteur's
    dark-brown board: rasterised with pypdfium2, the pixels across the guide hold both near-black and
    near-white, where the board around it is neither."""
    import pypdfium2

    pdf_path = built / SAB / "boards-game-board-en-tiles-a4.pdf"
    with pdfplumber.open(pdf_path) as pdf:  # sheet 1 (page 2): its guides are the black 0.25 mm lines
        page = pdf.pages[1]
        guides = [ln for ln in page.lines if ln["stroking_color"] in ((0,), (0, 0, 0), [0], [0, 0, 0])
                  and abs(ln["linewidth"] * MM_PER_PT - 0.25) < 0.01]
    assert guides, "no guide line on the first sheet"
    scale = 300 / 72
    bitmap = pypdfium2.PdfDocument(str(pdf_path))[1].render(scale=scale).to_pil().convert("L")
    for ln in guides:
        horizontal = abs(ln["top"] - ln["bottom"]) < 0.01
        mid_x, mid_y = (ln["x0"] + ln["x1"]) / 2 * scale, (ln["top"] + ln["bottom"]) / 2 * scale
        across = [bitmap.getpixel((round(mid_x + (0 if horizontal else d)), round(mid_y + (d if horizontal else 0))))
                  for d in range(-3, 4)]  # 0.25 mm either side at 300 dpi
        board = bitmap.getpixel((round(mid_x + (0 if horizontal else 40)), round(mid_y + (40 if horizontal else 0))))
        assert 40 < board < 200, board  # dark brown, neither black nor white
        assert min(across) < 40 and max(across) > 200, (across, board)
