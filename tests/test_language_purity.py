"""Every printed thing in every language, one language per face, read back from the PDFs.

One build of the five example games (PDF only) is read with pypdf and pdfplumber:
- each language the game is built in has its cards, counters, maps, calibration page, rulebooks
  and booklets;
- a Japanese face holds no Latin word but numbers, one- or two-letter marks (grid letters, mm)
  and names: those the Japanese source itself writes in Latin letters (its clauses), the
  designers' and publishers', a value the data gives in another language on purpose (an
  attribute named `<name>-<lang>`, like the German card names of lotr-sauron), the ids of the
  game's gaps a face cites, the program's own name (the colophon on a book's last page) and the
  names of the files the build writes (the print guide cites them);
- an English face holds no kana or kanji;
- the English rulebook is set in the Latin face, hyphenated and justified; the Japanese one in
  IPAex Gothic; every font embedded.
The glossary at the end of a rulebook is bilingual on purpose and is left out of the checks.
And for players only (issue 36): no page holds a tool, data or production word (pnp, solver, checker,
seed, a data file's name, "build with", a command-line option), the cover is the game's, and only the
colophon on a book's last page says how it was made.
"""
from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pdfplumber
import pytest
from pypdf import PdfReader

from generator import catalogue
from generator.context import BuildContext
from generator.incremental import build
from solver.game.folders import game_ids
from solver.game.loader import load_game

from pdf_fonts import fonts_of

ROOT = Path(__file__).resolve().parents[1]
# kana, kanji, and the marks only Japanese text uses (〃 「」 、 。 full-width forms)
KANA_KANJI = re.compile(r"[\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff01-\uffef]")
LATIN_WORD = re.compile(r"[A-Za-zÀ-ÿ]+")
PROGRAM_WORDS = {"pnp", "forge"}  # "pnp-forge" of the colophon on a book's last page
GLOSSARY = {"ja": "用語集", "en": "Glossary"}


@pytest.fixture(scope="module")
def out(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("purity")
    build(game_ids(), BuildContext(out_root=root, formats=("pdf",), preflight=False))
    return root


def _text(pdf: Path) -> str:
    pages = PdfReader(pdf).pages
    if "-tiles-" in pdf.name:
        # every tile page shows the same map (checked in map-<id>.pdf) under the same kind of
        # header: the first tile and the assembly page hold every string of the file
        pages = [pages[0], pages[len(pages) - 1]]
    return "\n".join(page.extract_text() or "" for page in pages)


def _printed(pdf: Path) -> str:
    """The text of a PDF; a rulebook's without its (bilingual) glossary."""
    text = _text(pdf)
    lang = "en" if "-en" in pdf.stem else "ja"
    if pdf.name.startswith("rulebook-"):
        cut = text.rfind(GLOSSARY[lang])  # the last one: the heading, not its contents entry
        if cut > 0:
            text = text[:cut]
    return text


def _faces(folder: Path, lang: str, source: str) -> list[Path]:
    """The PDFs in one language: `-<lang>` in the name, or no language mark for the source's."""
    out = []
    for pdf in sorted(folder.glob("*.pdf")):
        if pdf.name.startswith("booklet") or "+" in pdf.name:
            continue  # booklets are the rulebooks imposed; ja+en is two languages on purpose
        marked = re.search(r"-(ja|en|fr)(?:-|$)", pdf.stem)
        if (marked and marked.group(1) == lang) or (not marked and lang == source):
            out.append(pdf)
    return out


def _names(game) -> set[str]:
    """Latin words a Japanese face may hold (see the module doc)."""
    words: set[str] = set(PROGRAM_WORDS)
    clauses = game.folder / "rules" / "clauses.yaml"
    if clauses.is_file():
        words |= set(LATIN_WORD.findall(clauses.read_text(encoding="utf-8")))
    for who in game.meta.designer + game.meta.publisher:
        for name in who.values():
            words |= set(LATIN_WORD.findall(name))
    for gap in game.meta.gaps:
        words |= set(LATIN_WORD.findall(gap.id)) | {"gap"}
    for comp in game.components:
        for item in comp.items:
            for key, value in item.attrs.items():
                if re.search(r"-[a-z]{2}$", key) and key[-2:] != "ja" and isinstance(value, str):
                    words |= set(LATIN_WORD.findall(value))
    return words


@pytest.mark.parametrize("game_id", game_ids())
def test_each_language_has_every_output(out, game_id):
    game = load_game(game_id)
    folder = out / game_id
    assert game.meta.source_language == "ja"
    ja = {p.name for p in _faces(folder, "ja", "ja")}
    en = {p.name for p in _faces(folder, "en", "ja")}
    cards = sorted(n for n in ja if n.startswith(("cards-", "counters-")))
    assert cards, "no card or counter sheet in Japanese"
    for name in cards:
        assert name.replace("-ja.pdf", "-en.pdf") in en
    maps = sorted(n for n in ja if n.startswith("map-"))
    assert bool(maps) == ("map" in game.extras)
    for name in maps:  # map-<id>.pdf and map-<id>-tiles-a4.pdf, -en beside them
        stem = name.removesuffix(".pdf")
        english = f"{stem}-en.pdf" if not stem.endswith("-tiles-a4") else stem.replace("-tiles-a4", "-en-tiles-a4") + ".pdf"
        assert english in en, english
    assert {"calibration-a4-long.pdf", "rulebook-ja.pdf"} <= ja
    assert {"calibration-a4-long-en.pdf", "rulebook-en.pdf"} <= en
    for book in ("booklet-ja.pdf", "booklet-en.pdf", "booklet-ja+en.pdf", "rulebook-ja+en.pdf"):
        assert (folder / book).is_file(), book


@pytest.mark.parametrize("game_id", game_ids())
def test_english_faces_hold_no_kana_or_kanji(out, game_id):
    for pdf in _faces(out / game_id, "en", "ja"):
        found = sorted(set(KANA_KANJI.findall(_printed(pdf))))
        assert not found, f"{pdf.name}: {''.join(found)}"


@pytest.mark.parametrize("game_id", game_ids())
def test_japanese_faces_hold_no_latin_words_but_names(out, game_id):
    game = load_game(game_id)
    # and the names of the files a player holds, which the print guide cites (map-middle-earth.pdf)
    allowed = _names(game) | set(LATIN_WORD.findall(" ".join(f.name for f in (out / game_id).glob("*.pdf"))))
    for pdf in _faces(out / game_id, "ja", "ja"):
        words = {w for w in LATIN_WORD.findall(_printed(pdf)) if len(w) > 2 and w not in allowed}
        assert not words, f"{pdf.name}: {sorted(words)}"


def test_gem_cards_are_named_in_each_language(out):
    ja = _text(out / "dont-drop-the-ring" / "cards-gem-cards-ja.pdf")
    en = _text(out / "dont-drop-the-ring" / "cards-gem-cards-en.pdf")
    assert "グレースピネル" in ja and "Spinel" not in ja and "Amethyst" not in ja
    assert "Gray Spinel 7" in en and "GraySpinel" not in en


def _body_font(pdf: Path) -> str:
    """The font most characters of the book's first pages after the title are set in."""
    counts: Counter[str] = Counter()
    with pdfplumber.open(pdf) as doc:
        for page in doc.pages[2:6]:
            counts.update(ch["fontname"].split("+")[-1] for ch in page.chars if not ch["text"].isspace())
    return counts.most_common(1)[0][0]


@pytest.mark.parametrize("game_id", ["war-of-the-ring-campaign", "dont-drop-the-ring"])
def test_rulebook_faces(out, game_id):
    en, ja = out / game_id / "rulebook-en.pdf", out / game_id / "rulebook-ja.pdf"
    assert _body_font(en) == "SourceSerifPro-Regular"
    assert _body_font(ja) == "IPAexGothic"
    fonts = fonts_of(en)
    assert {"SourceSerifPro-Regular", "SourceSerifPro-Bold"} <= set(fonts)  # headings in bold
    assert all(fonts.values()), fonts  # every font embedded (no Helvetica left unembedded)
    assert all(fonts_of(ja).values())


def _lines(pdf: Path, pages: int = 8) -> list[tuple[int, list[dict]]]:
    """(page number, characters) of each text line of the first body pages, left to right."""
    out = []
    with pdfplumber.open(pdf) as doc:
        for page in doc.pages[2:2 + pages]:
            rows: dict[float, list[dict]] = {}
            for ch in page.chars:
                rows.setdefault(round(ch["bottom"], 1), []).append(ch)
            for _, chars in sorted(rows.items()):
                out.append((page.page_number, sorted(chars, key=lambda c: c["x0"])))
    return out


def _words(chars: list[dict]) -> list[str]:
    """The words of a line: split at space characters and at gaps wider than 0.15 em (a
    justified line is drawn word by word, without space glyphs)."""
    words: list[str] = []
    prev = None
    for c in chars:
        if c["text"].isspace():
            prev = None
            continue
        if prev is None or c["x0"] - prev["x1"] > 0.15 * c["size"]:
            words.append("")
        words[-1] += c["text"]
        prev = c
    return words


def test_english_body_is_hyphenated_at_syllables_and_justified_without_rivers(out):
    pdf = out / "war-of-the-ring-campaign" / "rulebook-en.pdf"
    po = (ROOT / "data" / "games" / "war-of-the-ring-campaign" / "rules" / "en.po").read_text(encoding="utf-8")
    lines = _lines(pdf)
    hyphenated = 0
    for (_, chars), (_, nxt) in zip(lines, lines[1:]):
        last, first = _words(chars), _words(nxt)
        if not last or not first or not re.fullmatch(r"[a-z]+-", last[-1]) or not re.match(r"[a-z]", first[0]):
            continue
        whole = last[-1][:-1] + re.match(r"[a-z]+", first[0]).group(0)
        # the broken word is a word of the translation, written whole there (not a compound)
        assert re.search(rf"\b{whole}\b", po, re.IGNORECASE), (last[-1], first[0])
        hyphenated += 1
    assert hyphenated >= 3  # the body breaks words at syllables (4 breaks since the book gained its rulings and objective)

    # justified: many lines of body text (the most common size) end exactly at the right edge of
    # the text block...
    size = Counter(round(c["size"], 2) for _, chars in lines for c in chars).most_common(1)[0][0]
    lines = [(p, chars) for p, chars in lines if all(round(c["size"], 2) == size for c in chars)]
    right = max(chars[-1]["x1"] for _, chars in lines)
    flush = [chars for _, chars in lines if abs(chars[-1]["x1"] - right) < 0.5]
    assert len(flush) > len(lines) * 0.3
    # ...and no word space is opened wider than half an em (a river runs through such gaps);
    # the gap after a clause number or a bullet is the hanging indent, not a word space
    body = [chars for chars in flush if "...." not in "".join(c["text"] for c in chars)]  # not the contents
    assert len(body) > 50
    for chars in body:
        ink = [c for c in chars if not c["text"].isspace()]
        first = _words(chars)[0]
        marker = re.fullmatch(r"[\d.]+|•|Note:|Example:", first)
        start = len(first) if marker else 0
        for a, b in zip(ink[start:], ink[start + 1:]):
            gap = b["x0"] - a["x1"]
            assert gap <= 0.5 * a["size"] + 0.05, ("".join(c["text"] for c in chars), gap)


def _data_ids(game_id: str) -> set[str]:
    """The game's kebab ids a reader must never see: components, items, the piles setup steps make
    (`combine ... into`), gaps. One-word ids (`bag`, `die`) are ordinary words and are left out."""
    game = load_game(game_id)
    ids = {c.id for c in game.components} | {i.id for c in game.components for i in c.items}
    ids |= {s.into for s in game.setup.steps if getattr(s, "into", None)} | {g.id for g in game.meta.gaps}
    return {i for i in ids if "-" in i}


@pytest.mark.parametrize("game_id", game_ids())
def test_rulebooks_and_booklets_print_names_not_ids(out, game_id):
    """The setup table names every row (Sauron's combined event-tile pile printed as `event-tile-bag`),
    and the glossary's notes cite no gap by id (Riddle's `barad-dur-spelling`)."""
    ids = _data_ids(game_id)
    books = sorted((out / game_id).glob("rulebook-*.pdf")) + sorted((out / game_id).glob("booklet-*.pdf"))
    assert books
    for pdf in books:
        text = "\n".join(page.extract_text() or "" for page in PdfReader(pdf).pages)
        assert not sorted(i for i in ids if i in text), pdf.name


def test_a_side_by_side_books_shared_lines_set_each_language_in_its_face(out):
    """The contents and the running title of a ja+en book hold both languages on one line
    ("1 ゲームの目的 / Object of the game"): read back with pdfplumber, every Latin letter on them
    is in the Latin face and every kana or kanji in IPAex (before, the whole line was IPAex, and
    Don’t printed with a full-width apostrophe)."""
    pdf = out / "dont-drop-the-ring" / "rulebook-ja+en.pdf"
    with pdfplumber.open(pdf) as doc:
        contents, body = doc.pages[1], doc.pages[3]
        footer = [c for c in body.chars if c["top"] > body.height * 0.9]
        shared = [c for c in contents.chars if not c["text"].isspace()] + footer
    latin = [c for c in shared if LATIN_WORD.fullmatch(c["text"]) or c["text"] == "’"]
    cjk = [c for c in shared if KANA_KANJI.match(c["text"])]
    assert len(latin) > 50 and len(cjk) > 50
    assert {c["fontname"].split("+")[-1] for c in latin} <= {"SourceSerifPro-Regular", "SourceSerifPro-Bold"}
    assert {c["fontname"].split("+")[-1] for c in cjk} == {"IPAexGothic"}
    assert "’" in "".join(c["text"] for c in footer)  # Don’t, in the Latin face


def test_the_glossary_sets_each_language_column_in_its_own_face(out):
    """The glossary of Riddle's Japanese rulebook (Japanese term, English term), from its heading to
    the next chapter's (the clarifications): read back with pdfplumber, the English terms are in the
    Latin face, the Japanese ones in IPAex."""
    with pdfplumber.open(out / "riddle-of-the-ring" / "rulebook-ja.pdf") as doc:
        page = next(p for p in reversed(doc.pages) if p.search("用語集"))
        top = page.search("用語集")[-1]["bottom"]
        after = [m["top"] for m in page.search("補足ルール一覧") if m["top"] > top]
        bottom = min(after) if after else page.height * 0.9
        body = [c for c in page.chars if top < c["top"] < bottom and not c["text"].isspace()]
    latin = [c for c in body if LATIN_WORD.fullmatch(c["text"])]
    cjk = [c for c in body if KANA_KANJI.match(c["text"])]
    assert len(latin) > 50 and len(cjk) > 20
    assert {c["fontname"].split("+")[-1] for c in latin} == {"SourceSerifPro-Regular"}
    assert {c["fontname"].split("+")[-1] for c in cjk} == {"IPAexGothic"}


# what a player with only the PDFs cannot use or need: the tool, its parts, the source files
PRODUCTION = re.compile(r"(?<![a-z])(pnp|solver|checker|seed|build with)(?![a-z])|--[a-z]|"
                        r"\b[\w-]+\.(yaml|csv|po|json)\b|ソルバー|シード|ビルド", re.I)


def _page_words(page) -> str:
    return " ".join(w["text"] for w in page.extract_words(x_tolerance=1))


def _squeezed(text: str) -> str:
    return re.sub(r"\s+", "", text)


def test_no_printed_page_carries_a_production_word(out):
    """For players only (issue 36): no tool, data or production word on any book, table, legend, card,
    counter, map or calibration page, read word by word with pdfplumber; the cover is the game's,
    and only the colophon on a book's last page says how it was made."""
    built = sorted(out.glob("*/*.pdf"))
    colophons = [_squeezed(catalogue.text("rulebook.colophon", lg)) for lg in catalogue.languages()]
    kinds = {f.name.split("-")[0] for f in built}
    assert {"rulebook", "booklet", "cards", "map", "calibration"} <= kinds, kinds
    found = []
    for f in built:
        with pdfplumber.open(f) as doc:
            for i, page in enumerate(doc.pages):
                words = _page_words(page)
                book = f.name.startswith(("rulebook-", "booklet-"))
                if book:
                    squeezed = _squeezed(words)
                    if i == 0 and f.name.startswith("rulebook-"):
                        assert not any(c in squeezed for c in colophons), f"{f.name}: the cover says how it was made"
                    last = i == len(doc.pages) - 1 if f.name.startswith("rulebook-") else True
                    if last:  # the colophon: on a booklet's sheets the back cover is on any sheet
                        for c in colophons:
                            words = words if c not in squeezed else _without(words, c)
                found += [f"{f.name} p{i + 1}: {m.group(0)!r} in …{words[max(0, m.start() - 40):m.end() + 40]}…"
                          for m in PRODUCTION.finditer(words)]
    assert found == [], "\n".join(found[:20])


def _without(words: str, colophon: str) -> str:
    """`words` minus the colophon sentence (matched with white space squeezed out)."""
    pattern = r"\s*".join(re.escape(ch) for ch in colophon)
    return re.sub(pattern, " ", words)


def test_each_book_ends_with_its_colophon(out):
    built = sorted(out.glob("*/*.pdf"))
    for f in (f for f in built if f.name.startswith("rulebook-")):
        with pdfplumber.open(f) as doc:
            last = _squeezed(_page_words(doc.pages[-1]))
        langs = f.stem.split("-", 1)[1].split("+")
        for lg in langs:
            assert _squeezed(catalogue.text("rulebook.colophon", lg)) in last, (f.name, lg)


@pytest.mark.parametrize("game_id", game_ids())
def test_each_language_has_a_one_page_print_guide_citing_files_the_build_wrote(out, game_id):
    """How to print (issue 36): print-guide-<lang>.pdf is one A4 page; every file it names is in
    the game's output; it says 100 % and, for a game with a map, both map files; the rulebook's last
    section is the same guide."""
    folder = out / game_id
    game = load_game(game_id)
    for lang in ("ja", "en"):
        guide = folder / f"print-guide-{lang}.pdf"
        reader = PdfReader(guide)
        assert len(reader.pages) == 1
        box = reader.pages[0].mediabox
        assert (round(float(box.width) * 25.4 / 72), round(float(box.height) * 25.4 / 72)) == (210, 297)
        with pdfplumber.open(guide) as doc:
            words = _page_words(doc.pages[0])
        cited = set(re.findall(r"[A-Za-z0-9+-]+\.pdf", words))
        assert cited and all((folder / name).is_file() for name in cited), sorted(cited)
        assert "100%" in words
        maps = {name for name in cited if name.startswith("map-")}
        assert len(maps) == (2 if "map" in game.extras else 0), maps
        with pdfplumber.open(folder / f"rulebook-{lang}.pdf") as doc:
            tail = _squeezed(" ".join(_page_words(p) for p in doc.pages[-2:]))
        assert all(name in tail for name in cited), (lang, sorted(cited))
