"""solver: the game model (loading, validation), the rules engine and the CP-SAT checker.

    game/      the game model and its loading, one module per data file (see its docstring)
    engine/    the rules engine: setup.yaml run at every player count, by counting
    rules/     the rulebook's clauses, translations (PO) and glossary, and their checks
    checker.py and the modules it calls prove what the engine derives (feasibility, constraints,
               explanations, odds, proposals, maps)

Knows nothing of paper: geometry and drawing live in `generator/`, which imports this package.
"""
