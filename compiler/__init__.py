"""The Tharsis compiler: card text in, compiled definitions and diagnostics out.

    text --parser.py--> Lark tree --syntax.py--> AST (spans) --checker.py--> compiled definitions (effects.py)
                                                                 \\--> diagnostics.py (text | json | github)

`compile_paths` is the one entry point: it finds `.mars` files, reads declarations, checks every file (from the
cache when the file, the declarations and the compiler are unchanged), then runs the cross-file checks.
"""

from __future__ import annotations

__all__ = ["CompileResult", "compile_paths", "compile_text", "compile_sources", "bundled_cards_path"]


def __getattr__(name: str):
    # Imported on first use, so the runtime can import compiled types (tharsis.compiler.effects) without
    # loading the parser, and a warm `tharsis check` never imports Lark at all.
    if name in __all__:
        from . import pipeline

        return getattr(pipeline, name)
    raise AttributeError(name)
