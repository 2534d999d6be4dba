"""The game model and its loading: what every file of a game folder means, and how it is read.

One module per data file, each a set of pydantic models that refuse unknown keys:

    base.py          what they all share: Model, localised text (`pick`), ids, counts, expressions
    meta.py          game.yaml: titles, people, player counts, languages, fonts, sources, gaps
    components.py    components.yaml: components, their items and faces, sizes (`size_mm`)
    setup.py         setup.yaml: steps, constraints, variants, locations
    layouts.py       layouts.yaml: how cards and counters look (fields, palettes, symbols)
    map.py           map.yaml: the hex map and what the rules assert about it
    proposals.py     proposed.yaml: counts the solver proposed (pnp propose)
    targets.py       targets.yaml: what a designer wants of the counts (odds, ranges, box size)
    designs.py       designed.yaml: the counts `pnp design` chose to meet them, with their values

Loading a game folder (`loader.load_game`) reads and validates every file, collecting every
problem of the folder before it raises one `DataError`:

    loader.py          load_game, load_meta, the `Game` it returns
    folders.py         where the data is, the examples' ids, a game named by id or folder (no models:
                       what a build that finds nothing changed needs)
    validate.py        a model's value from parsed data, its pydantic errors as file:line:col problems
    items_files.py     card lists in CSV or XLSX, and ids unique across components and items
    cross_checks.py    one file against the others: setup names components and variants, sources cited
    yamlsrc.py         YAML and CSV read with a line:column for every value (`Locator`)
    filememo.py        what was parsed from a file, kept per process for the same text (`TextMemo`)
    objmemo.py         what was worked out from a loaded game, kept while it lives (`kept_for`)
    sheets.py          XLSX read the same way
    columns.py         what a card list's columns mean
    renames.py         old spellings of renamed keys, read with a note
    references.py      every id the files name resolves (places, layouts, items)
    map_references.py  references inside map.yaml
    limits.py          bounds on what a game folder from a stranger may cost
    fontfiles.py       the designer's own font files (game.yaml `fonts:`): checked, weights, licence
    usage.py           what loads but prints wrong: attributes no item has, unused columns, ... (warnings)

The rulebook's clause model (`rules/clauses.yaml`) lives with the rest of the rules in
`solver/rules/`; the loader reads it as one more optional file.
"""
