"""solver: the game model (loading, validation), the rules engine and the CP-SAT checker.

    game/      the game model and its loading, one module per data file (see its docstring)
    engine/    the rules engine: setup.yaml run at every player count, by counting
    rules/     the rulebook's clauses, translations (PO) and glossary, and their checks
    proof/     the CP-SAT proof that the setup can be carried out and its rules hold for every deal
    hexmap/    hex-grid mathematics, movement over a map, and the map's checks
    counts/    the counts a box holds: stated or proposed, completed by CP-SAT, and the odds of a deal
    checks.py  the list of checks `pnp check` runs, one per room
    report.py  the checker report (`pnp check --json`) built from those checks
    expr.py    the expression language of game data (`players + 1`)
    errors.py  errors that point at the input (file:line:column)
    findings.py  what the checks report
    schema.py  JSON Schemas of the data files, generated from the model

Imports run one way: errors, expr and findings at the bottom; the game model; the engine; proof,
hexmap and counts; checks and report on top. Knows nothing of paper: geometry and drawing live
in `generator/`, which imports this package.
"""
