"""With --layout packed, the manifest says where each component is printed in full: packed-<lang>.pdf
is in the `printed_in` of every component the packed print holds (the newcomer game's deck and its
boat pieces), not of the board it leaves on its own sheets, and every file named exists. Read back with
json from a build of a `pnp new` game in a temp folder."""
from __future__ import annotations

import json

from generator.cli import main


def test_the_packed_print_is_named_where_its_components_are_printed(tmp_path):
    game, out = tmp_path / "harbour", tmp_path / "out"
    assert main(["new", str(game)]) == 0
    assert main(["build", str(game), "--layout", "packed", "--out", str(out), "--no-preflight",
                 "--only", "manifest", "--only", "cards", "--only", "pieces", "--only", "packed", "--only", "maps"]) == 0
    built = out / "harbour"
    manifest = json.loads((built / "manifest.json").read_text(encoding="utf-8"))
    printed = {c["id"]: c.get("printed_in", []) for c in manifest["components"]}
    for packed in ("lantern-cards", "boats"):
        assert {"packed-en.pdf", "packed-ja.pdf"} <= set(printed[packed]), printed[packed]
    assert not any(f.startswith("packed-") for f in printed["harbour-board"])
    assert all((built / f).is_file() for files in printed.values() for f in files)
    listed = (built / "manifest-en.txt").read_text(encoding="utf-8")
    assert "packed-en.pdf" in listed and "packed-ja.pdf" not in listed
