"""`tharsis lsp`: the language server for editors, over stdin/stdout (docs/editor.md)."""

from __future__ import annotations

from tharsis.problems import USAGE, Problem, ProblemError

INSTALL_HINT = "pip install 'tharsis[lsp]'"


def add_parser(sub) -> None:
    lsp = sub.add_parser("lsp", help="the language server for editors (stdio)",
                         description="Speak the Language Server Protocol on stdin/stdout: diagnostics as you type, "
                                     "hover with rules text, completion from the grammar, formatting (tharsis fmt), "
                                     "go to definition, quick fixes, the outline and semantic colours. Started by "
                                     "the editor; see docs/editor.md (VS Code: grammar/vscode).")
    lsp.add_argument("--stdio", action="store_true", help="accepted for editors that pass it; stdio is the default")
    lsp.set_defaults(run=run)


def run(args) -> int:
    try:
        from tharsis.designer.lsp.server import serve
    except ImportError as exc:
        if exc.name is None or exc.name.split(".")[0] not in ("pygls", "lsprotocol"):
            raise
        raise ProblemError([Problem("E720", "the language server needs pygls, which is not installed", INSTALL_HINT)],
                           USAGE) from None
    return serve()
