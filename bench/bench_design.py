"""Time `pnp design` (solver/counts/design.py) and print the figures (the aim: under 1 s each).

    python3 bench/bench_design.py [--runs 3]

Cases, each a game folder written to a temp folder (loading is timed apart from solving):
  roles-conflict   a role pile for 3-10 players, one card dealt each: P(a saboteur dealt) >= 9/10 and
                   P(saboteurs at least half the table) <= 1/20, which conflict (at 3 and 4 players)
  roles-design     the same pile with the first target and a soft share of 1/4: the least box
  free-conflict    the issue's case: the pile's subset at each count is free (`each: free` removals,
                   players + 1 cards in play), the same two targets: they conflict at 3 and 4 players
  free-design      the same with the second target from 5 players on: one box, each count's subset
  sabotage-example saboteur-the-lost-mines' own targets.yaml (dwarf cards reopened, 3-9 players)
  deck-20-kinds    4 suits x 5 ranks, each suit 8-12 cards, each rank 6-10, at most 52 in all
Prints the best solve time of each and what it answered.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


FREE = [{"use": "deck"}, {"remove": {"component": "deck", "where": {"role": "saboteur"}, "each": "free"}},
        {"remove": {"component": "deck", "where": {"role": "loyal"}, "each": "free"}}]
ONE_LEFT = [{"id": "one-card-left", "kind": "exactly", "of": {"component": "deck", "zone": "in_play"},
             "value": "players + 1"}]


def write_game(folder: Path, players: tuple[int, int], items: list[dict], targets: list[dict],
               free: bool = False) -> Path:
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text(yaml.safe_dump({"id": folder.name, "title": {"en": folder.name},
                                                      "players": {"min": players[0], "max": players[1]},
                                                      "source_language": "en"}))
    comp = {"id": "deck", "kind": "deck", "name": {"en": "Deck"}, "size": "poker", "items": items}
    (folder / "components.yaml").write_text(yaml.safe_dump({"components": [comp]}, sort_keys=False))
    steps = (FREE if free else [{"use": "deck"}]) + [{"shuffle": "deck"}, {"deal": "deck", "each": 1, "hand": False},
                                                     {"return_rest": "deck"}]
    setup = {"steps": steps, "constraints": ONE_LEFT} if free else {"steps": steps}
    (folder / "setup.yaml").write_text(yaml.safe_dump(setup, sort_keys=False))
    (folder / "targets.yaml").write_text(yaml.safe_dump({"targets": targets}, sort_keys=False))
    return folder


def role_items() -> list[dict]:
    return [{"id": r, "name": {"en": r}, "count": None, "attrs": {"role": r}} for r in ("saboteur", "loyal")]


def cases(tmp: Path) -> list[tuple[str, str]]:
    seen = {"id": "saboteur-dealt", "odds": {"deal": "deck", "where": {"role": "saboteur"}, "dealt_at_least": 1,
                                            "probability_at_least": "9/10"}}
    half = {"id": "saboteurs-not-half", "odds": {"deal": "deck", "where": {"role": "saboteur"},
                                                 "dealt_at_least": "(players + 1) // 2", "probability_at_most": "1/20"}}
    share = {"id": "a-quarter", "share": {"component": "deck", "where": {"role": "saboteur"}, "near": "1/4"}}
    suits = [{"id": f"{s}-{r}", "name": {"en": f"{s} {r}"}, "count": None, "attrs": {"suit": s, "rank": r}}
             for s in ("cups", "coins", "swords", "staves") for r in range(1, 6)]
    deck = [{"id": "suits", "range": {"component": "deck", "per": "suit", "min": 8, "max": 12}},
            {"id": "ranks", "range": {"component": "deck", "per": "rank", "min": 6, "max": 10}},
            {"id": "size", "total": {"component": "deck", "max": 52}}]
    return [("roles-conflict", str(write_game(tmp / "roles-conflict", (3, 10), role_items(), [seen, half]))),
            ("roles-design", str(write_game(tmp / "roles-design", (3, 10), role_items(), [seen, share]))),
            ("free-conflict", str(write_game(tmp / "free-conflict", (3, 10), role_items(), [seen, half], True))),
            ("free-design", str(write_game(tmp / "free-design", (3, 10), role_items(),
                                           [seen, {**half, "when": "players >= 5"}], True))),
            ("sabotage-example", "saboteur-the-lost-mines"),
            ("deck-20-kinds", str(write_game(tmp / "deck-20-kinds", (2, 4), suits, deck)))]


def answer(result) -> str:
    if result.conflict:
        return f"conflict: {' and '.join(result.conflict)} at {', '.join(result.conflict_players) or 'the box'}"
    return f"{sum(result.counts.values())} copies: " + ", ".join(f"{k[1]} {n}" for k, n in list(result.counts.items())[:6]) \
        + (" ..." if len(result.counts) > 6 else "")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    from solver.counts.design import design
    from solver.game.loader import load_game

    with tempfile.TemporaryDirectory() as tmp:
        for name, gid in cases(Path(tmp)):
            start = time.perf_counter()
            game = load_game(gid)
            loaded = time.perf_counter() - start
            best, result = float("inf"), None
            for _ in range(args.runs):
                start = time.perf_counter()
                result = design(game)
                best = min(best, time.perf_counter() - start)
            print(f"{name:<17} solve {best * 1000:7.0f} ms   load {loaded * 1000:5.0f} ms   {answer(result)}")


if __name__ == "__main__":
    main()
