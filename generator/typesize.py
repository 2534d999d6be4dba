"""The smallest type on a piece, read back from the PDF: the `type-size` check of preflight.

Type on a card, counter or tile under 6 pt is hard to read at arm's length on a table (and under
a print shop's usual minimum for small type), so preflight calls it an error. It reads each
character's size from the file (generator/pagetext.py) and the pieces from the sheet's crop marks,
and names the file, the page, the piece (its place on the sheet and its largest words, which are
its name) and the text set too small. A game may lower the minimum with a reason in game.yaml
(`min_type: {pt: 5, reason: ...}`); text outside any piece (a rulebook, a map) is not judged here.

    small_type(page_no, chars, trims, min_pt) -> [(page_no, message)]

preflight.py turns each into an error finding. The faces (generator/cards/face.py) set no text
under `min_type_of(game.meta)` in the first place: this check is the file's word on it.
"""
from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING, Sequence

if TYPE_CHECKING:  # pdfread (numpy, pdfium) is imported where it is used: faces import this module
    from solver.game.meta import GameMeta

    from .pagetext import Char, Rect

MIN_TYPE_PT = 6.0
SLACK_PT = 0.05  # pdfium reads a size set at 6 pt as 5.99..6.01


def min_type_of(meta: GameMeta | None) -> float:
    """A game's minimum: game.yaml's `min_type` when it lowers it, else 6 pt."""
    lowered = meta.min_type if meta is not None else None
    return lowered.pt if lowered is not None else MIN_TYPE_PT


def small_type(page_no: int, chars: Sequence[Char], trims: Sequence[Rect], min_pt: float = MIN_TYPE_PT) -> list[tuple[int, str]]:
    """One message per piece of the page that holds text under `min_pt`: where the piece is, its
    name, and each run of text set too small with its size."""
    from .pagetext import text_runs

    on_piece: dict[int, list[Char]] = defaultdict(list)
    for c in chars:
        cx, cy = (c.box[0] + c.box[2]) / 2, (c.box[1] + c.box[3]) / 2
        for i, (x0, y0, x1, y1) in enumerate(trims):
            if x0 <= cx <= x1 and y0 <= cy <= y1:
                on_piece[i].append(c)
                break
    out: list[tuple[int, str]] = []
    for i in sorted(on_piece):
        runs = text_runs(on_piece[i])
        small = [r for r in runs if r.size_pt < min_pt - SLACK_PT]
        if not small:
            continue
        name = _words(max(runs, key=lambda r: (r.size_pt, len(r.text))))
        x0, y0 = trims[i][0], trims[i][1]
        texts = "; ".join(f"{_words(r)!r} at {r.size_pt:.1f} pt" for r in _distinct(small)[:4])
        out.append((page_no, f"piece {i + 1} (at {x0:.0f}, {y0:.0f} mm, {name!r}): {texts}, under the {min_pt:g} pt "
                             f"minimum; give the field a short name (short_name in components.yaml), a second line "
                             f"or a larger box in layouts.yaml, or lower `min_type` in game.yaml with a reason"))
    return out


def _distinct(runs: list) -> list:
    """The runs with distinct texts, smallest first."""
    seen: dict[str, object] = {}
    for r in sorted(runs, key=lambda r: r.size_pt):
        seen.setdefault(r.text, r)
    return list(seen.values())


def _words(run) -> str:
    """A run's text with the spaces the file leaves out put back where the gap between two
    characters is wider than a fifth of an em."""
    em = run.size_pt * 25.4 / 72
    out = run.chars[0].text
    for a, b in zip(run.chars, run.chars[1:]):
        out += (" " if b.box[0] - a.box[2] > 0.2 * em else "") + b.text
    return out
