"""The page `pnp serve` shows (and output/index.html) links the ink-saving prints: `pnp build --ink
saver` writes output/<game>/ink-saver/, which the page lists under its own heading, each link leading
to a PDF that exists. Read back with the standard library's HTML parser; the game is a newcomer's,
made with `pnp new` in a temp folder."""
from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote

from generator.cli import main
from generator.gallery import index_html


class Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []
        self.headings: list[str] = []
        self._in_h3 = False

    def handle_starttag(self, tag, attrs):
        self._in_h3 = self._in_h3 or tag == "h3"
        self.hrefs += [v for k, v in attrs if tag == "a" and k == "href" and v]

    def handle_endtag(self, tag):
        self._in_h3 = self._in_h3 and tag != "h3"

    def handle_data(self, data):
        if self._in_h3:
            self.headings.append(data)


def test_the_index_links_every_ink_saver_pdf(tmp_path):
    game = tmp_path / "games" / "harbour"
    out = tmp_path / "out"
    assert main(["new", str(game)]) == 0
    assert main(["build", str(game), "--out", str(out), "--only", "cards", "--ink", "saver", "--no-preflight"]) == 0
    pdfs = sorted(p.name for p in (out / "harbour" / "ink-saver").glob("*.pdf"))
    assert pdfs, "the ink-saver build wrote no PDF"
    page = Links()
    page.feed(index_html(out))
    ink_links = [unquote(h) for h in page.hrefs if "/ink-saver/" in h]
    assert sorted(Path(h).name for h in ink_links) == pdfs
    assert all((out / h).is_file() for h in ink_links)
    assert any("ink saver" in h for h in page.headings)
