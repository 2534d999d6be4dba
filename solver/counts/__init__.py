"""counts: how many of each piece a box holds, where the sources leave it open, and the odds of
what a deal gives.

    effective.py  the count a build prints: the stated one, else designed.yaml's, else proposed.yaml's
                  (no optimiser: the printing path imports only this module of the room)
    ledger.py     what a box holds against what a build prints: per component its total, stated
                  total, described and printed pieces; per item proposed, unbounded, rest, placeholder
    propose.py    `pnp propose`: one CP-SAT model completes every count the sources do not state
    odds.py       exact odds of the secret roles dealt at setup, counted and cross-checked with CP-SAT
    wargame.py    a wargame's counter mix, chit pool and stock as CP-SAT optimisation models
    design.py     `pnp design`: the least box meeting targets.yaml at every player count, or the
                  smallest set of targets that conflict (odds as exact allowed-assignment tables)
    design_model.py  its setup half: every run's flow model sharing the box, and the `each: free` amounts
    measure.py    every target measured exactly at given counts, from the engine's deal and odds.py
    design_check.py  `pnp check` on targets.yaml and designed.yaml; designed.yaml's text

Builds on the proof room (solver/proof/) for the setup's flow model.
"""
