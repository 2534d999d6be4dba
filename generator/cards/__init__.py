"""Print-ready cards: faces from declarative layouts (face.py draws, facedata.py answers templates), the `cards` build stage."""
