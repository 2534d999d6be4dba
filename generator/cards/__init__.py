"""Print-ready cards: faces from declarative layouts (face.py draws, facedata.py answers templates, symbols.py resolves a vector symbol's colours), the `cards` build stage."""
