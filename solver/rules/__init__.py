"""Rules as data: clause files, gettext PO translations, glossaries, translation QA, the clause citations pieces print (cite.py) and the definitions a term used early cites (terms.py)."""
