"""solver: the game model (loading, validation), the rules engine and the CP-SAT checker.

Knows nothing of paper: geometry and drawing live in `generator/`, which imports this package.
"""
