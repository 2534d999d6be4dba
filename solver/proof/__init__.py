"""proof: the CP-SAT proof that a game's setup can be carried out at every player count and that
its rules hold for every deal, and the explanation when they cannot.

    checker.py      `pnp check`'s setup proof: every player count and optional rule, stated
                    sums and component totals, the findings a designer reads
    feasibility.py  the flow model of one player count (where every item can go) and its proof
    constraints.py  setup.yaml's `constraints` compiled into that model, proved for every deal
    explain.py      the smallest set of steps, counts and rules that conflict, in words
    shortage.py     a step that asks for more than there is, as the sum of the step (14 × 4 = 56;
                    the deck has 54), with what earlier steps took and what would fit
    worstdeal.py    the most copies of each matched item any deal asks (`match:` steps), by CP-SAT
                    maximisation, and the findings of a count below it
    cpsat.py        the shared terms: assumptions, the verdict, the one tuned CP-SAT call
    nopandas.py     OR-Tools' cp_model imported without pandas, in the checker's own process

Imports the game model and the engine below it; the counts room (solver/counts/) and the checks
list (solver/checks.py) build on it.
"""
