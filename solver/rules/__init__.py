"""Rules as data: clause files, gettext PO translations, glossaries, translation QA, and the clause citations pieces print (cite.py)."""
