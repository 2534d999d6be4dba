"""Packaging beside pyproject.toml (which holds everything else, package data included): the code's
packages, and data/ shipped inside the wheel as the package `pnp_forge_data`, so that `pip install .`
gives a `pnp` that finds the example games from any folder (solver/game/loader.py looks for them there)."""
from setuptools import find_packages, setup

setup(
    packages=find_packages(include=["generator*", "solver*"]) + ["pnp_forge_data"],
    package_dir={"pnp_forge_data": "data"},
)
