"""docs/tutorial.md cannot drift: its game is written from the page's own code blocks and every
command on the page runs, printing what the page shows.

A fenced block with `title="path"` is a file (a later block with the same path replaces it, as the
reader would); a `console` block holds `$ pnp ...` commands, each followed by lines it must print
(in order; `...` elides, and inside a line stands for any text), and `(exit status N)` when it is not 0.
"""
from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from pypdf import PdfReader

from generator.cli import main

PAGE = Path(__file__).resolve().parent.parent / "docs" / "tutorial.md"
FENCE = re.compile(r"^```(\w*)[ \t]*(.*?)\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)
TITLE = re.compile(r'title="([^"]+)"')


def steps(markdown: str) -> list[tuple[str, object]]:
    """("file", (path, text)) and ("run", (argv, expected lines, exit status)) in page order."""
    out: list[tuple[str, object]] = []
    for m in FENCE.finditer(markdown):
        lang, info, body = m.group(1), m.group(2), m.group(3)
        title = TITLE.search(info)
        if title:
            out.append(("file", (title.group(1), body)))
        elif lang == "console":
            for chunk in re.split(r"^\$ ", body, flags=re.MULTILINE)[1:]:
                command, *shown = chunk.rstrip("\n").split("\n")
                status = 0
                if shown and (s := re.fullmatch(r"\(exit status (\d+)\)", shown[-1].strip())):
                    status, shown = int(s.group(1)), shown[:-1]
                out.append(("run", (shlex.split(command), shown, status)))
    return out


def shows(printed: str, expected: list[str]) -> str | None:
    """None when every expected line matches a printed line, in order; else the first that does not."""
    lines = [ln.rstrip() for ln in printed.splitlines()]
    at = 0
    for want in expected:
        if want.strip() == "...":
            continue
        pattern = ".*".join(re.escape(part) for part in want.rstrip().split("..."))
        while at < len(lines) and not re.search(pattern, lines[at]):
            at += 1
        if at == len(lines):
            return want
        at += 1
    return None


def test_the_page_has_the_steps_it_promises():
    page = steps(PAGE.read_text(encoding="utf-8"))
    files = {p for kind, (p, *_) in page if kind == "file"}
    assert {"first-game/game.yaml", "first-game/cards.csv", "first-game/components.yaml", "first-game/setup.yaml",
            "first-game/layouts.yaml", "first-game/rules/clauses.yaml", "first-game/rules/ja.po"} <= files
    commands = [" ".join(argv) for kind, (argv, *_) in page if kind == "run"]
    assert commands[0] == "pnp show first-game" and "pnp build first-game --out output" in commands
    assert "pnp check first-game" in commands and "pnp rules check first-game --lang ja" in commands
    # the second hour (issue 29): pictures, an icon, tokens, a map and its neighbours, an export
    assert {"first-game/art/fox.svg", "first-game/icons/moon.svg", "first-game/map.yaml"} <= files
    assert "pnp map first-game neighbours 0202" in commands and commands[-1].startswith("pnp export first-game")


def follow(page: Path, folder: Path) -> list[tuple]:
    """Follow a docs page from top to bottom in `folder`: write its files, run its commands; for
    each command (argv, what the page shows, the status it shows, the status it gave, what it printed)."""
    mp = pytest.MonkeyPatch()
    mp.chdir(folder)
    try:
        results = []
        for kind, step in steps(page.read_text(encoding="utf-8")):
            if kind == "file":
                path, text = step
                (folder / path).parent.mkdir(parents=True, exist_ok=True)
                (folder / path).write_text(text, encoding="utf-8")
                continue
            argv, shown, status = step
            assert argv[0] == "pnp", argv
            results.append((argv, shown, status, *run(argv[1:])))
        return results
    finally:
        mp.undo()


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """Follow the page from top to bottom in an empty folder; the folder and what each command printed."""
    folder = tmp_path_factory.mktemp("tutorial")
    return folder, follow(PAGE, folder)


def run(args: list[str]) -> tuple[int, str]:
    import contextlib
    import io
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(buf):
        code = main(args)
    return code, buf.getvalue()


def test_every_command_prints_what_the_page_shows(built):
    _, results = built
    for argv, shown, status, code, printed in results:
        assert code == status, (argv, printed)
        missing = shows(printed, shown)
        assert missing is None, f"`{' '.join(argv)}` did not print {missing!r}; it printed:\n{printed}"


def test_the_tutorial_ends_in_a_deck_a_checked_setup_and_a_translated_rulebook(built):
    folder, results = built
    out = folder / "output" / "first-game"
    deck = PdfReader(out / "cards-animal-cards-en.pdf")
    fronts = "\n".join(p.extract_text() for p in deck.pages[0::2])
    lines = fronts.splitlines()
    assert lines.count("Owl") == 4 and lines.count("5") == 4  # the name, and the value in its corner
    assert fronts.count("Take a card from the player on") == 4  # the text, wrapped to fit
    ja_deck = PdfReader(out / "cards-animal-cards-ja.pdf")
    ja_fronts = "\n".join(p.extract_text() for p in ja_deck.pages[0::2])
    assert ja_fronts.splitlines().count("フクロウ") == 4 and ja_fronts.count("左隣のプレイヤーから") == 4
    for argv, _shown, _status, _code, printed in results:
        assert not re.search(r"^warning:", printed, re.MULTILINE), (argv, printed)  # nothing on the page warns
    last_check = [r for r in results if r[0][1] == "check"][-1]
    assert last_check[3] == 0 and "0 error(s), 0 warning(s)" in last_check[4]
    ja = "\n".join(p.extract_text() for p in PdfReader(out / "rulebook-ja.pdf").pages)
    assert "動物カードをよく混ぜ" in ja and "フクロウ" in ja  # the PO's text and the name_ja column


def test_the_image_of_the_default_faces_is_on_the_page():
    text = PAGE.read_text(encoding="utf-8")
    for target in re.findall(r"!\[[^\]]*\]\(([^)]+)\)", text):
        assert (PAGE.parent / target).is_file(), target


def test_the_second_hour_ends_in_pictures_an_icon_tokens_a_map_and_an_export(built):
    import xml.etree.ElementTree as ET

    folder, _ = built
    out = folder / "output" / "first-game"
    deck = PdfReader(out / "cards-animal-cards-en.pdf")
    forms = [x for x in deck.pages[0]["/Resources"]["/XObject"].values() if x.get_object().get("/Subtype") == "/Form"]
    assert len(forms) >= 3  # the fox, the owl and the moon: SVG files drawn as vectors
    fronts = "\n".join(p.extract_text() for p in deck.pages[0::2])
    assert ":moon:" not in fronts and "two" in fronts
    assert (out / "tokens-moon-tokens-en.pdf").is_file()
    svg = ET.parse(out / "map-forest.svg").getroot()
    titles = [t.text for t in svg.iter("{http://www.w3.org/2000/svg}title")]
    assert {"0101", "0202", "0303"} <= set(titles)  # the nine labelled hexes
    assert (out / "export" / "tts" / "first-game-en.json").is_file()
