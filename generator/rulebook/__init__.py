"""Rulebooks: typeset clauses, translations, components, setup tables and glossary into PDF (drawstring.py: a line of book text on the canvas, run by run)."""
