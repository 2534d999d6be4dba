"""`pnp serve`: an index of the build folder, served on localhost."""
from __future__ import annotations

import threading
import urllib.request

from generator.gallery import index_html
from generator.serve import make_server


def _fake_build(root):
    game = root / "some-game"
    game.mkdir(parents=True)
    (game / "rulebook-en.pdf").write_bytes(b"%PDF-1.4\n")
    (game / "cards-deck-en-p1.svg").write_text("<svg xmlns='http://www.w3.org/2000/svg'/>")
    (game / "manifest.json").write_text("{}")
    return game


def test_index_lists_files_and_previews_svgs(tmp_path):
    _fake_build(tmp_path)
    page = index_html(tmp_path)
    assert 'href="some-game/rulebook-en.pdf"' in page and 'href="some-game/manifest.json"' in page
    assert '<img src="some-game/cards-deck-en-p1.svg"' in page
    assert page.index("rulebook-en.pdf") < page.index("manifest.json")  # books first


def test_empty_folder_says_how_to_build(tmp_path):
    assert "pnp build --all" in index_html(tmp_path)


def test_server_serves_index_and_files_on_loopback(tmp_path):
    _fake_build(tmp_path)
    server = make_server(tmp_path, 0)
    host, port = server.server_address[:2]
    assert host == "127.0.0.1"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as r:
            assert b"some-game/rulebook-en.pdf" in r.read()
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/some-game/rulebook-en.pdf", timeout=5) as r:
            assert r.read().startswith(b"%PDF")
    finally:
        server.shutdown()
        server.server_close()
