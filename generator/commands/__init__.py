"""Subcommands of `pnp`. Each module defines `register(subparsers)`; cli.py lists the modules."""
