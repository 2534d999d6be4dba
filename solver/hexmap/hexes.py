"""Pure hex-grid mathematics, after Red Blob Games' "Hexagonal Grids" and its implementation guide.

- `Hex` is an immutable cube coordinate (q, r, s = -q-r); arithmetic, neighbours, distance, rings.
- Offset coordinates (column, row) with odd/even parity for flat-top (q-offset) and pointy-top
  (r-offset) grids convert to and from cube coordinates with the guide's formulas.
- `Orientation` is data (forward/backward matrices and the first corner's angle), never an `if`:
  FLAT and POINTY differ only in their numbers.
- Hexsides and vertices are named by the hexes that meet there (two for a hexside, three for a
  vertex), so rivers along hexsides and dots on vertices need no floating-point comparisons.
- `Labeller` turns (column, row) into printed labels, `XXYY` or letter-plus-number (`M17`), with
  a configurable origin corner and first number.

Nothing here knows of paper: millimetres, corners and a grid's size on the page are
generator/hexmap/geometry.py's.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Callable, Iterator, Literal

SQRT3 = math.sqrt(3.0)


@dataclass(frozen=True, order=True)
class Hex:
    """Cube coordinate; `s` is derived so q + r + s == 0 always holds."""
    q: int
    r: int

    @property
    def s(self) -> int:
        return -self.q - self.r

    def __add__(self, other: "Hex") -> "Hex":
        return Hex(self.q + other.q, self.r + other.r)

    def __sub__(self, other: "Hex") -> "Hex":
        return Hex(self.q - other.q, self.r - other.r)

    def scale(self, k: int) -> "Hex":
        return Hex(self.q * k, self.r * k)

    def length(self) -> int:
        return (abs(self.q) + abs(self.r) + abs(self.s)) // 2

    def distance(self, other: "Hex") -> int:
        return (self - other).length()

    def neighbour(self, direction: int) -> "Hex":
        return self + DIRECTIONS[direction % 6]

    def neighbours(self) -> list["Hex"]:
        return [self + d for d in DIRECTIONS]

    def ring(self, radius: int) -> list["Hex"]:
        """The hexes at exactly `radius` steps, in ring order (Red Blob's ring algorithm)."""
        if radius == 0:
            return [self]
        out = []
        h = self + DIRECTIONS[4].scale(radius)
        for i in range(6):
            for _ in range(radius):
                out.append(h)
                h = h.neighbour(i)
        return out

    def spiral(self, radius: int) -> list["Hex"]:
        return [h for k in range(radius + 1) for h in self.ring(k)]


def hex_round(q: float, r: float) -> Hex:
    """The hex containing fractional cube coordinate (q, r, -q-r)."""
    s = -q - r
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return Hex(int(rq), int(rr))


def line(a: Hex, b: Hex) -> list[Hex]:
    """Hexes on the straight line from a to b, each next to the one before (Red Blob's line drawing).

    The tiny nudge keeps points that fall exactly on a hexside deterministic."""
    n = a.distance(b)
    if n == 0:
        return [a]
    eq, er = a.q + 1e-6, a.r + 1e-6
    return [hex_round(eq + (b.q - a.q) * i / n, er + (b.r - a.r) * i / n) for i in range(n + 1)]


# The six axial directions, in Red Blob's order (direction i+1 is 60° on from direction i).
DIRECTIONS: tuple[Hex, ...] = (Hex(1, 0), Hex(1, -1), Hex(0, -1), Hex(-1, 0), Hex(-1, 1), Hex(0, 1))


def hexside(a: Hex, b: Hex) -> tuple[Hex, Hex]:
    """Canonical name of the edge between two neighbours: the pair, sorted."""
    if a.distance(b) != 1:
        raise ValueError(f"{a} and {b} are not neighbours")
    return (a, b) if a < b else (b, a)


def common_neighbours(a: Hex, b: Hex) -> list[Hex]:
    """The two hexes touching both ends of the a|b hexside."""
    nb = set(b.neighbours())
    return sorted(h for h in a.neighbours() if h in nb)


def side_vertices(a: Hex, b: Hex) -> tuple[frozenset[Hex], frozenset[Hex]]:
    """The two vertices (each named by its three hexes) at the ends of hexside a|b."""
    c1, c2 = common_neighbours(a, b)
    return frozenset((a, b, c1)), frozenset((a, b, c2))


# --------------------------------------------------------------------------- offset coordinates

Parity = Literal["odd", "even"]
PARITY_SIGN = {"even": 1, "odd": -1}  # Red Blob's EVEN = +1, ODD = -1


@dataclass(frozen=True, order=True)
class Offset:
    col: int
    row: int


def qoffset_from_cube(parity: Parity, h: Hex) -> Offset:
    k = PARITY_SIGN[parity]
    return Offset(h.q, h.r + (h.q + k * (h.q & 1)) // 2)


def qoffset_to_cube(parity: Parity, o: Offset) -> Hex:
    k = PARITY_SIGN[parity]
    return Hex(o.col, o.row - (o.col + k * (o.col & 1)) // 2)


def roffset_from_cube(parity: Parity, h: Hex) -> Offset:
    k = PARITY_SIGN[parity]
    return Offset(h.q + (h.r + k * (h.r & 1)) // 2, h.r)


def roffset_to_cube(parity: Parity, o: Offset) -> Hex:
    k = PARITY_SIGN[parity]
    return Hex(o.col - (o.row + k * (o.row & 1)) // 2, o.row)


# --------------------------------------------------------------------------- orientation as data

@dataclass(frozen=True)
class Orientation:
    """Red Blob's layout matrix, forward (hex -> pixel; nothing here goes from pixel to hex, so his
    backward matrix is left out), and the first corner at start_angle*60°.

    `from_cube`/`to_cube` name the offset conversion that keeps columns (flat) or rows (pointy)
    straight, so a grid's orientation alone picks its offset formulas.
    """
    name: str
    f0: float
    f1: float
    f2: float
    f3: float
    start_angle: float
    from_cube: Callable[[Parity, Hex], Offset]
    to_cube: Callable[[Parity, Offset], Hex]


FLAT = Orientation("flat", 3 / 2, 0.0, SQRT3 / 2, SQRT3, 0.0, qoffset_from_cube, qoffset_to_cube)
POINTY = Orientation("pointy", SQRT3, SQRT3 / 2, 0.0, 3 / 2, 0.5, roffset_from_cube, roffset_to_cube)
ORIENTATIONS = {"flat": FLAT, "pointy": POINTY}

# Compass names by the angle (degrees, counter-clockwise from east, y up) of a neighbour's centre.
# Hex neighbours lie at 30° + k·60° (flat) or k·60° (pointy); both fall inside these bins, so one
# table names the six directions of either orientation (flat: N NE SE S SW NW; pointy: E NE NW W SW SE).
_COMPASS = [(15, "E"), (75, "NE"), (105, "N"), (165, "NW"), (195, "W"), (255, "SW"), (285, "S"), (345, "SE"),
            (360, "E")]


@dataclass(frozen=True)
class HexGrid:
    """A rectangle of `columns` x `rows` offset hexes: which hexes exist and how they are numbered.

    Positions on paper (millimetres, corners, the grid's size) are generator/hexmap/geometry.py's;
    `unit_centre` gives the layout at a corner radius of 1, for directions and for that module."""
    orientation: Orientation
    parity: Parity
    columns: int
    rows: int

    def to_cube(self, o: Offset) -> Hex:
        return self.orientation.to_cube(self.parity, o)

    def to_offset(self, h: Hex) -> Offset:
        return self.orientation.from_cube(self.parity, h)

    def contains(self, h: Hex) -> bool:
        o = self.to_offset(h)
        return 0 <= o.col < self.columns and 0 <= o.row < self.rows

    def hexes(self) -> Iterator[Hex]:
        """Every hex, column by column, top to bottom (a stable order for output)."""
        for c in range(self.columns):
            for r in range(self.rows):
                yield self.to_cube(Offset(c, r))

    def unit_centre(self, h: Hex) -> tuple[float, float]:
        """Centre of `h` at corner radius 1, from the centre of hex (0, 0); y grows downwards."""
        m = self.orientation
        return (m.f0 * h.q + m.f1 * h.r, m.f2 * h.q + m.f3 * h.r)

    def compass(self, a: Hex, b: Hex) -> str:
        """Direction of neighbour b seen from a, as a compass name (flat: N, NE, SE, S, SW, NW)."""
        (ax, ay), (bx, by) = self.unit_centre(a), self.unit_centre(b)
        deg = math.degrees(math.atan2(-(by - ay), bx - ax)) % 360
        return next(name for upper, name in _COMPASS if deg < upper)


def make_grid(orientation: str, parity: Parity, columns: int, rows: int) -> HexGrid:
    return HexGrid(ORIENTATIONS[orientation], parity, columns, rows)


# --------------------------------------------------------------------------- labels

LabelStyle = Literal["xxyy", "letter-number"]
Corner = Literal["top-left", "top-right", "bottom-left", "bottom-right"]


def letters(n: int) -> str:
    """0 -> A, 25 -> Z, 26 -> AA, 27 -> AB (spreadsheet columns)."""
    s = ""
    n += 1
    while n:
        n, rem = divmod(n - 1, 26)
        s = chr(65 + rem) + s
    return s


def letters_index(s: str) -> int:
    n = 0
    for ch in s:
        n = n * 26 + (ord(ch) - 64)
    return n - 1


@dataclass(frozen=True)
class Labeller:
    """Printed hex ids. Column and row counts run from `origin` (a corner) starting at `first`."""
    style: LabelStyle
    columns: int
    rows: int
    origin: Corner = "top-left"
    first: int = 1

    def _numbers(self, o: Offset) -> tuple[int, int]:
        col = self.columns - 1 - o.col if self.origin.endswith("right") else o.col
        row = self.rows - 1 - o.row if self.origin.startswith("bottom") else o.row
        return col, row

    @property
    def _width(self) -> int:
        return max(2, len(str(max(self.columns, self.rows) - 1 + self.first)))

    def label(self, o: Offset) -> str:
        col, row = self._numbers(o)
        if self.style == "letter-number":
            return f"{letters(col)}{row + self.first}"
        w = self._width
        return f"{col + self.first:0{w}d}{row + self.first:0{w}d}"

    def parse(self, label: str) -> Offset | None:
        """The offset of a label, or None when it is not a well-formed label of this grid."""
        if self.style == "letter-number":
            m = re.fullmatch(r"([A-Z]+)(\d+)", label)
            if not m:
                return None
            col, row = letters_index(m.group(1)), int(m.group(2)) - self.first
        else:
            w = self._width
            m = re.fullmatch(rf"(\d{{{w}}})(\d{{{w}}})", label)
            if not m:
                return None
            col, row = int(m.group(1)) - self.first, int(m.group(2)) - self.first
        if self.origin.endswith("right"):
            col = self.columns - 1 - col
        if self.origin.startswith("bottom"):
            row = self.rows - 1 - row
        if not (0 <= col < self.columns and 0 <= row < self.rows):
            return None
        return Offset(col, row)
