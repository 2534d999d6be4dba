"""Reading a VASSAL module as VASSAL 3.7 does, for the tests: written from VASSAL's source
(vassalengine/vassal, tag 3.7.26), never from our exporter's code.

- `Decoder`: VASSAL.tools.SequenceEncoder.Decoder (a delimiter preceded by a backslash is part of
  the token; a token wrapped in single quotes loses them).
- `piece`: an AddPiece command `+/id/type/state` (BasicCommandEncoder), its traits split on tabs
  (Decorator.getType), outermost first.
- `embellishment`, `obscurable`: the fields of Embellishment.mySetType and Obscurable.mySetType in
  their order; `layer_menu` is Embellishment.myGetKeyCommands, `layer_key` its myKeyEvent.
- `Grids`: a board's ZonedGrid (zones tried in order, Zone.locationName's format), RegionGrid
  (nearest region), HexGrid (snapToHex, getRawColumn/getRawRow, sideways swapping x and y) and
  HexGridNumbering / RegularGridNumbering (getRow, getColumn, getName, locationName).
"""
from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from dataclasses import dataclass

BOARD = "VASSAL.build.module.map.boardPicker.board"
NULL_KEY = None   # NamedKeyStroke.NULL_KEYSTROKE


class Decoder:
    """SequenceEncoder.Decoder."""

    def __init__(self, value: str | None, delim: str):
        self.val, self.delim, self.start = value, delim, 0
        self.stop = len(value) if value is not None else 0

    def more(self) -> bool:
        return self.val is not None

    def token(self, default: str | None = None) -> str:
        if self.val is None:
            if default is None:
                raise StopIteration("no more tokens")
            return default
        val, start = self.val, self.start
        if start == self.stop:
            self.val = None
            return ""
        buf, tok, i = "", None, start
        while i < self.stop:
            if val[i] == self.delim:
                if i > 0 and val[i - 1] == "\\":      # escaped delimiter
                    buf += val[start:i - 1]
                    start = i
                else:
                    if not buf:
                        tok = val[start:i]
                    else:
                        buf += val[start:i]
                    start = i + 1
                    break
            i += 1
        if start < i:                                # reached the end without a delimiter
            if not buf:
                tok = val[start:]
            else:
                buf += val[start:self.stop]
            self.val = None
        self.start = start
        s = tok if tok is not None else buf
        return s[1:-1] if len(s) > 1 and s[0] == "'" and s[-1] == "'" else s

    def int(self, default: int) -> int:
        if self.val is None:
            return default
        try:
            return int(self.token())
        except ValueError:
            return default

    def bool(self, default: bool) -> bool:
        return self.token() == "true" if self.val is not None else default

    def key(self) -> tuple[int, int, str | None] | None:
        """nextNamedKeyStroke(): (key code, modifiers, name), None for the null stroke."""
        if self.val is None:
            return NULL_KEY
        s = self.token()
        if not s:
            return NULL_KEY
        if "," not in s:
            return (ord(s[0].upper()), 128, None)
        parts = s.split(",")
        try:
            return (int(parts[0]), int(parts[1]), parts[2] if len(parts) > 2 else None)
        except ValueError:
            return NULL_KEY

    def array(self) -> list[str]:
        """nextStringArray: StringArrayConfigurer.stringToArray (a ',' sequence)."""
        s = self.token("")
        if not s:
            return []
        d, out = Decoder(s, ","), []
        while d.more():
            out.append(d.token())
        return out


def key_is_null(k: tuple[int, int, str | None] | None) -> bool:
    return k is None or (k[0] == 0 and k[1] == 0)


def piece(command: str) -> tuple[list[str], list[str]]:
    """An AddPiece command's traits and their states, outermost first (BasicPiece last)."""
    d = Decoder(command, "/")
    assert d.token() == "+"
    d.token()                              # the piece id
    type_, state = d.token(), d.token("")
    return _split(type_, "\t"), _split(state, "\t")


def _split(s: str, delim: str) -> list[str]:
    d, out = Decoder(s, delim), []
    while d.more():
        out.append(d.token())
    return out


def basic(trait: str) -> dict:
    d = Decoder(trait, ";")
    d.token()
    d.token(), d.token()                   # clone and delete keys
    return {"image": d.token(""), "name": d.token("")}


def embellishment(trait: str) -> dict:
    """Embellishment.mySetType, `emb2;` format, field by field."""
    assert trait.startswith("emb2;")
    d = Decoder(trait[len("emb2;"):], ";")
    f: dict = {}
    f["activateCommand"], f["activateModifiers"], f["activateKey"] = d.token(""), d.int(128), d.token("A")
    f["upCommand"], f["upModifiers"], f["upKey"] = d.token(""), d.int(128), d.token("")
    f["downCommand"], f["downModifiers"], f["downKey"] = d.token(""), d.int(128), d.token("")
    f["resetCommand"], f["resetKey"], f["resetLevel"] = d.token(""), d.key(), d.token("1")
    f["drawUnderneath"], f["xOff"], f["yOff"] = d.bool(False), d.int(0), d.int(0)
    f["images"] = d.array() or [""]
    f["names"] = d.array()
    f["loopLevels"], f["name"] = d.bool(True), d.token("")
    f["rndKey"], f["rndText"] = d.key(), d.token("")
    f["followProperty"], f["propertyName"], f["firstLevelValue"] = d.bool(False), d.token(""), d.int(1)
    f["version"], f["alwaysActive"] = d.int(0), d.bool(True)
    f["activateKeyStroke"], f["increaseKeyStroke"], f["decreaseKeyStroke"] = d.key(), d.key(), d.key()
    f["description"] = d.token("")
    return f


def layer_menu(f: dict) -> list[tuple[str, tuple | None]]:
    """Embellishment.myGetKeyCommands: the right-click menu entries, (text, key stroke)."""
    out = []
    if f["activateCommand"] and not f["alwaysActive"]:
        out.append((f["activateCommand"], f["activateKeyStroke"]))
    if not f["followProperty"]:
        if len(f["images"]) > 1:
            if f["upCommand"] and not key_is_null(f["increaseKeyStroke"]):
                out.append((f["upCommand"], f["increaseKeyStroke"]))
            if f["downCommand"] and not key_is_null(f["decreaseKeyStroke"]):
                out.append((f["downCommand"], f["decreaseKeyStroke"]))
        if not key_is_null(f["resetKey"]) and f["resetCommand"]:
            out.append((f["resetCommand"], f["resetKey"]))
        if not key_is_null(f["rndKey"]) and f["rndText"]:
            out.append((f["rndText"], f["rndKey"]))
    return out


def layer_key(f: dict, value: int, key: tuple) -> int:
    """Embellishment.myKeyEvent for the increase and decrease strokes (doIncrease, doDecrease):
    the layer value after `key` (positive: active, 1 = the first image)."""
    n, v = len(f["images"]), abs(value)
    if key == f["increaseKeyStroke"]:
        v = v + 1 if v < n else (1 if f["loopLevels"] else n)
    elif key == f["decreaseKeyStroke"]:
        v = v - 1 if v > 1 else (n if f["loopLevels"] else 1)
    return v if value > 0 else -v


def obscurable(trait: str) -> dict:
    """Obscurable.mySetType, field by field."""
    d = Decoder(trait, ";")
    d.token()
    f: dict = {"keyCommand": d.key(), "imageName": d.token(), "hideCommand": d.token("")}
    f["displayStyle"] = d.token("I") if d.more() else "I"
    f["maskName"] = d.token("?")
    f["access"], f["peekCommand"], f["description"] = d.token(""), d.token("Peek"), d.token("")
    return f


def obscured_by(state: str) -> str | None:
    """Obscurable.mySetState: who masks the card (None: nobody)."""
    token = Decoder(state, ";").token("null")
    return None if token == "null" else token


# --------------------------------------------------------------------------- grids

@dataclass
class Zone:
    name: str
    fmt: str
    poly: list[tuple[int, int]]
    grid: ET.Element | None

    def contains(self, x: float, y: float) -> bool:
        """java.awt.Polygon.contains for the rectangles these modules write (left/top edges in)."""
        xs, ys = [p[0] for p in self.poly], [p[1] for p in self.poly]
        return min(xs) <= x < max(xs) and min(ys) <= y < max(ys)

    @property
    def size(self) -> tuple[int, int]:
        xs, ys = [p[0] for p in self.poly], [p[1] for p in self.poly]
        return (max(xs) - min(xs), max(ys) - min(ys))


class Grids:
    """A board's grid as VASSAL reads it: `snap` (Map.snapTo) and `name` (locationName)."""

    def __init__(self, board: ET.Element):
        self.board = board
        zoned = board.find(f"{BOARD}.ZonedGrid")
        self.zones: list[Zone] = []
        self.background = None
        if zoned is None:
            self.background = board.find(f"{BOARD}.HexGrid")
            return
        for z in zoned.findall(f"{BOARD}.mapgrid.Zone"):
            poly = [tuple(int(v) for v in p.split(",")) for p in z.get("path").split(";")]
            grid = next((c for c in z if c.tag.rsplit(".", 1)[1] in ("HexGrid", "RegionGrid", "SquareGrid")), None)
            self.zones.append(Zone(z.get("name"), z.get("locationFormat", "$name$"), poly, grid))
        self.background = next((c for c in zoned if c.tag.rsplit(".", 1)[1] in ("HexGrid", "SquareGrid")), None)

    def zone(self, x: float, y: float) -> Zone | None:
        return next((z for z in self.zones if z.contains(x, y)), None)

    def snap(self, x: int, y: int) -> tuple[int, int]:
        z = self.zone(x, y)
        grid = z.grid if z else self.background
        if grid is None:
            return (x, y)
        if grid.tag.endswith("RegionGrid"):
            return _nearest_region(grid, x, y)[1]
        return hex_snap(x, y, grid.attrib)

    def name(self, x: int, y: int) -> str | None:
        z = self.zone(x, y)
        if z is None:
            return hex_location(x, y, self.background, self.board_size) if self.background is not None else None
        where = None
        if z.grid is not None and z.grid.tag.endswith("RegionGrid"):
            where = _nearest_region(z.grid, x, y)[0]
        elif z.grid is not None:
            where = hex_location(x, y, z.grid, z.size)
        return z.fmt.replace("$name$", z.name).replace("$gridLocation$", where or "")

    @property
    def board_size(self) -> tuple[int, int]:
        return (int(self.board.get("width")), int(self.board.get("height")))


def _nearest_region(grid: ET.Element, x: int, y: int) -> tuple[str, tuple[int, int]]:
    """RegionGrid.doSnap: the region whose origin is nearest (the first of equals)."""
    best = None
    for r in grid.findall(f"{BOARD}.Region"):
        p = (int(r.get("originx")), int(r.get("originy")))
        dist = (x - p[0]) ** 2 + (y - p[1]) ** 2
        if best is None or dist < best[0]:
            best = (dist, r.get("name"), p)
    assert best is not None
    return best[1], best[2]


def hex_snap(x: float, y: float, g: dict) -> tuple[int, int]:
    """HexGrid.snapToHex / hexPoint: the rectangle's candidate, else the one of its four
    neighbours whose hexagon holds the point (sideways grids swap x and y before and after)."""
    dx, dy, ox, oy = float(g["dx"]), float(g["dy"]), int(g["x0"]), int(g["y0"])
    sideways = g["sideways"] == "true"
    px, py = (int(y), int(x)) if sideways else (int(x), int(y))

    def centre(nx: int, ny: int) -> tuple[int, int]:
        return (int(dx * nx + ox), int(dy * ny + oy) if nx % 2 == 0 else int(dy * ny + int(dy / 2) + oy))

    nx = math.floor((px - ox + dx / 2) / dx)
    ny = math.floor((py - oy + dy / 2) / dy) if nx % 2 == 0 else math.floor((py - oy) / dy)
    best = centre(nx, ny)
    if not _in_hex(px, py, best, dx, dy):
        steps = [(-1, -1), (-1, 0), (1, -1), (1, 0)] if nx % 2 == 0 else [(-1, 0), (-1, 1), (1, 0), (1, 1)]
        best = next((c for c in (centre(nx + a, ny + b) for a, b in steps) if _in_hex(px, py, c, dx, dy)), best)
    return (best[1], best[0]) if sideways else best


def _in_hex(px: int, py: int, c: tuple[int, int], dx: float, dy: float) -> bool:
    """HexGrid.getSingleHexShape (unrotated) contains the point (even-odd rule)."""
    x, y, r = c[0], c[1], 2 * dx / 3
    rd = _java_round
    poly = [(rd(x - r), rd(y)), (rd(x - r / 2), rd(y - dy / 2)), (rd(x + r / 2) + 1, rd(y - dy / 2)),
            (rd(x + r) + 1, rd(y)), (rd(x + r / 2) + 1, rd(y + dy / 2) + 1), (rd(x - r / 2), rd(y + dy / 2) + 1)]
    inside = False
    for (x1, y1), (x2, y2) in zip(poly, poly[1:] + poly[:1]):
        if (y1 > py) != (y2 > py) and px < x1 + (py - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def _java_round(v: float) -> int:
    return math.floor(v + 0.5)


def hex_location(x: int, y: int, grid: ET.Element, container: tuple[int, int]) -> str:
    """HexGridNumbering.locationName at (x, y): raw column and row (HexGrid.getRawColumn/Row),
    descending and stagger (getColumn, getRow), then RegularGridNumbering.getName."""
    g = grid.attrib
    n = grid.find(f"{BOARD}.mapgrid.HexGridNumbering").attrib
    dx, dy, ox, oy = float(g["dx"]), float(g["dy"]), int(g["x0"]), int(g["y0"])
    sideways = g["sideways"] == "true"
    px, py = (y, x) if sideways else (x, y)
    raw_col = math.floor((px - ox) / dx + 0.5)
    nx = _java_round((px - ox) / dx)
    raw_row = _java_round((py - oy) / dy) if nx % 2 == 0 else _java_round((py - oy - dy / 2) / dy)
    max_rows = math.floor(container[1] / dx + 0.5)
    max_cols = math.floor(container[0] / dy + 0.5)
    h_desc, v_desc = n["hDescend"] == "true", n["vDescend"] == "true"
    col = raw_col
    if v_desc and sideways:
        col = max_rows - col
    if h_desc and not sideways:
        col = max_cols - col
    row = raw_row
    if v_desc and not sideways:
        row = max_rows - row
    if h_desc and sideways:
        row = max_cols - row
    if n["stagger"] == "true" and raw_col % 2 != 0:
        desc = h_desc if sideways else v_desc
        row += -1 if desc else 1
    row_name = _name(row + int(n["vOff"]), n["vType"], int(n["vLeading"]))
    col_name = _name(col + int(n["hOff"]), n["hType"], int(n["hLeading"]))
    where = col_name + n["sep"] + row_name if n["first"] == "H" else row_name + n["sep"] + col_name
    return n["locationFormat"].replace("$gridLocation$", where)


def _name(value: int, kind: str, leading: int) -> str:
    """RegularGridNumbering.getName(int, char, int)."""
    out = "-" if value < 0 else ""
    value = abs(value)
    if kind == "A":
        while True:
            out += "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[value % 26]
            value -= 26
            if value < 0:
                return out
    while leading > 0 and value < 10 ** leading:
        leading -= 1
        out += "0"
    return out + str(value)
