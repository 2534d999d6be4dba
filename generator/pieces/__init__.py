"""Pieces and sheets: the one model every printer uses (cards, counters, tokens, tiles, standees,
boards, tuck boxes), from a piece cut out of paper to the pages that hold it.

  model.py    `Piece` (outline, trim size, faces through the layout vocabulary, net panels, fold and
             cut marks, copies as repeats), `Placement`, `SheetPage`, `Stroke`: a plan is a list of pages;
  grid.py     `SheetGrid`/`plan_sheet` (pieces of one size in a grid, backs registered for the duplex
             flip, crop marks) and `GutterfoldGrid`/`plan_gutterfold` (backs mirrored beside a fold line);
  plan.py     plans from grids (`grid_pages`, `gutterfold_pages`);
  pack.py     pieces of several sizes on the fewest sheets, cut by guillotine (strips, columns,
             stacks): a CP-SAT model with a greedy first-fit-decreasing start, deterministic;
  packed.py   the packed print (`--layout packed`, stage `packed`): a game's pieces as packed
             `SheetPage`s with their cut marks and registered backs, and the manifest's `sheets:`;
  render.py   draws any plan to PDF, SVG and PNG through generator/render (`draw_pages`,
             `write_outputs`, `write_pages`, `write_pngs`);
  drawn.py    what a sheet drew, from its recording, for preflight (`SheetRecord`, `save_pdf`,
             `sheet_pages`: its characters, the colour under each, its trims and symbols);
  shapes.py   plane geometry for drawn.py: whether a window lies surely inside a fill or clear of a stroke;
  sheettext.py  a sheet's pages' characters and runs from drawn.py's strings, all pages at once
  draft.py    a translation draft's sheet pages say so: one line in a free stretch of the margin;
  punch.py    the `pieces` build stage: tokens and chips (round or square), tiles, standees
             (fold-over pawns) from data through layouts, with built-in default layouts;
  tuckbox.py  a tuck box per deck (the cards stage prints it): a net sized from the card size, the
             copies and the card thickness, the deck's name and back art on its panels;
  dice.py     a die with faces of its own as a fold-and-glue net (a cross of six, glue tabs);
  boards.py   boards and sheets: the page itself, on the paper with crop marks, and when larger
             than the paper also tiled onto A4/Letter with the map's tiling and assembly
             machinery (generator/hexmap/tiling.py, tiles.py).
"""
