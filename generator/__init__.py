"""generator: geometry, layout, renderers (PDF, SVG, PNG), the build pipeline and the `pnp` command.

Imports `solver` (the game model and the checker); `solver` never imports this package.
"""
