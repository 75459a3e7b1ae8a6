"""`tharsis lsp`: a language server for card files, so an editor shows what `tharsis check` would say as you type.

`analysis.py` is what the editor shows (diagnostics, hover, completion) in plain data, `glossary.py` what each word
of the language means, `server.py` the Language Server Protocol over stdio with pygls, an optional extra
(`pip install 'tharsis[lsp]'`): nothing else in Tharsis imports this package.
"""
