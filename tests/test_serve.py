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


# --------------------------------------------------------------------------- issue 30: serve answers only itself

def _serving(out, **kw):
    server = make_server(out, 0, **kw)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def _get_as(port: int, path: str, host: str) -> tuple[int, bytes]:
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=15)
    try:
        conn.request("GET", path, headers={"Host": host})
        r = conn.getresponse()
        return r.status, r.read()
    finally:
        conn.close()


def test_a_foreign_host_is_refused_so_a_rebound_name_reads_nothing(tmp_path):
    _fake_build(tmp_path)
    server = _serving(tmp_path)
    port = server.server_address[1]
    try:
        for path in ("/", "/__pnp/state", "/some-game/manifest.json"):
            for host in (f"evil.example:{port}", f"localhost.evil.example:{port}", "localhost", f"localhost:{port + 1}",
                         f"127.0.0.1.nip.io:{port}", ""):
                status, body = _get_as(port, path, host)
                assert status == 421 and b"some-game" not in body, (path, host)
            for host in (f"localhost:{port}", f"127.0.0.1:{port}", f"LOCALHOST:{port}"):
                assert _get_as(port, path, host)[0] == 200, (path, host)
    finally:
        server.shutdown()
        server.server_close()


def test_hidden_files_are_neither_served_nor_listed(tmp_path):
    game = _fake_build(tmp_path)
    (tmp_path / ".pnp-build.lock").write_text("lock")
    (game / ".pnp-build.json").write_text('{"secret": 1}')
    (tmp_path / ".cards.x.part").mkdir()
    (tmp_path / ".cards.x.part" / "manifest.json").write_text('{"title": "half-written"}')
    server = _serving(tmp_path)
    port = server.server_address[1]
    try:
        for path in ("/.pnp-build.lock", "/some-game/.pnp-build.json", "/.cards.x.part/manifest.json",
                     "/some-game/%2epnp-build.json"):
            assert _get(port, path)[0] == 404, path
        for path in ("/", "/some-game/"):
            status, body = _get(port, path)
            assert status == 200 and b".pnp-build" not in body and b".part" not in body and b"half-written" not in body
        assert b"manifest.json" in _get(port, "/some-game/")[1]
    finally:
        server.shutdown()
        server.server_close()


def test_the_page_and_listings_follow_no_link_out_of_the_folder(tmp_path):
    out = tmp_path / "out"
    game = _fake_build(out)
    outside = tmp_path / "private"
    outside.mkdir()
    (outside / "tax-return-2025.pdf").write_bytes(b"%PDF-1.4\n")
    (outside / "manifest.json").write_text('{"title": "Private papers"}')
    (out / "linked").symlink_to(outside)                                  # a "game" that is another folder
    (game / "cards-leak-en-p1.svg").symlink_to(outside / "tax-return-2025.pdf")  # a file that is another file
    (out / "inner").symlink_to(game)                                      # a link that stays inside
    page = index_html(out)
    for leak in ("tax-return", "Private papers", 'id="linked"', "cards-leak"):
        assert leak not in page, leak
    assert 'id="inner"' in page
    server = _serving(out)
    port = server.server_address[1]
    try:
        for path in ("/", "/some-game/", "/inner/"):
            status, body = _get(port, path)
            assert status == 200 and b"tax-return" not in body and b"Private papers" not in body and b"leak" not in body
        assert _get(port, "/linked/tax-return-2025.pdf")[0] == 404
    finally:
        server.shutdown()
        server.server_close()


def test_a_half_sent_request_is_closed_and_threads_are_bounded(tmp_path):
    import socket

    _fake_build(tmp_path)
    assert make_server(tmp_path, 0).RequestHandlerClass.timeout <= 60  # the default closes within a minute
    server = _serving(tmp_path, read_timeout=1.0, max_threads=2)
    port = server.server_address[1]
    held = []
    try:
        for _ in range(5):  # more stalled connections than threads
            s = socket.create_connection(("127.0.0.1", port), timeout=20)
            s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0")
            held.append(s)
        serving = [t for t in threading.enumerate() if "process_request_thread" in t.name]
        assert len(serving) <= 2
        for s in held:  # each one is closed by the server, not left hanging
            assert s.recv(1024) == b""
        assert _get_as(port, "/", f"127.0.0.1:{port}")[0] == 200
    finally:
        for s in held:
            s.close()
        server.shutdown()
        server.server_close()


def _title_and_h1(page: str) -> tuple[str, str]:
    from html.parser import HTMLParser

    found: dict[str, str] = {}

    class Reader(HTMLParser):
        tag = ""

        def handle_starttag(self, tag, attrs):
            self.tag = tag

        def handle_data(self, data):
            if self.tag in ("title", "h1") and self.tag not in found:
                found[self.tag] = data

    Reader().feed(page)
    return found["title"], found["h1"]


def test_the_page_is_titled_by_the_game_it_shows(tmp_path):
    game = _fake_build(tmp_path)
    (game / "manifest.json").write_text('{"title": "Harbour <Run> & Co"}', encoding="utf-8")
    page = index_html(tmp_path, live=True)
    assert _title_and_h1(page) == ("Harbour <Run> & Co", "Harbour <Run> & Co")  # read back unescaped
    other = tmp_path / "other-game"
    other.mkdir()
    (other / "manifest.json").write_text("not json", encoding="utf-8")  # no title: the folder's name
    assert _title_and_h1(index_html(tmp_path))[0] == "other-game · Harbour <Run> & Co"  # in folder order


def test_an_empty_folder_page_is_titled_pnp_build(tmp_path):
    assert _title_and_h1(index_html(tmp_path)) == ("pnp build", "pnp build")
