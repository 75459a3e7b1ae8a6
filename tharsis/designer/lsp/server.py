"""The language server: the Language Server Protocol over stdio (pygls), on top of analysis.py.

Features: diagnostics as you type, hover, completion, formatting (`tharsis fmt`), go-to-definition, code actions
(the compiler's fixes, one quick fix each, and "fix all"), document symbols (the outline) and semantic tokens.

An opened card file is compiled at once and its diagnostics published (a file of a few hundred lines compiles in
about a tenth of a second; the bundled content comes from the compile cache). Changes are coalesced: a document is
compiled again once its changes pause for COMPILE_DELAY (or have waited COMPILE_DELAY_MAX while typing goes on), so
a burst of edits compiles once, not once per keystroke; a hover or completion on a document with changes not yet
compiled compiles its latest text first. Positions cross the protocol in the client's encoding (UTF-16 unless it
negotiated another); columns.py converts the server's code points to them in time linear in the document
(pygls's codec, which counts each position afresh, converts the few positions a client sends). Semantic tokens are
read on a worker thread, so a hover or a completion asked meanwhile is answered. transport.py carries the
messages on stdio (pygls's own loop hangs on a broken frame) and keeps the lifecycle.
"""

from __future__ import annotations

import asyncio
import sys
from typing import Optional

from lsprotocol import types as lsp
from pygls.exceptions import FeatureNotificationError
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path
from pygls.workspace.position_codec import ServerTextPosition, ServerTextRange

from tharsis import __version__
from tharsis.problems import CONTENT, Problem, ProblemError

from . import transport
from .analysis import Analysis, analyse
from .columns import Columns
from .highlight import TOKEN_MODIFIERS, TOKEN_TYPES
from .items import Completion, Edit, EditorDiagnostic, Location, Range, Symbol

COMPILE_DELAY = 0.25        # seconds of quiet after a change before the document is compiled again
COMPILE_DELAY_MAX = 1.0     # ... but no longer after its first change not compiled, while the changes go on
FRAMING_HINT = ("each message is `Content-Length: N`, a blank line, then N bytes of JSON; the server cannot tell "
                "where the next message begins, so it stops (the editor starts a new one)")

_SEVERITY = {"error": lsp.DiagnosticSeverity.Error, "warning": lsp.DiagnosticSeverity.Warning}
_COMPLETION_KIND = {
    "field": lsp.CompletionItemKind.Property, "effect": lsp.CompletionItemKind.Keyword,
    "definition": lsp.CompletionItemKind.Keyword, "quantity": lsp.CompletionItemKind.Text,
    "card": lsp.CompletionItemKind.Class, "name": lsp.CompletionItemKind.Reference,
    "raisable": lsp.CompletionItemKind.Variable, "raised": lsp.CompletionItemKind.Variable,
    "leeway": lsp.CompletionItemKind.Variable, "parameter": lsp.CompletionItemKind.Variable,
    "keyword": lsp.CompletionItemKind.Keyword, "operator": lsp.CompletionItemKind.Operator,
    "tag": lsp.CompletionItemKind.EnumMember, "resource": lsp.CompletionItemKind.EnumMember,
    "card resource": lsp.CompletionItemKind.EnumMember, "tile": lsp.CompletionItemKind.EnumMember,
}
_SYMBOL_KIND = {
    "card": lsp.SymbolKind.Class, "corporation": lsp.SymbolKind.Module,
    "standard_project": lsp.SymbolKind.Function, "standard_action": lsp.SymbolKind.Method,
    "milestone": lsp.SymbolKind.Event, "award": lsp.SymbolKind.Object, "board": lsp.SymbolKind.Namespace,
    "parameter": lsp.SymbolKind.Variable, "card_kind": lsp.SymbolKind.Interface, "rule": lsp.SymbolKind.Operator,
    "expansion": lsp.SymbolKind.Package, "card resource": lsp.SymbolKind.EnumMember, "tag": lsp.SymbolKind.Key,
    "field": lsp.SymbolKind.Property,
}


class TharsisServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("tharsis", __version__, text_document_sync_kind=lsp.TextDocumentSyncKind.Incremental)
        self.analyses: dict[str, Analysis] = {}
        self.pending: dict[str, tuple[asyncio.TimerHandle, float]] = {}  # uri -> compile timer, first change
        self._columns: dict[str, tuple] = {}   # uri -> (version, text, its Columns)

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
        diagnostics = [self.client_diagnostic(uri, d) for d in analysis.diagnostics()]
        self.text_document_publish_diagnostics(
            lsp.PublishDiagnosticsParams(uri=uri, version=document.version, diagnostics=diagnostics))

    def client_diagnostic(self, uri: str, d: EditorDiagnostic) -> lsp.Diagnostic:
        return lsp.Diagnostic(range=self.client_range(uri, d.range), message=d.message,
                              severity=_SEVERITY[d.severity], code=d.code, source="tharsis")

    def client_edit(self, uri: str, edit: Edit) -> lsp.TextEdit:
        return lsp.TextEdit(range=self.client_range(uri, edit.range), new_text=edit.text)

    def client_range(self, uri: str, r: Range) -> lsp.Range:
        columns = self.columns(uri)
        return lsp.Range(lsp.Position(r.start_line, columns.to_client(r.start_line, r.start_character)),
                         lsp.Position(r.end_line, columns.to_client(r.end_line, r.end_character)))

    def columns(self, uri: str) -> Columns:
        """The document's columns in the client's units, counted once per version (columns.py: pygls's codec
        counts each position afresh, which made a long line's diagnostics and tokens quadratic)."""
        document = self.workspace.get_text_document(uri)
        source = document.source
        version, counted, columns = self._columns.get(uri, (None, None, None))
        if columns is None or version != document.version or counted != source:
            columns = Columns(source, self.workspace.position_codec.encoding)
            self._columns[uri] = (document.version, source, columns)
        return columns

    def location(self, place: Location, analysis: Analysis) -> lsp.Location:
        """A place in any file (a bundled one too, open or not) in the client's units."""
        documents = self.workspace.text_documents
        uri = place.path if place.path in documents else from_fs_path(place.path) or place.path  # untitled: a uri
        text = documents[uri].source if uri in documents else analysis.result.sources.get(place.path, "")
        r = place.range
        return lsp.Location(uri=uri, range=self.workspace.position_codec.range_to_client_units(
            text.split("\n"), ServerTextRange(ServerTextPosition(r.start_line, r.start_character),
                                               ServerTextPosition(r.end_line, r.end_character))))

    def server_range(self, uri: str, r: lsp.Range) -> Range:
        document = self.workspace.get_text_document(uri)
        converted = document.range_from_client_units(r)
        return Range(converted.start.line, converted.start.character, converted.end.line, converted.end.character)

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
        ls._columns.pop(params.text_document.uri, None)
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

    @server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
    def definition(ls: TharsisServer, params: lsp.DefinitionParams) -> Optional[list[lsp.Location]]:
        uri = params.text_document.uri
        at = ls.server_position(uri, params.position)
        analysis = ls.analysis(uri)
        return [ls.location(place, analysis) for place in analysis.definition(at.line, at.character)] or None

    @server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    def document_symbol(ls: TharsisServer, params: lsp.DocumentSymbolParams) -> list[lsp.DocumentSymbol]:
        uri = params.text_document.uri
        return [_symbol(ls, uri, symbol) for symbol in ls.analysis(uri).symbols()]

    @server.feature(lsp.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL,
                    lsp.SemanticTokensLegend(token_types=list(TOKEN_TYPES), token_modifiers=list(TOKEN_MODIFIERS)))
    async def semantic_tokens(ls: TharsisServer, params: lsp.SemanticTokensParams) -> lsp.SemanticTokens:
        """Read on a worker thread: the requests that come meanwhile (a hover, a completion) are answered."""
        analysis = ls.analysis(params.text_document.uri)
        encoding = ls.workspace.position_codec.encoding
        return await asyncio.get_running_loop().run_in_executor(None, _semantic_tokens, analysis, encoding)

    @server.feature(lsp.TEXT_DOCUMENT_FORMATTING)
    def formatting(ls: TharsisServer, params: lsp.DocumentFormattingParams) -> Optional[list[lsp.TextEdit]]:
        uri = params.text_document.uri
        edits, refusals = ls.analysis(uri).formatted()
        if edits is None:
            if refusals:  # fmt's own reasons; a file with errors has none (they are underlined already)
                ls.window_show_message(lsp.ShowMessageParams(
                    type=lsp.MessageType.Warning,
                    message="tharsis fmt: not formatted: " + "; ".join(f"{p.code} {p.message}" for p in refusals)))
            return None
        return [ls.client_edit(uri, edit) for edit in edits]

    @server.feature(lsp.TEXT_DOCUMENT_CODE_ACTION,
                    lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix,
                                                             lsp.CodeActionKind.SourceFixAll]))
    def code_action(ls: TharsisServer, params: lsp.CodeActionParams) -> list[lsp.CodeAction]:
        uri = params.text_document.uri
        analysis = ls.analysis(uri)
        only = params.context.only
        actions = []
        if not only or any(lsp.CodeActionKind.QuickFix.value.startswith(kind) for kind in only):
            for diagnostic, fix in analysis.fixes(ls.server_range(uri, params.range)):
                actions.append(lsp.CodeAction(
                    title=_fix_title(analysis.text, fix), kind=lsp.CodeActionKind.QuickFix,
                    diagnostics=[ls.client_diagnostic(uri, diagnostic)], is_preferred=len(diagnostic.fixes) == 1,
                    edit=lsp.WorkspaceEdit(changes={uri: [ls.client_edit(uri, fix)]})))
        # "fix all" when asked for source actions (the Source Action menu, `codeActionsOnSave: source.fixAll`)
        if only and any(lsp.CodeActionKind.SourceFixAll.value.startswith(kind) for kind in only):
            every = _without_overlaps([d.fixes[0] for d in analysis.diagnostics() if len(d.fixes) == 1])
            if every:
                actions.append(lsp.CodeAction(
                    title=f"Fix all: apply {len(every)} fix{'es' if len(every) != 1 else ''} (tharsis check --fix)",
                    kind=lsp.CodeActionKind.SourceFixAll,
                    edit=lsp.WorkspaceEdit(changes={uri: [ls.client_edit(uri, fix) for fix in every]})))
        return actions

    return server


def _semantic_tokens(analysis: Analysis, encoding) -> lsp.SemanticTokens:
    columns = Columns(analysis.text, encoding)
    data: list[int] = []  # five numbers a token, each position relative to the token before (the protocol's)
    previous_line = previous_start = 0
    for token in analysis.semantic_tokens():
        start = columns.to_client(token.line, token.character)
        length = columns.to_client(token.line, token.character + token.length) - start
        data += [token.line - previous_line, start - previous_start if token.line == previous_line else start,
                 length, TOKEN_TYPES.index(token.type),
                 sum(1 << TOKEN_MODIFIERS.index(modifier) for modifier in token.modifiers)]
        previous_line, previous_start = token.line, start
    return lsp.SemanticTokens(data=data)


def _fix_title(text: str, fix: Edit) -> str:
    lines = text.split("\n")
    r = fix.range
    if r.start_line == r.end_line:
        old = lines[r.start_line][r.start_character:r.end_character] if r.start_line < len(lines) else ""
    else:
        old = ""
    if old and fix.text:
        return f"Replace '{old}' with '{fix.text}'"
    if old:
        return f"Remove '{old}'"
    return f"Insert '{fix.text}'" if fix.text else "Apply the fix"


def _without_overlaps(fixes: list[Edit]) -> list[Edit]:
    """The fixes in document order, leaving out any that overlaps one before it (an editor refuses overlapping
    edits in one change)."""
    kept: list[Edit] = []
    for fix in sorted(fixes, key=lambda f: (f.range.start_line, f.range.start_character)):
        if not kept or (kept[-1].range.end_line, kept[-1].range.end_character) <= \
                (fix.range.start_line, fix.range.start_character):
            kept.append(fix)
    return kept


def _symbol(ls: TharsisServer, uri: str, symbol: Symbol) -> lsp.DocumentSymbol:
    return lsp.DocumentSymbol(name=symbol.name, kind=_SYMBOL_KIND.get(symbol.kind, lsp.SymbolKind.Object),
                              detail=symbol.detail or None, range=ls.client_range(uri, symbol.range),
                              selection_range=ls.client_range(uri, symbol.selection),
                              children=[_symbol(ls, uri, child) for child in symbol.children] or None)


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

