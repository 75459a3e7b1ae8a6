"""`tharsis lsp`: a language server for card files, so an editor shows what `tharsis check` would say as you type.

`analysis.py` is what the editor shows (diagnostics, hover, completion) in plain data, `glossary.py` what each word
of the language means, `server.py` the Language Server Protocol's features with pygls, an optional extra
(`pip install 'tharsis[lsp]'`), and `transport.py` its messages on stdio, read strictly within bounds, and the
session's lifecycle: nothing else in Tharsis imports this package.
"""
