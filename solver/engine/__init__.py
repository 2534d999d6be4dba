"""The rules engine: a game's setup.yaml executed for every player count, by counting.

Each setup step is first resolved into primitive `Move`s (take copies of some items from some
zones into another zone). The engine executes the moves by plain counting; the CP-SAT checker
(solver/proof/checker.py) compiles the very same moves into a model, so the two read the setup one way.

Zones an item copy can be in during setup:

    box       still in the box, not yet touched by the setup
    pile      in play as part of a pile (a component's own deck, or a `combine` target)
    dealt     dealt to the players (hands and secret roles)
    set_aside drawn unseen and put out of this round
    placed    placed on the board/table or given to a player (pedestals, start cards)
    supply    a common supply beside the board
    returned  put back in the box by a step

`deal` and `give` go to `recipients` players (default every player: `1` is the Sauron player,
`players - 1` everyone else). `return_rest` puts back what no step took out of the box and, once
a pile has been dealt or drawn from, what is left of it (Saboteur's undealt dwarf cards, unseen): which kinds are
left is as random as the deal, so that move is a draw of the whole rest of the pile.
A shuffle changes no count. A draw of `total` copies from a pile of several item kinds is random;
the engine keeps it as a count per pile (which kinds are drawn is the odds module's business).
Copies the sources do not count: a component's stated total less its counted items is one
anonymous item, and copies a step asks of uncounted kinds beyond that are taken as there and
reported (`SetupResult.assumed`, `uncounted_needed` in the report), so the tables stay right.

Optional rules that change the setup are setup.yaml `variants:`; a step or constraint guarded by
`when: variant('team-play')` applies only when that variant is played (`variant()` is false in the
base setup). Each variant is run at the counts it applies to, on top of the base setup.

The modules:

    run.py      the public API (used by the checker, the report and the rulebook):
                run_setup(game, players, variant=None) -> SetupResult
                setup_table(game) -> dict[int, SetupResult]   every player count the game supports
                variant_tables(game) -> {variant id: {count: SetupResult}}   each variant at its counts
                player_counts(game), variant_counts(game, variant): the counts they cover
    results.py  what a run yields: SetupResult (its report() is the DESIGN.md "player_counts"
                entry of one count, plus `placements`), the Moves, Draws, Shortages and Placements
    items.py    item selection and counting: which items a selector matches, the copies in the box
    steps.py    naming and guarding steps: step_label, step_location, when_functions (`variant(id)`)
    runner.py   the Runner: one method per step kind, each resolving its step into Moves, and the
                counting that executes them
"""
