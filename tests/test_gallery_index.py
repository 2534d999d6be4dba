"""output/index.html is written only when its text changes (a no-op rebuild leaves the file, its
inode and its time as they were), and rewritten whenever what it shows changes; `listed` sorts a
folder's entries into files and folders as `Path.is_file`/`is_dir` do, links followed."""
from __future__ import annotations

import os

from generator.gallery import index_html, listed, write_index


def _game(root):
    game = root / "some-game"
    (game / "png" / "deck").mkdir(parents=True)
    (game / "rulebook-en.pdf").write_bytes(b"%PDF-1.4\n")
    (game / "cards-deck-en-p1.svg").write_text("<svg xmlns='http://www.w3.org/2000/svg'/>")
    (game / "png" / "deck" / "a.png").write_bytes(b"\x89PNG")
    return game


def test_an_unchanged_index_is_left_in_place(tmp_path):
    _game(tmp_path)
    index = write_index(tmp_path)
    before = os.stat(index)
    os.utime(index, ns=(before.st_atime_ns, before.st_mtime_ns - 10**9))  # a rewrite would move the time on
    old = os.stat(index)
    assert write_index(tmp_path) == index
    now = os.stat(index)
    assert (now.st_ino, now.st_mtime_ns) == (old.st_ino, old.st_mtime_ns)


def test_the_index_is_rewritten_when_what_it_shows_changes(tmp_path):
    game = _game(tmp_path)
    index = write_index(tmp_path)
    (game / "booklet-en.pdf").write_bytes(b"%PDF-1.4\n")
    write_index(tmp_path)
    assert "booklet-en.pdf" in index.read_text(encoding="utf-8")
    (game / "png" / "deck" / "b.png").write_bytes(b"\x89PNG")
    write_index(tmp_path)
    assert "png/deck/b.png" in index.read_text(encoding="utf-8")
    index.write_text("damaged", encoding="utf-8")
    write_index(tmp_path)
    assert index.read_text(encoding="utf-8") == index_html(tmp_path)


def test_listed_kinds_follow_links_and_skip_broken_ones(tmp_path):
    game = _game(tmp_path)
    (game / "link-to-pdf.pdf").symlink_to(game / "rulebook-en.pdf")
    (game / "link-to-png").symlink_to(game / "png")
    (game / "broken.pdf").symlink_to(game / "nowhere.pdf")
    (game / ".hidden.pdf").write_bytes(b"")
    files = [p.name for p in listed(tmp_path, game, "file")]
    dirs = [p.name for p in listed(tmp_path, game, "dir")]
    assert files == ["cards-deck-en-p1.svg", "link-to-pdf.pdf", "rulebook-en.pdf"]
    assert dirs == ["link-to-png", "png"]
    assert [p.name for p in listed(tmp_path, game)] == sorted(files + dirs + ["broken.pdf"])
