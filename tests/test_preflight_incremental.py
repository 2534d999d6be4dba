"""Preflight is incremental like the build (issue 26): a PDF whose bytes an earlier build checked is
not read again, in this process or another; its findings come back from the build record, the
same as when it was read. Only a file that changed is read.

The game is a newcomer's (`pnp new`, its card value printed on a plate of its own colour, so that
there are findings to carry over). Each build starts with this process's own memory of checked
files emptied, as a new `pnp build` process starts; the count of files read is the build's report
(`BuildReport.preflighted`), and the findings are the build's warnings.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from generator import preflight as preflight_module
from generator.context import BuildContext
from generator.incremental import RECORD, build
from generator.runners import serial

from test_preflight_reader import newcomer_game

STAGES = {"cards"}


def fresh_build(game: Path, out: Path, monkeypatch, **kw):
    """A build as a new process runs it (nothing checked in memory): its report and its preflight warnings."""
    monkeypatch.setattr(preflight_module, "_CHECKED", {})
    ctx = BuildContext(out_root=out, lang="en")
    report = build([game], ctx, STAGES, runner=serial, **kw)
    return report, [w for w in ctx.warnings if w.startswith("preflight")]


def pdfs(out: Path) -> list[str]:
    return sorted(p.relative_to(out).as_posix() for p in out.rglob("*.pdf"))


@pytest.fixture
def game(tmp_path) -> Path:
    return newcomer_game(tmp_path)


def test_a_forced_rebuild_reads_no_pdf_and_reports_the_same_findings(game, tmp_path, monkeypatch):
    out = tmp_path / "out"
    first, found = fresh_build(game, out, monkeypatch)
    assert sorted(first.preflighted) == pdfs(out) and len(pdfs(out)) == 3  # the deck, its tuck box, the calibration page
    assert sum("text-unreadable" in w for w in found) == 4, found  # the plate's value in its own colour
    # every unit runs again and writes the same bytes: preflight knows them all from the record
    again, found_again = fresh_build(game, out, monkeypatch, force=True)
    assert {u.key for u in again.built} == {u.key for u in first.built} and again.preflighted == []
    assert found_again == found
    # nothing changed, nothing forced: no unit runs, and the findings are the record's
    idle, found_idle = fresh_build(game, out, monkeypatch)
    assert idle.built == [] and idle.preflighted == [] and found_idle == found


def test_only_the_changed_pdf_is_read_again(game, tmp_path, monkeypatch):
    out = tmp_path / "out"
    _, found = fresh_build(game, out, monkeypatch)
    cards = game / "cards.csv"
    cards.write_text(cards.read_text(encoding="utf-8").replace("on a red lantern.", "on a red lamp."), encoding="utf-8")
    edited, found_edited = fresh_build(game, out, monkeypatch)
    (deck,) = [p for p in pdfs(out) if "/cards-" in p]
    assert edited.preflighted == [deck]  # the calibration page came back byte for byte the same
    assert found_edited == found  # the edit is in readable text: the same faults, found again


def test_kept_findings_of_another_reader_or_another_file_are_not_used(game, tmp_path, monkeypatch):
    out = tmp_path / "out"
    _, found = fresh_build(game, out, monkeypatch)
    # a record whose findings were made by another version of the reader: every file is read again
    monkeypatch.setattr(preflight_module, "reader_digest", lambda: "another reader")
    again, found_again = fresh_build(game, out, monkeypatch, force=True)
    assert sorted(again.preflighted) == pdfs(out) and found_again == found
    # a record edited by hand into nonsense is not trusted either
    record = out / game.name / RECORD
    data = json.loads(record.read_text(encoding="utf-8"))
    for entry in data["units"].values():
        entry["preflight"] = {k: [["error", 3]] for k in entry["preflight"]}
    record.write_text(json.dumps(data), encoding="utf-8")
    third, found_third = fresh_build(game, out, monkeypatch, force=True)
    assert sorted(third.preflighted) == pdfs(out) and found_third == found


def test_pnp_preflight_after_a_build_reads_nothing_and_says_the_same(game, tmp_path, monkeypatch, capsys):
    from generator.cli import main

    out = tmp_path / "out"
    fresh_build(game, out, monkeypatch)
    read: list[str] = []
    real = preflight_module.preflight_pdf
    monkeypatch.setattr(preflight_module, "preflight_pdf", lambda path, name, *a: read.append(name) or real(path, name, *a))

    def pnp_preflight(*extra: str) -> list[str]:
        monkeypatch.setattr(preflight_module, "_CHECKED", {})
        capsys.readouterr()
        assert main(["preflight", str(game), "--out", str(out), *extra]) == 1
        return capsys.readouterr().out.splitlines()

    kept = pnp_preflight()
    assert read == [] and sum("text-unreadable" in ln for ln in kept) == 4
    # another safe zone is another check: every PDF is read, and the contrast errors are the same
    other = pnp_preflight("--safe", "2")
    assert sorted(read) == pdfs(out)
    assert [ln for ln in other if "text-unreadable" in ln] == [ln for ln in kept if "text-unreadable" in ln]
    # with the record gone, the files are read again and say what the record said
    (out / game.name / RECORD).unlink()
    read.clear()
    assert pnp_preflight() == kept and sorted(read) == pdfs(out)


def test_the_same_bytes_under_another_name_are_read_once(tmp_path, monkeypatch):
    """Every game's calibration page is the same file: read once in a process, its findings told
    under each file's own path."""
    from generator.preflightmemo import Memo

    monkeypatch.setattr(preflight_module, "_CHECKED", {})
    game = newcomer_game(tmp_path)
    out = tmp_path / "out"
    fresh_build(game, out, monkeypatch)
    (deck,) = [p for p in out.rglob("cards-*.pdf")]
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    for folder in ("a", "b"):
        (tmp_path / folder / deck.name).write_bytes(deck.read_bytes())
    monkeypatch.setattr(preflight_module, "_CHECKED", {})
    memo = Memo()
    found = preflight_module.preflight([tmp_path / "a" / deck.name, tmp_path / "b" / deck.name], tmp_path, memo=memo)
    assert memo.read == [f"a/{deck.name}"] and len(memo.seen) == 2
    by_path = {path: [(f.level, f.page, f.code, f.message) for f in found if f.path == path]
               for path in (f"a/{deck.name}", f"b/{deck.name}")}
    assert by_path[f"a/{deck.name}"] and by_path[f"a/{deck.name}"] == by_path[f"b/{deck.name}"]
    assert {f.path for f in found} == set(by_path)
