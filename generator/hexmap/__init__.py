"""Hex maps: layout (pure geometry), drawing onto the shared renderer, tiling, and the build stage."""
