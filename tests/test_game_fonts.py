"""Issue 29 item 3: a designer's own font file. A newcomer's game (started with `pnp new`, not an
example) sets English in a TrueType file of its folder, `fonts: {en: fonts/DejaVuSerif.ttf}`, with
the bold beside it. The PDFs must embed a subset of that face and of its bold (read back with pypdf
and pdfplumber), the SVG must name it, manifest.json must note its licence as the font's own name
table states it (read with fontTools), the same input must give the same bytes from another folder,
and every unusable font file must be one located line with exit status 2.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import matplotlib
import pdfplumber
import pytest
from fontTools.ttLib import TTFont
from pypdf import PdfReader

from generator.cli import main

FONTS = Path(matplotlib.__file__).parent / "mpl-data" / "fonts" / "ttf"  # DejaVu: a free face to test with


def new_game(root: Path, fonts_line: str) -> Path:
    folder = root / "harbour"
    assert main(["new", str(folder)]) == 0
    (folder / "fonts").mkdir()
    for name in ("DejaVuSerif.ttf", "DejaVuSerif-Bold.ttf"):
        shutil.copy(FONTS / name, folder / "fonts" / name)
    game_yaml = folder / "game.yaml"
    game_yaml.write_text(game_yaml.read_text(encoding="utf-8") + fonts_line + "\n", encoding="utf-8")
    return folder


def base_fonts(pdf: Path) -> set[str]:
    """Every BaseFont of every page, with its subset prefix (ABCDEF+)."""
    out = set()
    for page in PdfReader(pdf).pages:
        for ref in (page["/Resources"].get_object().get("/Font") or {}).values():
            font = ref.get_object()
            face = font["/DescendantFonts"][0].get_object() if font.get("/Subtype") == "/Type0" else font
            assert "/FontFile2" in face["/FontDescriptor"].get_object(), f"{font['/BaseFont']} is not embedded"
            out.add(str(font["/BaseFont"]))
    return out


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = tmp_path_factory.mktemp("own-font")
    folder = new_game(root, "fonts: {en: fonts/DejaVuSerif.ttf}")
    out = root / "out"
    code = main(["build", str(folder), "--out", str(out), "--lang", "en", "--only", "cards", "--only", "manifest",
                 "--no-preflight"])
    assert code == 0
    return folder, out / "harbour"


def test_cards_embed_a_subset_of_the_game_font_and_its_bold(built):
    _, out = built
    [pdf] = sorted(out.glob("cards-*-en.pdf"))
    names = base_fonts(pdf)
    assert {n.split("+")[-1] for n in names} >= {"DejaVuSerif", "DejaVuSerif-Bold"}
    assert all("+" in n and len(n.split("+")[0]) == 7 for n in names if "DejaVu" in n)  # /ABCDEF+: a subset
    assert not any("SourceSerif" in n for n in names)  # the built-in Latin face is not used
    with pdfplumber.open(pdf) as doc:
        letters = [c for c in doc.pages[0].chars if c["text"].isalpha()]
    assert letters and {c["fontname"].split("+")[-1] for c in letters} <= {"DejaVuSerif", "DejaVuSerif-Bold"}


def test_svg_names_the_face(built):
    import xml.etree.ElementTree as ET

    _, out = built
    svg = sorted(out.glob("cards-*-en-p1.svg"))[0]
    families = {el.get("font-family") for el in ET.parse(svg).iter() if el.get("font-family")}
    assert families and all(f.startswith("'DejaVu Serif'") for f in families)


def test_manifest_notes_the_font_and_its_licence(built):
    folder, out = built
    data = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    [entry] = data["fonts"]
    assert entry["language"] == "en" and entry["family"] == "DejaVu Serif"
    assert entry["files"] == ["fonts/DejaVuSerif-Bold.ttf", "fonts/DejaVuSerif.ttf"]
    with TTFont(str(folder / "fonts" / "DejaVuSerif.ttf")) as f:
        stated = " ".join(f["name"].getDebugName(13).split())
    assert entry["licence"] == stated and "Bitstream" in stated


def test_same_bytes_from_another_folder(built, tmp_path):
    folder, out = built
    moved = tmp_path / "elsewhere" / "harbour"
    shutil.copytree(folder, moved)
    assert main(["build", str(moved), "--out", str(tmp_path / "out"), "--lang", "en", "--only", "cards",
                 "--no-preflight"]) == 0
    for pdf in sorted(out.glob("cards-*-en.pdf")):
        assert (tmp_path / "out" / "harbour" / pdf.name).read_bytes() == pdf.read_bytes()


@pytest.mark.parametrize("value, what", [
    ("fonts/Broken.ttf", "font 'fonts/Broken.ttf' is corrupt or unreadable"),
    ("../outside.ttf", "font path '../outside.ttf' leaves the game folder"),
    ("fonts/Missing.ttf", "font 'fonts/Missing.ttf' not found"),
    ("fonts/Empty.ttf", "font 'fonts/Empty.ttf' is corrupt or unreadable"),
    ("{regular: fonts/DejaVuSerif.ttf, bold: fonts/Broken.ttf}", "font 'fonts/Broken.ttf' is corrupt"),
    ("comic-sans", "unknown font 'comic-sans'"),
])
def test_an_unusable_font_is_one_located_line(tmp_path, capsys, value, what):
    folder = new_game(tmp_path, f"fonts: {{en: {value}}}")
    (folder / "fonts" / "Broken.ttf").write_bytes((FONTS / "DejaVuSerif.ttf").read_bytes()[:20_000])  # cut short
    (folder / "fonts" / "Empty.ttf").write_bytes(b"")
    (tmp_path / "outside.ttf").write_bytes((FONTS / "DejaVuSerif.ttf").read_bytes())
    capsys.readouterr()
    assert main(["check", str(folder)]) == 2
    err = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    assert len(err) == 1, err
    lines = (folder / "game.yaml").read_text(encoding="utf-8").splitlines()
    line_no = next(i for i, ln in enumerate(lines, 1) if ln.startswith("fonts:"))
    assert err[0].startswith(f"{folder.name}/game.yaml:{line_no}:") or f"game.yaml:{line_no}:" in err[0]
    assert what in err[0] and "Traceback" not in err[0]


def test_a_font_that_forbids_embedding_is_refused(tmp_path, capsys):
    folder = new_game(tmp_path, "fonts: {en: fonts/Locked.ttf}")
    with TTFont(str(FONTS / "DejaVuSerif.ttf")) as f:
        f["OS/2"].fsType = 0x0002  # restricted licence embedding
        f.save(str(folder / "fonts" / "Locked.ttf"))
    capsys.readouterr()
    assert main(["check", str(folder)]) == 2
    err = capsys.readouterr().err
    assert "does not allow embedding" in err and "game.yaml:" in err
