"""Pieces and sheets: the one model every printer uses (today cards and counters; tokens, tiles,
standees, boards, nets and packed sheets build on it), from a piece cut out of paper to the pages that hold it.

  model.py    `Piece` (outline, trim size, faces through the layout vocabulary, net panels, fold and
             cut marks, copies as repeats), `Placement`, `SheetPage`, `Stroke`: a plan is a list of pages;
  grid.py     `SheetGrid`/`plan_sheet` (pieces of one size in a grid, backs registered for the duplex
             flip, crop marks) and `GutterfoldGrid`/`plan_gutterfold` (backs mirrored beside a fold line);
  plan.py     plans from grids (`grid_pages`, `gutterfold_pages`);
  render.py   draws any plan to PDF, SVG and PNG through generator/render (`draw_pages`,
             `write_outputs`, `write_pages`, `write_pngs`).
"""
