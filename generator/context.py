"""Build options shared by every stage of the pipeline (set from the command line), and the paper
they print on."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Mapping

PAPER_MM: dict[str, tuple[float, float]] = {
    "a4": (210.0, 297.0),
    "letter": (215.9, 279.4),
    "a3": (297.0, 420.0),
    "a2": (420.0, 594.0),
    "a1": (594.0, 841.0),
    "a0": (841.0, 1189.0),
}
A5_MM = (148.0, 210.0)  # a rulebook booklet's page (two on a landscape A4 sheet), not a --paper choice
DEFAULT_BLEED_MM = 3.0  # sheets for home printing and cutting: a cut 3 mm off still shows the piece's colour
# Print shops' card templates: MakePlayingCards' and DriveThruCards' poker template is 69.85 x 95.25 mm
# (2.75 x 3.75 in) for a 63.5 x 88.9 mm card, The Game Crafter's 825 x 1125 px at 300 dpi for the same
# card: 1/8 in on every side. The pdf-cards and tgc exports use it unless --bleed says otherwise.
SHOP_BLEED_MM = 3.175
PRINTER_MARGIN_MM = 5.0  # home printers print from about 5 mm inside the paper edge: nothing to keep there


@dataclass(frozen=True)
class BuildContext:
    out_root: Path = Path("output")
    lang: str | None = None  # None: each game's source language
    paper: str = "a4"
    bleed_mm: float = DEFAULT_BLEED_MM
    safe_mm: float = 3.0
    back_offset_mm: tuple[float, float] = (0.0, 0.0)
    flip: Literal["long", "short"] = "long"
    formats: tuple[str, ...] = ("pdf", "svg", "png")
    sheet_layout: Literal["duplex", "gutterfold"] = "duplex"  # gutterfold: backs beside fronts, fold and glue
    packed: bool = False  # --layout packed: also every piece of the game on the fewest sheets (packed-<lang>.pdf)
    map_dpi: int = 100  # the map PNG is a screen preview unless asked for more (--map-dpi 300)
    preflight: bool = True  # check every PDF a build writes (generator/preflight.py); --no-preflight
    stated_only: bool = False  # print only counts the sources state, not proposed.yaml's (issue 11)
    spares: int | None = None  # blank spares per `rest: true` item; None: the data's `spares` (default 0)
    ink: Literal["normal", "saver", "mono"] = "normal"  # --ink: the colour transform (generator/render/ink.py)
    drafts: tuple[str, ...] = ()  # --draft: languages built as drafts besides game.yaml's `drafts`
    warnings: list[str] = field(default_factory=list, compare=False, hash=False)
    # findings of PDFs checked before, by content (generator/preflight.py file_key), from the build record:
    # not an option, only what spares reading a file again
    preflight_known: Mapping[str, Any] = field(default_factory=dict, compare=False, hash=False, repr=False)

    def out_dir(self, game_id: str) -> Path:
        """Where a game's files go: output/<game>/, or output/<game>/ink-<mode>/ for --ink saver or mono,
        so an ink-saving build never replaces the normal print's files (nor they it)."""
        game = self.out_root / game_id
        return game if self.ink == "normal" else game / f"ink-{self.ink}"

    def language(self, source_language: str) -> str:
        return self.lang or source_language

    @property
    def paper_mm(self) -> tuple[float, float]:
        return PAPER_MM[self.paper]

    def warn(self, message: str) -> None:
        self.warnings.append(message)
