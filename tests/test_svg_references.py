"""An SVG image from a stranger's game folder reads nothing outside it and cannot run away (issue 31):
outward hrefs, devices, FIFOs and `<use>` fan-out are each one located line naming the SVG, its line
and the reference; references inside the folder and data: pictures still print."""
from __future__ import annotations

import base64
import io
import os
import re
import shutil
import struct
import threading
import zlib
from pathlib import Path

import pdfplumber
import pytest
from PIL import Image

from generator.cli import main
from solver.game import limits

FIXTURE = Path(__file__).parent / "fixtures" / "cards-with-images"
SVG = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="100" height="120">\n{}\n</svg>\n'
LOCATED = re.compile(r"^\S.*:\d+:\d+: .+; .+$")


@pytest.fixture
def deck(tmp_path) -> Path:
    dest = tmp_path / "game" / "cards-with-images"
    shutil.copytree(FIXTURE, dest)
    return dest


def build(deck: Path, out: Path, capsys) -> tuple[int, list[str]]:
    """`pnp build --only cards` in a thread, so that a build that blocks on a FIFO fails the test
    instead of hanging it."""
    result: list[int] = []
    worker = threading.Thread(target=lambda: result.append(main(["build", str(deck), "--out", str(out), "--only", "cards"])),
                              daemon=True)
    worker.start()
    worker.join(120)
    assert result, "the build did not finish"
    return result[0], capsys.readouterr().err.strip().splitlines()


def refused(deck: Path, tmp_path: Path, capsys, body: str, href: str) -> str:
    (deck / "art" / "shield.svg").write_text(SVG.format(body), encoding="utf-8")
    out = tmp_path / "out"
    status, err = build(deck, out, capsys)
    assert status == 2 and len(err) == 1 and "Traceback" not in "\n".join(err), err
    [line] = err
    assert LOCATED.match(line), line
    # located at the item that uses the SVG, naming the SVG, its line and the reference
    assert re.match(rf"^{re.escape(str(deck / 'components.yaml'))}:\d+:\d+: ", line), line
    assert "image 'art/shield.svg' line 2: reference " in line and href in line, line
    assert not list(out.rglob("*.pdf")), "nothing is printed"
    return line


def png_header(w: int, h: int) -> bytes:
    """A PNG that declares w x h pixels (its pixel data is one empty block: only the header is read)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"")) + chunk(b"IEND", b""))


def test_an_image_href_leaving_the_folder_is_refused(deck, tmp_path, capsys):
    secret = tmp_path / "game" / "secret.png"
    Image.new("RGB", (50, 50), "#00ff00").save(secret)
    line = refused(deck, tmp_path, capsys, '<image xlink:href="../../secret.png" width="100" height="120"/>',
                   "../../secret.png")
    assert "leaves the game folder" in line


@pytest.mark.parametrize("href", ["/dev/zero", "file:///etc/hostname", "http://example.com/a.png"])
def test_absolute_paths_and_urls_are_refused(deck, tmp_path, capsys, href):
    line = refused(deck, tmp_path, capsys, f'<image href="{href}" width="100" height="120"/>', href)
    assert "not a path inside the game folder" in line


def test_a_link_to_a_device_inside_the_folder_is_refused(deck, tmp_path, capsys):
    (deck / "art" / "zero.png").symlink_to("/dev/zero")
    line = refused(deck, tmp_path, capsys, '<image href="zero.png" width="100" height="120"/>', "zero.png")
    assert "leaves the game folder" in line


def test_a_fifo_is_refused_without_opening_it(deck, tmp_path, capsys):
    os.mkfifo(deck / "art" / "pipe.png")
    line = refused(deck, tmp_path, capsys, '<image href="pipe.png" width="100" height="120"/>', "pipe.png")
    assert "not a regular file" in line


def test_use_fan_out_is_bounded_over_the_whole_document(deck, tmp_path, capsys):
    # 7 levels of 10: ten million elements once expanded; each level alone is small
    defs = ['<rect id="l0" width="1" height="1"/>']
    defs += [f'<g id="l{k}">' + f'<use href="#l{k - 1}"/>' * 10 + "</g>" for k in range(1, 7)]
    body = '<use href="#l6"/><defs>' + "".join(defs) + "</defs>"
    line = refused(deck, tmp_path, capsys, body, "'#l")
    assert f"past {limits.MAX_SVG_ELEMENTS:,} elements" in line


def test_an_oversized_data_picture_is_refused(deck, tmp_path, capsys):
    uri = "data:image/png;base64," + base64.b64encode(png_header(20000, 20000)).decode()
    line = refused(deck, tmp_path, capsys, f'<image href="{uri}" width="100" height="120"/>', "data:image/png")
    assert "oversized" in line


def test_references_inside_the_folder_and_data_pictures_still_print(deck, tmp_path, capsys):
    small = Image.new("RGB", (8, 8), "#0000ff")
    small.save(deck / "art" / "inner.png")
    small.save(buf := io.BytesIO(), "PNG")
    uri = "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode()
    (deck / "art" / "shield.svg").write_text(SVG.format(
        '<image href="inner.png" width="50" height="60"/>\n'
        f'<image href="{uri}" x="50" width="50" height="60"/><rect id="r" width="5" height="5"/><use href="#r" x="9"/>'),
        encoding="utf-8")
    status, err = build(deck, tmp_path / "out", capsys)
    assert status == 0, err
    with pdfplumber.open(tmp_path / "out" / "cards-with-images" / "cards-art-cards-en.pdf") as pdf:
        sizes = [tuple(img["srcsize"]) for page in pdf.pages for img in page.images]
    assert sizes.count((8, 8)) == 2, sizes  # inner.png and the data: picture, inside the shield's drawing


def test_a_huge_png_is_called_oversized_not_corrupt(deck, tmp_path, capsys):
    (deck / "art" / "castle.png").write_bytes(png_header(20000, 20000))
    status, err = build(deck, tmp_path / "out", capsys)
    assert status == 2 and len(err) == 1 and "oversized" in err[0] and "corrupt" not in err[0], err


def _zigzag(points: int) -> str:
    return "M0 0 " + " ".join(f"L{k % 100} {(k * 7) % 120}" for k in range(points))


def test_a_path_too_long_to_draw_in_time_is_refused_at_its_line(deck, tmp_path, capsys):
    # one path of more than a million characters: drawing time grows with it, so it is refused unread
    d = _zigzag(limits.MAX_SVG_PATH_DATA // 7 + 1000)
    assert len(d) > limits.MAX_SVG_PATH_DATA
    line = refused(deck, tmp_path, capsys, f'<path d="{d}" fill="none" stroke="#000"/>', "<path>")
    assert f"past {limits.MAX_SVG_PATH_DATA:,} characters of path data" in line


def test_path_data_is_counted_with_every_use_expanded(deck, tmp_path, capsys):
    # a path well under the limit, placed 40 times: the copies together pass it
    d = _zigzag(limits.MAX_SVG_PATH_DATA // 7 // 30)
    uses = "".join(f'<use href="#p" x="{k}"/>' for k in range(40))
    body = f'<use href="#many"/><defs><g id="many">{uses}</g><path id="p" d="{d}"/></defs>'
    line = refused(deck, tmp_path, capsys, body, "'#many'")
    assert "characters of path data" in line


def test_a_path_under_the_limit_prints_in_every_format(deck, tmp_path, capsys):
    d = _zigzag(limits.MAX_SVG_PATH_DATA // 7 // 2)
    assert len(d) < limits.MAX_SVG_PATH_DATA
    (deck / "art" / "shield.svg").write_text(SVG.format(f'<path d="{d}" fill="none" stroke="#c00000"/>'),
                                             encoding="utf-8")
    status, err = build(deck, tmp_path / "out", capsys)
    assert status == 0, err
    pngs = sorted((tmp_path / "out" / "cards-with-images" / "png").rglob("*.png"))
    assert pngs
    # the zigzag is in the PNG: some pixel is the path's red (rasterised from the SVG, not left blank)
    import numpy as np

    def red(p: Path) -> bool:
        a = np.asarray(Image.open(p).convert("RGB")).astype(int)
        return bool(((a[..., 0] > 150) & (a[..., 1] < 90) & (a[..., 2] < 90)).any())
    reds = [p for p in pngs if red(p)]
    assert reds, "no PNG shows the path"
