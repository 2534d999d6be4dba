"""Hex maps: layout (pure geometry), drawing onto the shared renderer, tiling, and the build stage.

    geometry.py   the hex grid on paper: centres, vertices and sides in mm
    layout.py     the full-size page: title, grid, panel of boxes and tracks, legend (mm)
    symbols.py    terrain marks and place icons, defined once per page
    draw.py       the page drawn on any Surface, following layout.py
    legend.py     the panel's boxes and the legend
    tiling.py     when a big page (a map's, a board's) is tiled, and the tiling with the fewest sheets
    tiles.py      the tiled print: sheets with trim and guide lines, and the assembly page
    stage.py      the "maps" build stage: full-size PDF/SVG/PNG and, when larger than the paper, tiles
"""
