"""Tharsis: a card language, its compiler and a game engine for Terraforming Mars-style games.

The installed package maps the repository's phase folders: `tharsis.compiler` (compiler/), `tharsis.runtime`
(runtime/), `tharsis.grammar` (grammar/) and `tharsis.cards` (cards/, the bundled content).
"""

__version__ = "0.1.0"
