"""Packaging beside pyproject.toml (which holds everything else): the code's packages, and the
example data shipped inside the wheel as `pnp_forge_data`, so that `pip install .` gives a `pnp`
that finds the example games from any folder (solver/loader.py looks for them there)."""
from setuptools import find_packages, setup

setup(
    packages=find_packages(include=["generator*", "solver*"]) + ["pnp_forge_data"],
    package_dir={"pnp_forge_data": "data"},
    package_data={"generator": ["fonts/*", "templates/new-game/*", "templates/new-game/rules/*"],
                  "pnp_forge_data": ["**/*"]},
)
