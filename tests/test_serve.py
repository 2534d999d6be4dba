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


def _get(port: int, path: str) -> tuple[int, bytes]:
    """A raw GET (http.client sends the path as written: no client-side normalising of '..')."""
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        conn.request("GET", path)
        r = conn.getresponse()
        return r.status, r.read()
    finally:
        conn.close()


def test_server_answers_only_inside_the_output_folder(tmp_path):
    out = tmp_path / "out"
    _fake_build(out)
    secret = tmp_path / "secret.txt"
    secret.write_text("not for the browser")
    (out / "some-game" / "link").symlink_to(tmp_path)  # a symlink that leads out
    (out / "inner").symlink_to(out / "some-game")  # one that stays inside
    server = make_server(out, 0)
    port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        assert _get(port, "/some-game/manifest.json") == (200, b"{}")
        assert _get(port, "/inner/manifest.json") == (200, b"{}")
        for path in ("/../secret.txt", "/some-game/../../secret.txt", "/%2e%2e/secret.txt", "/%2E%2E%2Fsecret.txt",
                     "/some-game/%2e%2e/%2e%2e/secret.txt", "//" + str(secret).lstrip("/"), str(secret),
                     "/some-game/link/secret.txt", "/some-game/..%5c..%5csecret.txt", "/a%00b"):
            status, body = _get(port, path)
            assert status == 404 and b"not for the browser" not in body, path
    finally:
        server.shutdown()
        server.server_close()


def test_page_escapes_names_and_shows_errors_and_live_script(tmp_path):
    game = tmp_path / "<b>game&"
    game.mkdir()
    (game / 'cards-<i>x"-en-p1.svg').write_text("<svg xmlns='http://www.w3.org/2000/svg'/>")
    (game / "manifest.json").write_text('{"title": "<script>alert(1)</script>", "components": []}')
    page = index_html(tmp_path, errors=["data/x.yaml:3:5: unknown key '<x>'; remove it"], live=True)
    assert "<b>game&" not in page and "&lt;b&gt;game&amp;" in page
    assert "<script>alert(1)</script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert 'cards-<i>x"' not in page and "cards-%3Ci%3Ex%22-en-p1.svg" in page
    assert 'id="errors"' in page and "data/x.yaml:3:5: unknown key &#x27;&lt;x&gt;&#x27;; remove it" in page
    assert "/__pnp/state" in page
    assert "/__pnp/state" not in index_html(tmp_path)  # the file pnp build writes has no live script
