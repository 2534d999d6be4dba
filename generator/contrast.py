"""WCAG 2 contrast of sRGB colours, as preflight (generator/preflight.py) judges text against the
colour under it."""
from __future__ import annotations

from functools import lru_cache


def contrast_ratio(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    """WCAG 2 contrast ratio of two sRGB colours (1 to 21)."""
    la, lb = _luminance(a), _luminance(b)
    hi, lo = max(la, lb), min(la, lb)
    return (hi + 0.05) / (lo + 0.05)


@lru_cache(maxsize=4096)  # a page has a few colours and thousands of runs
def _luminance(rgb: tuple[int, int, int]) -> float:
    def lin(v: int) -> float:
        s = v / 255
        return s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4
    r, g, b = (lin(v) for v in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _channels(packed: int) -> tuple[int, int, int]:
    """R, G, B of the lowest three bytes of `packed` (R highest)."""
    return packed >> 16 & 0xFF, packed >> 8 & 0xFF, packed & 0xFF


def _hex(rgb: tuple[int, int, int]) -> str:
    return "#%02x%02x%02x" % tuple(rgb)
