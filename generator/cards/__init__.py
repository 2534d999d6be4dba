"""Print-ready cards: sheet geometry, faces from declarative layouts, the `cards` build stage."""
