"""Rulebooks: typeset clauses, translations, components, setup tables and glossary into PDF."""
