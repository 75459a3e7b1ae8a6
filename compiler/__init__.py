"""The Tharsis compiler: card text in, compiled definitions and diagnostics out.

    text --parser.py--> Lark tree --syntax.py--> AST (spans) --checker.py--> compiled definitions (effects.py)
                                                                 \\--> diagnostics.py (text | json | github)

`compile_paths` is the one entry point: it finds `.mars` files, reads declarations, checks every file (from the
cache when the file, the declarations and the compiler are unchanged), then runs the cross-file checks.
"""

from __future__ import annotations

from .pipeline import CompileResult, bundled_cards_path, compile_paths, compile_text

__all__ = ["CompileResult", "compile_paths", "compile_text", "bundled_cards_path"]
