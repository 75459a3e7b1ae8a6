"""The language server: the Language Server Protocol over stdio (pygls), on top of analysis.py.

An opened card file is compiled at once and its diagnostics published (a file of a few hundred lines compiles in
about a tenth of a second; the bundled content comes from the compile cache). Changes are coalesced: a document is
compiled again once its changes pause for COMPILE_DELAY (or have waited COMPILE_DELAY_MAX while typing goes on), so
a burst of edits compiles once, not once per keystroke; a hover or completion on a document with changes not yet
compiled compiles its latest text first. Positions cross the protocol in the client's encoding (UTF-16 unless it
negotiated another); pygls's position codec converts them to and from code points. transport.py carries the
messages on stdio (pygls's own loop hangs on a broken frame) and keeps the lifecycle.
"""

from __future__ import annotations

import asyncio
import sys
from typing import Optional

from lsprotocol import types as lsp
from pygls.exceptions import FeatureNotificationError
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path
from pygls.workspace.position_codec import ServerTextPosition, ServerTextRange

from tharsis import __version__
from tharsis.problems import CONTENT, Problem, ProblemError

from . import transport
from .analysis import Analysis, Completion, Range, analyse

COMPILE_DELAY = 0.25        # seconds of quiet after a change before the document is compiled again
COMPILE_DELAY_MAX = 1.0     # ... but no longer after its first change not compiled, while the changes go on
FRAMING_HINT = ("each message is `Content-Length: N`, a blank line, then N bytes of JSON; the server cannot tell "
                "where the next message begins, so it stops (the editor starts a new one)")

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
        self.pending: dict[str, tuple[asyncio.TimerHandle, float]] = {}  # uri -> compile timer, first change

    def refresh_later(self, uri: str) -> None:
        """Compile the document once its changes pause (COMPILE_DELAY), or COMPILE_DELAY_MAX after the first
        change not compiled yet, whichever comes first."""
        loop = asyncio.get_running_loop()
        now = loop.time()
        timer, since = self.pending.pop(uri, (None, now))
        if timer is not None:
            timer.cancel()
        self.pending[uri] = (loop.call_at(min(now + COMPILE_DELAY, since + COMPILE_DELAY_MAX),
                                          self._refresh_pending, uri), since)

    def _refresh_pending(self, uri: str) -> None:
        try:
            self.refresh(uri)
        except Exception as exc:  # a timer's failure, reported as a handler's would be
            self.report_server_error(exc, FeatureNotificationError)

    def cancel_refresh(self, uri: str) -> None:
        timer, _ = self.pending.pop(uri, (None, None))
        if timer is not None:
            timer.cancel()

    def refresh(self, uri: str) -> None:
        """Compile the document as it is now and publish its diagnostics."""
        self.cancel_refresh(uri)
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
        """The compilation of the document's latest text."""
        if uri not in self.analyses or uri in self.pending:
            self.refresh(uri)
        return self.analyses[uri]


def build() -> TharsisServer:
    server = TharsisServer()

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: TharsisServer, params: lsp.DidOpenTextDocumentParams) -> None:
        ls.refresh(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: TharsisServer, params: lsp.DidChangeTextDocumentParams) -> None:
        ls.refresh_later(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: TharsisServer, params: lsp.DidSaveTextDocumentParams) -> None:
        # a saved file is context for its neighbours (a declared tag, a duplicate name): check them all again
        for uri in list(ls.workspace.text_documents):
            ls.refresh_later(uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: TharsisServer, params: lsp.DidCloseTextDocumentParams) -> None:
        ls.cancel_refresh(params.text_document.uri)
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


def serve(stdin=None, stdout=None, stall: float = transport.STALL) -> int:
    """Speak LSP on stdin/stdout until the client says exit (or goes away); the exit code, 0 after `shutdown` and
    1 without. Input that breaks the protocol's framing is E722 (exit 1)."""
    try:
        return transport.serve(build(), stdin or sys.stdin.buffer, stdout or sys.stdout.buffer, stall)
    except transport.FramingError as exc:
        raise ProblemError([Problem("E722", f"the language server's input is not LSP: {exc}", FRAMING_HINT)],
                           CONTENT) from None

