"""Work units of a build: one game × stage × part (a deck, a counter sheet, or the whole stage) × language.

A unit is the grain of incremental and parallel builds. Its fingerprint (generator/fingerprints.py)
hashes exactly what it reads; when the fingerprint and the unit's outputs are unchanged, the build
skips it (generator/incremental.py).

`execute` runs one unit anywhere (this process, a process pool, a Dask worker): it builds into
scratch files and returns them with the warnings, so that only the caller puts files in place in
the output folder. On the output's own disk (this process, a local pool) they are in a hidden
folder of the process in the output folder, side by side under names of their own, and come back
as paths, moved into place without ever being held in memory; on a Dask worker, which may share no
disk with the caller, they are in a temporary folder of the unit and come back as bytes.
"""
from __future__ import annotations

import contextlib
import dataclasses
import os
import shutil
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from solver.errors import DataError, Problem

from .build import STAGES, Stage
from .context import BuildContext
from .gcpause import collected_at_end
from .output import FlatScratch, scratch_folder, scratch_writes

if TYPE_CHECKING:
    from solver.game.loader import Game

    from .preflight import Memo

# stages that print one file set per component (a deck, a counter sheet): a unit each
PER_COMPONENT = {"cards", "counters", "pieces"}
# stages whose output is the same in every language: one unit, in the first language built
LANGUAGE_FREE = {"check"}
# stages that run only when an option asks for them: the option's name in BuildContext
ASKED_FOR = {"packed": "packed"}
# a process's scratch folder in the output folder: .pnp-unit.<pid>.<random>.part (swept when its process is gone)
SCRATCH = "pnp-unit"


@dataclass(frozen=True)
class Unit:
    game: str
    stage: str
    part: str | None  # a component id for PER_COMPONENT stages, else None (the whole stage)
    lang: str

    @property
    def key(self) -> str:
        return f"{self.stage}:{self.part or '*'}:{self.lang}"

    def __str__(self) -> str:
        return f"{self.game} {self.key}"


@dataclass
class UnitResult:
    unit: Unit
    # path relative to the output root -> the file's bytes, or the finished file in `scratch`
    files: dict[str, bytes | Path]
    warnings: list[str]
    problems: list[Problem] = dataclasses.field(default_factory=list)  # unusable input met while drawing
    preflight: dict[str, list] = dataclasses.field(default_factory=dict)  # findings of its PDFs, by file_key
    preflighted: list[str] = dataclasses.field(default_factory=list)  # its PDFs preflight read (not known before)


def stage_named(name: str) -> Stage:
    return next(s for s in STAGES if s.__name__ == name)


def plan(game: Game, ctx: BuildContext, only: set[str] | None = None) -> list[Unit]:
    """The units of one game, in stage order, each stage once per language the game is built in
    (generator/languages.py; --lang narrows them), but a stage that does not depend on the language
    only once. Warnings about languages left out go to ctx."""
    from .languages import languages_to_build, parse_requested

    langs = languages_to_build(game, parse_requested(ctx.lang), ctx.warn)
    units: list[Unit] = []
    for stage in STAGES:
        name = stage.__name__
        if only and name not in only or name in ASKED_FOR and not getattr(ctx, ASKED_FOR[name]):
            continue
        for lang in langs[:1] if name in LANGUAGE_FREE else langs:
            if name in PER_COMPONENT:
                units += [Unit(game.id, name, cid, lang) for cid in printed_components(game, name)]
            else:
                units.append(Unit(game.id, name, None, lang))
    return units


def printed_components(game: Game, kind: str) -> list[str]:
    """Ids of the components the `kind` stage ("cards", "counters" or "pieces") prints."""
    from .cards.deck import layouts_of, printable_items, sheet_of
    from solver.counts.effective import effective_counts

    from .coverage import printed_by_map
    from .pieces.punch import PUNCH_PRINTERS

    layouts = layouts_of(game)
    printers = PUNCH_PRINTERS if kind == "pieces" else (kind,)
    counts = effective_counts(game)  # a count proposed.yaml gives prints too (unless --stated-only)
    return [c.id for c in game.components if sheet_of(layouts, c) in printers and printable_items(c, counts)
            and not (kind == "pieces" and printed_by_map(game, c))]


def unit_game(game: Game, unit: Unit) -> Game:
    """The game as the unit's stage sees it: one component for a deck's unit."""
    if unit.part is None:
        return game
    # a sheet's list field may print another component's items (a card list): those stay readable
    listed = {"all_components": game.components} if unit.stage == "pieces" else {}
    return dataclasses.replace(game, components=[game.component(unit.part)], extras={**game.extras, **listed})


# --- running one unit -----------------------------------------------------------------------------

def execute(game: Game, unit: Unit, ctx: BuildContext, scratch_in: Path | None = None) -> UnitResult:
    """Run one unit into scratch files and return what it wrote, with its warnings. Picklable in and
    out, so the same function runs in this process, a process pool or on a Dask worker. With
    `scratch_in` (the output root, on a disk the caller shares) the files are written into this
    process's scratch folder there and returned as paths in it (the caller moves them); else (or
    when it cannot be written) into a temporary folder, returned as bytes. The garbage collector
    runs once, when the unit is done (gcpause.py `collected_at_end`), not while it draws: what the
    unit made is then mostly gone, where each collection on the way walked it alive."""
    with collected_at_end():
        return _execute(game, unit, ctx, scratch_in)


def _execute(game: Game, unit: Unit, ctx: BuildContext, scratch_in: Path | None) -> UnitResult:
    from .render.ink import ink_mode  # here: a no-op build, which runs no unit, draws nothing

    folder, shared = _scratch_of_process(scratch_in)
    scratch = FlatScratch(folder, folder)
    handed_over = False
    try:
        uctx = dataclasses.replace(ctx, out_root=folder, warnings=[], lang=unit.lang)
        try:
            # every surface the stage opens draws in the build's ink (render/ink.py); its files are
            # scratch, read back below (output.py: not flushed to the disk)
            with ink_mode(uctx.ink), scratch_writes(scratch):
                stage_named(unit.stage)(unit_game(game, unit), uctx)
        except DataError as e:  # returned, not raised: problems cross a process or network boundary as data
            return UnitResult(unit, {}, list(uctx.warnings), _outside(e.problems, folder, ctx.out_root))
        # every file the stage wrote, not only those it returned: nothing it makes is lost (in the
        # order of their paths, as the scratch folder's tree was walked)
        files = {rel: scratch.files[rel] for rel in sorted(scratch.files, key=PurePosixPath)}
        checked: dict[str, list] = {}  # its PDFs' findings by file_key, and those preflight read
        read: list[str] = []
        if uctx.preflight:  # what a print shop would say of these PDFs, kept with the unit's warnings
            from .preflight import Memo

            _preflight(game, unit, uctx, files, Memo(ctx.preflight_known, checked, read))
        if shared:
            handed_over = True
            return UnitResult(unit, dict(files), list(uctx.warnings), preflight=checked, preflighted=read)
        return UnitResult(unit, {rel: p.read_bytes() for rel, p in files.items()}, list(uctx.warnings),
                          preflight=checked, preflighted=read)
    finally:
        if shared and not handed_over:
            for path in scratch.files.values():
                with contextlib.suppress(OSError):
                    os.unlink(path)
        elif not shared:
            shutil.rmtree(folder, ignore_errors=True)


# this process's scratch folder in an output root (made by its first unit there), by process and root:
# a forked worker inherits its parent's entries, which are not its own
_SCRATCH_FOLDERS: dict[tuple[int, Path], Path] = {}


def _scratch_of_process(scratch_in: Path | None) -> tuple[Path, bool]:
    """The folder a unit writes its files into, and whether it is this process's own in `scratch_in`
    (shared by its units, each file named apart: output.py `FlatScratch`; removed by the build once
    this process is gone, or by this process's next build: generator/incremental.py `_sweep_scratch`)
    rather than a temporary folder of the unit's own. One folder a process, not one a unit: each
    was an inode allocated and freed again (152 in a cold `build --all`)."""
    if scratch_in is None:
        return scratch_folder(None, SCRATCH), False
    key = (os.getpid(), scratch_in)
    folder = _SCRATCH_FOLDERS.get(key)
    if folder is not None and os.path.isdir(folder):  # (a build sweeps its own process's folder at its end)
        return folder, True
    folder = scratch_folder(scratch_in, SCRATCH)
    if folder.parent != scratch_in:  # the output root cannot be written: a temporary folder of the unit's own
        return folder, False
    _SCRATCH_FOLDERS[key] = folder
    return folder, True


# the drawing code the units of a stage import when they run (generator/build.py's stages import it
# lazily, so that `pnp list` never loads reportlab), what every stage that prints imports (the
# render backends and the libraries they import where they draw), and what preflight reads with;
# see `prepare`
DRAWING_CODE = {"manifest": "generator.manifest", "missing": "generator.missing", "cards": "generator.cards.deck",
                "counters": "generator.counters", "pieces": "generator.pieces.punch", "packed": "generator.pieces.packed",
                "maps": "generator.hexmap.stage", "rulebooks": "generator.rulebook.build"}
PRINTING_CODE = ("generator.render.pdf", "generator.render.png", "generator.render.svg", "reportlab.pdfgen.canvas",
                 "reportlab.graphics.renderPDF", "PIL.Image", "PIL.ImageDraw", "PIL.ImageFont",
                 "fontTools.ttLib", "fontTools.pens.svgPathPen")
PREFLIGHT_CODE = ("generator.preflight", "pypdfium2", "pypdf")


def prepare(tasks: list[tuple[Game, Unit]], ctx: BuildContext) -> None:
    """Do here, once, what the first unit of a stage does in each process it runs in: import the
    stage's drawing code (reportlab, Pillow, numpy) and preflight's readers (pypdfium2, pypdf), read
    the hyphenation patterns of the languages built (pyphen's: 0.13 CPU-s for English), and
    register and read the fonts of each game's languages. A local pool calls it before its workers fork
    (generator/runners.py), so that they share what it loaded instead of each loading it again
    (about 0.4 CPU-seconds a worker). A font that cannot be used is left for its unit to report."""
    import importlib

    stages = {unit.stage for _, unit in tasks} & set(DRAWING_CODE)
    for name in [DRAWING_CODE[s] for s in sorted(stages)] + list(PRINTING_CODE if stages else ()) \
            + list(PREFLIGHT_CODE if ctx.preflight else ()):
        importlib.import_module(name)
    if ctx.preflight:
        from .preflight import reader_digest

        reader_digest()
    from . import fonts
    from .text.hyphenate import dictionary as hyphenation_patterns

    for lang in sorted({unit.lang for _, unit in tasks} if stages else ()):
        hyphenation_patterns(lang)  # read once (pyphen closes the file), not again in each worker
    for game, lang in {(id(game), unit.lang): (game, unit.lang) for game, unit in tasks}.values():
        try:
            for font in set(dataclasses.astuple(fonts.faces(lang, game))):
                fonts.read_ahead(font)
        except DataError:
            pass


# what the optimiser's units import besides the optimiser, that a build's other units import too (the
# engine, the rules' QA, the coverage's piece code; with preflight, its readers and numpy): see
# `share_with_optimiser`; and `execute`'s ink modes (render/ink.py, not imported by a no-op build)
OPTIMISER_SHARES = ("generator.coverage", "generator.pieces.boards", "generator.pieces.tuckbox", "solver.engine.run",
                    "solver.rules.qa", "generator.render.ink")


def share_with_optimiser(ctx: BuildContext) -> None:
    """Import here what the optimiser's units (the checker's, run in a process of their own:
    generator/runners.py) import that this build's other units import as well, before that process
    forks: each was imported twice, by the optimiser's process and again by this one or its pool
    (numpy above all: 0.1 CPU-s of a cold build). Not the optimiser itself (OR-Tools, pandas): no
    process that prints may load it."""
    import importlib

    for name in OPTIMISER_SHARES + (("generator.preflight",) if ctx.preflight else ()):
        importlib.import_module(name)


def _outside(problems: list[Problem], scratch: Path, out_root: Path) -> list[Problem]:
    """Problems naming a file in the scratch folder (a disk that filled up) name its place in the output."""
    from solver.errors import display_path

    inner, outer = display_path(scratch), display_path(out_root)
    return [dataclasses.replace(p, path=outer + p.path[len(inner):]) if p.path.startswith(inner) else p
            for p in problems]


def _preflight(game: Game, unit: Unit, uctx: BuildContext, files: dict[str, Path], memo: "Memo") -> None:
    """Preflight's findings on the unit's PDFs (`files`: path in the output -> its scratch file) as
    its warnings; a PDF an earlier build checked (`memo`) is not read again."""
    from .preflight import preflight
    from .typesize import min_type_of

    names = {path: rel for rel, path in files.items()}
    for finding in preflight(list(names), names=names, safe_mm=uctx.safe_mm, min_type_pt=min_type_of(game.meta),
                             memo=memo):
        uctx.warn(f"preflight {finding.level}: {finding}")
    if unit.stage == "check":  # once per game, from the model: pieces told apart by colour alone
        from .colourvision import colour_vision

        for line in colour_vision(game):
            uctx.warn(f"preflight warning: {line}")
