"""Incremental builds: unchanged units are skipped, an edit rebuilds exactly what reads it, and the
output is byte for byte what a clean build writes (serial, process pool, or rebuilt in pieces).

The oracle is the file system: which files changed (bytes, inode and mtime), compared with a
fresh build of the same data into an empty folder.
"""
# Builds here skip preflight (preflight=False): it only adds warnings, never bytes, and is tested
# in tests/test_preflight.py; it would double each build's time.

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from generator.context import BuildContext
from generator.incremental import RECORD, build
from generator.runners import pool, serial

# the units of the first example game minus its rulebooks (which run the checker: slow, and
# covered by the byte comparison of the full build in test_parallel_and_force)
STAGES = {"manifest", "cards", "maps"}


def snapshot(root: Path) -> dict[str, tuple[bytes, int, int]]:
    """Every output file: bytes, inode and mtime (the build record itself left out)."""
    out = {}
    for p in sorted(root.rglob("*")):
        if p.is_file() and p.name != RECORD:
            st = p.stat()
            out[p.relative_to(root).as_posix()] = (p.read_bytes(), st.st_ino, st.st_mtime_ns)
    return out


def contents(snap: dict[str, tuple[bytes, int, int]]) -> dict[str, bytes]:
    return {k: v[0] for k, v in snap.items()}


def changed_files(before: dict, after: dict) -> set[str]:
    """Files written anew (another inode or mtime), or new."""
    return {k for k in after if after[k][1:] != before.get(k, (None, None, None))[1:]}


@pytest.fixture
def game(game_copy) -> Path:
    return game_copy("dont-drop-the-ring")


def test_noop_then_one_card_edit_rebuilds_that_deck_only(game, tmp_path):
    out = tmp_path / "out"
    first = build([game], BuildContext(preflight=False, out_root=out), STAGES, runner=serial)
    keys = {u.key for u in first.built}
    assert {"manifest:*:ja", "cards:gem-cards:ja", "cards:pedestal-cards:ja", "maps:*:ja"} <= keys
    assert not first.skipped
    before = snapshot(out)
    assert any(k.startswith("dont-drop-the-ring/cards-pedestal-cards-ja") for k in before)

    again = build([game], BuildContext(preflight=False, out_root=out), STAGES, runner=serial)
    assert again.built == [] and again.written == []
    assert again.loaded == []  # nothing changed: the game is not even loaded
    assert {u.key for u in again.skipped} == keys
    assert snapshot(out) == before

    # the text of one card (its layout does not print it): only its deck is redrawn
    comps = game / "components.yaml"
    text = comps.read_text(encoding="utf-8")
    assert "【Just】" in text
    comps.write_text(text.replace("【Just】", "【Exactly】"), encoding="utf-8")
    edited = build([game], BuildContext(preflight=False, out_root=out), STAGES, runner=serial)
    assert [u.key for u in edited.built] == ["cards:pedestal-cards:ja"]
    after = snapshot(out)
    # the deck's Japanese sheets and card images (png/<deck>/ is the source language's), and the
    # calibration page every card unit writes; not the English deck, which shows no Japanese text
    deck = {k for k in after if "pedestal-cards-ja" in k or "/png/pedestal-cards/" in k}
    assert any("pedestal-cards-en" in k for k in after)
    assert deck and changed_files(before, after) == deck | {"dont-drop-the-ring/calibration-a4-long.pdf"}

    # the name of that card, which its face and the manifest print: those two, nothing else
    before = after
    text = comps.read_text(encoding="utf-8")
    assert "name: {ja: 台座, en: Pedestal, fr: Socle}" in text
    comps.write_text(text.replace("name: {ja: 台座, en: Pedestal, fr: Socle}", "name: {ja: 台座だ, en: Pedestal, fr: Socle}"),
                     encoding="utf-8")
    edited = build([game], BuildContext(preflight=False, out_root=out), STAGES, runner=serial)
    assert sorted(u.key for u in edited.built) == ["cards:pedestal-cards:ja", "manifest:*:ja"]
    after = snapshot(out)
    assert changed_files(before, after) == deck | {"dont-drop-the-ring/calibration-a4-long.pdf",
                                                   "dont-drop-the-ring/manifest.json",
                                                   "dont-drop-the-ring/manifest-ja.txt"}
    assert "台座だ" in (out / "dont-drop-the-ring" / "manifest-ja.txt").read_text(encoding="utf-8")
    assert contents(after) != contents(before)

    clean = tmp_path / "clean"
    build([game], BuildContext(preflight=False, out_root=clean), STAGES, runner=serial)
    assert contents(snapshot(clean)) == contents(after)


def test_deleted_output_and_option_change_rebuild(game, tmp_path):
    out = tmp_path / "out"
    first = build([game], BuildContext(preflight=False, out_root=out), {"manifest"}, runner=serial)
    assert [u.key for u in first.built] == ["manifest:*:ja", "manifest:*:en", "manifest:*:fr"]  # every complete language
    (out / "dont-drop-the-ring" / "manifest-en.txt").unlink()
    again = build([game], BuildContext(preflight=False, out_root=out), {"manifest"}, runner=serial)
    assert [u.key for u in again.built] == ["manifest:*:en"]
    assert (out / "dont-drop-the-ring" / "manifest-en.txt").is_file()
    narrowed = build([game], BuildContext(preflight=False, out_root=out, lang="en"), {"manifest"}, runner=serial)
    assert narrowed.built == [] and [u.key for u in narrowed.skipped] == ["manifest:*:en"]
    other = build([game], BuildContext(preflight=False, out_root=out, paper="letter"), {"manifest"}, runner=serial)
    assert [u.key for u in other.built] == ["manifest:*:ja", "manifest:*:en", "manifest:*:fr"]


def test_removed_deck_removes_its_files(game, tmp_path):
    out = tmp_path / "out"
    build([game], BuildContext(preflight=False, out_root=out), {"cards"}, runner=serial)
    gone = sorted(p.name for p in (out / "dont-drop-the-ring").glob("cards-start-player-card-*"))
    assert gone
    layouts = game / "layouts.yaml"
    text = layouts.read_text(encoding="utf-8")
    line = "start-player-card: {front: start-card, back: ddr-back}"
    assert line in text
    layouts.write_text(text.replace(line, line[:-1] + ", print_as: none}"), encoding="utf-8")
    report = build([game], BuildContext(preflight=False, out_root=out), {"cards"}, runner=serial)
    assert "cards:start-player-card:ja" not in {u.key for u in report.built}  # (layouts.yaml: every deck redrawn)
    assert {p.name for p in report.removed} >= set(gone)
    assert not list((out / "dont-drop-the-ring").glob("cards-start-player-card-*"))
    assert not (out / "dont-drop-the-ring" / "png" / "start-player-card").exists() or not any(
        (out / "dont-drop-the-ring" / "png" / "start-player-card").iterdir())


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="a process pool needs two cores to mean anything")
def test_parallel_and_force(game, tmp_path):
    """The whole game (rulebooks included) from a pool of two processes, then rebuilt with
    --force by one: the same bytes, every unit run again."""
    a, b = tmp_path / "a", tmp_path / "b"
    first = build([game], BuildContext(preflight=False, out_root=a), runner=pool(2))
    assert "rulebooks:*:ja" in {u.key for u in first.built}
    build([game], BuildContext(preflight=False, out_root=b), runner=serial)
    assert contents(snapshot(a)) == contents(snapshot(b))
    forced = build([game], BuildContext(preflight=False, out_root=b), force=True, runner=serial)
    assert {u.key for u in forced.built} == {u.key for u in first.built} and not forced.skipped
    assert contents(snapshot(a)) == contents(snapshot(b))


def test_output_inside_the_game_folder_is_not_an_input(game):
    """`cd mygame && pnp build .`: the build's own files must not count as a change of the game."""
    out = game / "output"
    build([game], BuildContext(preflight=False, out_root=out), {"manifest"}, runner=serial)
    again = build([game], BuildContext(preflight=False, out_root=out), {"manifest"}, runner=serial)
    assert again.loaded == [] and again.built == []


def test_a_game_in_a_folder_named_as_another_games_id_builds_under_its_own(game_copy, tmp_path):
    """A no-op looks for a game's record under its folder's name before reading game.yaml: a record
    found there counts only when its inputs are this folder's, so a game whose id is not its folder's
    name (here the folder of another game that is built and up to date) is built under its own id,
    and its no-op is one too."""
    first = game_copy()
    second = tmp_path / "elsewhere" / first.name
    second.parent.mkdir()
    shutil.copytree(first, second)
    meta = second / "game.yaml"
    meta.write_text(meta.read_text(encoding="utf-8").replace("id: dont-drop-the-ring", "id: ring-two", 1),
                    encoding="utf-8")
    out = tmp_path / "out"
    ctx = lambda: BuildContext(preflight=False, out_root=out)  # noqa: E731
    build([first], ctx(), {"manifest"}, runner=serial)
    other = build([second], ctx(), {"manifest"}, runner=serial)
    assert other.loaded == ["ring-two"] and {u.game for u in other.built} == {"ring-two"}
    assert (out / "ring-two" / "manifest.json").is_file()
    for folder in (second, first):
        again = build([folder], ctx(), {"manifest"}, runner=serial)
        assert again.loaded == [] and again.built == [] and again.written == []
    meta.write_text(meta.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    edited = build([second], ctx(), {"manifest"}, runner=serial)
    assert edited.loaded == ["ring-two"]
    assert build([first], ctx(), {"manifest"}, runner=serial).loaded == []


def test_a_drawing_library_of_another_version_changes_the_environment_digest(monkeypatch):
    """Every unit's fingerprint and a no-op's shortcut hash the drawing libraries as installed: a
    reportlab of another version (its installed metadata says so) must rebuild everything."""
    from importlib import metadata

    from generator import fingerprints

    real = metadata.distribution

    class Installed:
        def __init__(self, version: str) -> None:
            self.text = f"Metadata-Version: 2.1\nName: reportlab\nVersion: {version}\n"

        def read_text(self, name: str) -> str | None:
            return self.text if name == "METADATA" else None

    def digest_with(version: str) -> str:
        monkeypatch.setattr(metadata, "distribution",
                            lambda name: Installed(version) if name == "reportlab" else real(name))
        fingerprints.environment_digest.cache_clear()
        return fingerprints.environment_digest()

    try:
        assert digest_with("4.5.1") == digest_with("4.5.1") != digest_with("4.5.2")
    finally:
        monkeypatch.undo()
        fingerprints.environment_digest.cache_clear()


def test_the_same_release_found_by_other_metadata_keeps_the_environment_digest(monkeypatch):
    """The project's metadata found as a checkout's stray egg-info (PKG-INFO, other headers) or as
    the venv's METADATA, of the same version: the same digest, so that `pnp build` and
    `python -m generator.cli build` run in that checkout do not rebuild each other's output."""
    from importlib import metadata

    from generator import fingerprints

    real = metadata.distribution

    class Found:
        def __init__(self, name: str, text: str) -> None:
            self.name, self.text = name, text

        def read_text(self, name: str) -> str | None:
            return self.text if name == self.name else None

    venv = Found("METADATA", "Metadata-Version: 2.4\nName: pnp-forge\nVersion: 0.9.0\nRequires-Dist: reportlab\n")
    stray = Found("PKG-INFO", "Metadata-Version: 2.1\nName: pnp_forge\nVersion: 0.9.0\nSummary: x\n")
    newer = Found("METADATA", "Metadata-Version: 2.4\nName: pnp-forge\nVersion: 0.9.1\nRequires-Dist: reportlab\n")

    def digest_with(found: Found) -> str:
        monkeypatch.setattr(metadata, "distribution", lambda name: found if name == "pnp-forge" else real(name))
        fingerprints.environment_digest.cache_clear()
        return fingerprints.environment_digest()

    try:
        assert digest_with(venv) == digest_with(stray) != digest_with(newer)
    finally:
        monkeypatch.undo()
        fingerprints.environment_digest.cache_clear()
