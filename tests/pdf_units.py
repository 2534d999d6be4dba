"""PDF units for reading pages back, written out here rather than imported from the renderer's
generator/geometry.py, so that a wrong conversion there cannot cancel itself out in a test.

A PDF point is 1/72 inch and an inch is 25.4 mm (ISO 32000-1, 8.3.2.3 "User space").
"""
from __future__ import annotations

MM_PER_INCH = 25.4
MM_PER_PT = 25.4 / 72
PT_PER_MM = 72 / 25.4
