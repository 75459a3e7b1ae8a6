"""The language server: the Language Server Protocol over stdio (pygls), on top of analysis.py.

Every opened or changed card file is compiled at once and its diagnostics published (a file of a few hundred lines
compiles in about a tenth of a second; the bundled content comes from the compile cache). Hover and completion use
the latest compilation of the document. Positions cross the protocol in the client's encoding (UTF-16 unless it
negotiated another); pygls's position codec converts them to and from code points.
"""

from __future__ import annotations

from typing import Optional

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path
from pygls.workspace.position_codec import ServerTextPosition, ServerTextRange

from tharsis import __version__

from .analysis import Analysis, Completion, Range, analyse

_SEVERITY = {"error": lsp.DiagnosticSeverity.Error, "warning": lsp.DiagnosticSeverity.Warning}
_COMPLETION_KIND = {
    "field": lsp.CompletionItemKind.Property, "effect": lsp.CompletionItemKind.Keyword,
    "definition": lsp.CompletionItemKind.Keyword, "quantity": lsp.CompletionItemKind.Text,
    "card": lsp.CompletionItemKind.Class, "name": lsp.CompletionItemKind.Reference,
    "global parameter": lsp.CompletionItemKind.Variable, "terraform rating": lsp.CompletionItemKind.Variable,
}


class TharsisServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("tharsis", __version__, text_document_sync_kind=lsp.TextDocumentSyncKind.Incremental)
        self.analyses: dict[str, Analysis] = {}

    def refresh(self, uri: str) -> None:
        """Compile the document as it is now and publish its diagnostics."""
        document = self.workspace.get_text_document(uri)
        path = to_fs_path(uri)
        if path is None:  # an untitled buffer: no folder, no neighbours
            analysis = analyse(uri, document.source, on_disk=False)
        else:
            open_texts = {to_fs_path(u): d.source for u, d in self.workspace.text_documents.items()
                          if u != uri and to_fs_path(u)}
            analysis = analyse(path, document.source, open_texts)
        self.analyses[uri] = analysis
        diagnostics = [lsp.Diagnostic(range=self.client_range(uri, d.range), message=d.message,
                                      severity=_SEVERITY[d.severity], code=d.code, source="tharsis")
                       for d in analysis.diagnostics()]
        self.text_document_publish_diagnostics(
            lsp.PublishDiagnosticsParams(uri=uri, version=document.version, diagnostics=diagnostics))

    def client_range(self, uri: str, r: Range) -> lsp.Range:
        document = self.workspace.get_text_document(uri)
        return document.range_to_client_units(ServerTextRange(ServerTextPosition(r.start_line, r.start_character),
                                                              ServerTextPosition(r.end_line, r.end_character)))

    def server_position(self, uri: str, position: lsp.Position) -> ServerTextPosition:
        return self.workspace.get_text_document(uri).position_from_client_units(position)

    def analysis(self, uri: str) -> Analysis:
        if uri not in self.analyses:
            self.refresh(uri)
        return self.analyses[uri]


def build() -> TharsisServer:
    server = TharsisServer()

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: TharsisServer, params: lsp.DidOpenTextDocumentParams) -> None:
        ls.refresh(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: TharsisServer, params: lsp.DidChangeTextDocumentParams) -> None:
        ls.refresh(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: TharsisServer, params: lsp.DidSaveTextDocumentParams) -> None:
        # a saved file is context for its neighbours (a declared tag, a duplicate name): check them all again
        for uri in list(ls.workspace.text_documents):
            ls.refresh(uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: TharsisServer, params: lsp.DidCloseTextDocumentParams) -> None:
        ls.analyses.pop(params.text_document.uri, None)
        ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=params.text_document.uri,
                                                                          diagnostics=[]))

    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    def hover(ls: TharsisServer, params: lsp.HoverParams) -> Optional[lsp.Hover]:
        uri = params.text_document.uri
        at = ls.server_position(uri, params.position)
        markdown = ls.analysis(uri).hover(at.line, at.character)
        if markdown is None:
            return None
        return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=markdown))

    @server.feature(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=['"']))
    def completion(ls: TharsisServer, params: lsp.CompletionParams) -> lsp.CompletionList:
        uri = params.text_document.uri
        at = ls.server_position(uri, params.position)
        items = [_completion_item(ls, uri, c) for c in ls.analysis(uri).completions(at.line, at.character)]
        return lsp.CompletionList(is_incomplete=False, items=items)

    return server


def _completion_item(ls: TharsisServer, uri: str, c: Completion) -> lsp.CompletionItem:
    item = lsp.CompletionItem(label=c.label, kind=_COMPLETION_KIND.get(c.category, lsp.CompletionItemKind.Value),
                              detail=c.detail or None,
                              documentation=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=c.documentation)
                              if c.documentation else None)
    insert = c.insert_text if c.insert_text is not None else c.label
    if c.replace is not None:
        item.text_edit = lsp.TextEdit(range=ls.client_range(uri, c.replace), new_text=insert)
        item.filter_text = c.label
    elif insert != c.label:
        item.insert_text = insert
    return item


def serve() -> None:
    """Speak LSP on stdin/stdout until the client says exit."""
    build().start_io()
