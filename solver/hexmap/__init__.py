"""hexmap: the logic of hex maps, apart from drawing them (that is generator/hexmap/).

    hexes.py     pure hex-grid mathematics (Red Blob Games): coordinates, neighbours, hexsides,
                 offset layouts and the labels a map prints
    movement.py  how far a unit moves: shortest paths under the map's terrain and river rules
    mapcheck.py  `pnp check`'s map checks: the map agrees with itself and with the rules that cite it

hexes.py imports nothing of the project, so the game model (solver/game/map.py) may use it;
movement.py and mapcheck.py read the model.
"""
