"""Rules as data: clause files, gettext PO translations, glossaries and translation QA."""
