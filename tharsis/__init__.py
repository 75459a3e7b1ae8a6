"""Tharsis: a card language, its compiler and a game engine for Terraforming Mars-style games.

The installed package maps the repository's phase folders: `tharsis.compiler` (compiler/), `tharsis.runtime`
(runtime/), `tharsis.grammar` (grammar/) and `tharsis.cards` (cards/, the bundled content).

Imported from a checkout instead (the repository's root on sys.path: `python -m tharsis` there, or the workers Ray
starts, which put the working directory first), this folder alone would lack those subpackages and hide the
installed ones; so the root is searched too, and the checkout is the whole package, as an editable install makes it.
"""

from pathlib import Path as _Path

__version__ = "0.1.0"

_root = _Path(__file__).resolve().parent.parent
if all((_root / name / "__init__.py").is_file() for name in ("compiler", "runtime", "grammar", "cards")) and \
        (_root / "pyproject.toml").is_file():
    __path__.append(str(_root))  # noqa: F821 - a package's __path__
