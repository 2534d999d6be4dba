"""Bad input never replaces good output, and never ends in a traceback."""
from __future__ import annotations

import hashlib
import re

import pytest

from generator.cli import main
from generator.output import atomic_path, write_bytes

LINE = re.compile(r"^[^:]+(:\d+:\d+)?: .+; .+$")


def _digest(folder):
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_a_broken_file_leaves_the_previous_build_intact(game_copy, tmp_path, capsys):
    game = game_copy()
    out = tmp_path / "out"
    assert main(["build", str(game), "--out", str(out), "--only", "manifest", "--only", "cards"]) == 0
    before = _digest(out)
    assert any(k.endswith(".pdf") for k in before)
    setup = game / "setup.yaml"
    setup.write_text(setup.read_text(encoding="utf-8").replace("each: 6", "each: [6"), encoding="utf-8")
    capsys.readouterr()
    assert main(["build", str(game), "--out", str(out), "--only", "manifest", "--only", "cards"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err and all(LINE.match(e) for e in err) and "setup.yaml:" in err[0]
    assert _digest(out) == before


def test_a_missing_font_is_one_line(game_copy, tmp_path, capsys, monkeypatch):
    from generator import fonts

    monkeypatch.setenv("PNP_FONT", str(tmp_path / "no-such-font.ttf"))
    fonts.font_path.cache_clear() if hasattr(fonts.font_path, "cache_clear") else None
    fonts.register.cache_clear()
    fonts.covered_codepoints.cache_clear()
    try:
        code = main(["build", str(game_copy()), "--out", str(tmp_path / "out"), "--only", "cards"])
        err = capsys.readouterr().err.strip().splitlines()
        assert code == 2
        assert len(err) == 1 and "no-such-font.ttf" in err[0] and "PNP_FONT" in err[0]
    finally:
        monkeypatch.delenv("PNP_FONT")
        fonts.register.cache_clear()
        fonts.covered_codepoints.cache_clear()


def test_atomic_write_keeps_the_old_file_when_writing_fails(tmp_path):
    target = write_bytes(tmp_path / "a.pdf", b"good")
    with pytest.raises(RuntimeError):
        with atomic_path(target) as tmp:
            tmp.write_bytes(b"half")
            raise RuntimeError("renderer failed")
    assert target.read_bytes() == b"good"
    assert [p.name for p in tmp_path.iterdir()] == ["a.pdf"]  # no temporary file left behind
