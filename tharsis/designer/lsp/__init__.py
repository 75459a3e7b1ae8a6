"""`tharsis lsp`: a language server for card files, so an editor shows what `tharsis check` would say as you type,
and helps write what it accepts.

What the editor shows, in plain data and independent of the protocol: `analysis.py` (one document compiled with its
project, `project.py`: diagnostics with their fixes, hover, formatting through tharsis/designer/fmt.py),
`completion.py`, `navigation.py` (go-to-definition, the outline) and `highlight.py` (semantic tokens), all reading the
text through `grammar_context.py` (the compiler's own parser: the tokens, what it accepts next, the rule that holds each
name) and `roles.py` (what a name means by that rule), in the shapes of `items.py`; `glossary.py` says what each word of
the language means. `server.py` is the Language Server Protocol's features with pygls, an optional extra (`pip install
'tharsis[lsp]'`), and `transport.py` its messages on stdio, read strictly within bounds, and the session's lifecycle.
`textmate.py` generates the TextMate grammar (grammar/tharsis.tmLanguage.json) that editors colour files with before the
server runs. Nothing else in Tharsis imports this package.
"""
