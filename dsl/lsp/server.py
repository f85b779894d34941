"""The language server: pygls wiring from LSP requests to this package's answers.

Each open document is analysed when it opens and after it changes (schedule.py: only the
latest text, off the thread that answers requests), and its diagnostics published; requests
read the latest analysis. A document longer than `check` accepts gets `check`'s error and
no analysis. Before `initialize` a request is answered ServerNotInitialized; a request about
a document that is not open is answered null. Hover speaks the client's language:
`initializationOptions: {"lang": "ja"}`, else the client's locale, else English. The only
module here that imports pygls and lsprotocol.
"""
from __future__ import annotations

import logging
import os
import sys
from importlib.metadata import PackageNotFoundError, version
from typing import Optional

from lsprotocol import types as T
from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams, JsonRpcServerNotInitialized
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.uris import from_fs_path, to_fs_path

from ..language.diagnostics import Diagnostic
from ..language import syntax as S
from .actions import actions
from .completion import complete, keyword_of, lark_parser
from .hover import hover
from .outline import outline
from .resolve import Analysis, Workspace
from .schedule import Scheduler
from .stream import REFUSED, GuardedInput
from .tokens import NAME, word_at

log = logging.getLogger(__name__)


def _version() -> str:
    try:
        return version("playtest")
    except PackageNotFoundError:
        return "0"


class _Protocol(LanguageServerProtocol):
    """Before `initialize`, a request is answered ServerNotInitialized and a notification
    dropped, as the protocol asks (pygls would run them against a workspace not yet made)."""

    def _handle_request(self, msg_id, method_name, params):
        if self._workspace is None and method_name not in (T.INITIALIZE, REFUSED):
            self._send_response(msg_id, None, JsonRpcServerNotInitialized(
                f"the server is not initialized: send 'initialize' before '{method_name}'").to_response_error())
            return
        super()._handle_request(msg_id, method_name, params)

    def _handle_notification(self, method_name, params):
        if self._workspace is None and method_name != T.EXIT:
            return
        super()._handle_notification(method_name, params)


class RulesServer(LanguageServer):
    def __init__(self):
        super().__init__("playtest", _version(), protocol_cls=_Protocol)
        self.lang = "en"
        self.analyses: dict[str, Analysis] = {}     # by uri: the last finished, possibly of an older text
        self.texts: dict[str, str] = {}             # by path: the open documents' texts, as analyses read them
        self.rules = Workspace(lambda p: self.texts.get(os.path.normpath(os.path.abspath(p))))  # the analysis thread's only
        self.schedule = Scheduler(self._job, self._finish)

    def opened(self, uri: str) -> bool:
        return uri in self.workspace.text_documents

    def _job(self, uri: str):
        doc = self.workspace.text_documents.get(uri)
        if doc is None:
            return None
        path, text = _path(uri), doc.source
        return lambda: self.rules.analyse(path, text)

    def _finish(self, uri: str, future) -> None:
        if future.exception() is not None:
            e = future.exception()
            log.error("analysis of %s failed", uri, exc_info=(type(e), e, e.__traceback__))
            self.window_show_message(T.ShowMessageParams(type=T.MessageType.Error, message=f"Error in server: {e!r}"))
            return
        a = future.result()
        doc = self.workspace.text_documents.get(uri)
        if doc is None:
            return                                  # closed while it was analysed
        self.analyses[uri] = a
        if doc.source == a.text:                    # else a newer text is due: its diagnostics will follow
            self.publish(uri, a, doc.version)

    def record(self, uri: str) -> None:
        """The document's text as the analyses read it, and its analysis due."""
        self.texts[_path(uri)] = self.workspace.get_text_document(uri).source
        self.schedule.changed(uri)

    async def analysis(self, uri: str) -> Optional[Analysis]:
        """The latest analysis of an open document (waiting a moment for one that is due); None if
        the document is not open or has none yet."""
        if not self.opened(uri):
            return None
        await self.schedule.settled(uri)
        return self.analyses.get(uri)

    def publish(self, uri: str, a: Analysis, version) -> None:
        lines = a.text.split("\n")
        self.text_document_publish_diagnostics(T.PublishDiagnosticsParams(
            uri=uri, version=version, diagnostics=[_diagnostic(d, lines) for d in a.diagnostics]))


_KINDS = {
    "game": T.SymbolKind.Module, "setup": T.SymbolKind.Module, "play": T.SymbolKind.Module,
    "variant": T.SymbolKind.Package, "patch": T.SymbolKind.Field, "rule": T.SymbolKind.Function,
    "trigger": T.SymbolKind.Event, "step": T.SymbolKind.Namespace, "phase": T.SymbolKind.Namespace,
    "question": T.SymbolKind.Key, "parameter": T.SymbolKind.Constant, "counter": T.SymbolKind.Variable,
    "variable": T.SymbolKind.Variable, "zone": T.SymbolKind.Array, "dice": T.SymbolKind.Object,
    "deck": T.SymbolKind.Object, "token": T.SymbolKind.Object, "board": T.SymbolKind.Struct,
    "value": T.SymbolKind.Property, "order": T.SymbolKind.Enum,
}
_COMPLETION = {
    "keyword": T.CompletionItemKind.Keyword, "rule": T.CompletionItemKind.Function,
    "builtin": T.CompletionItemKind.Function, "question": T.CompletionItemKind.Reference,
    "step": T.CompletionItemKind.Module, "parameter": T.CompletionItemKind.Constant,
    "zone": T.CompletionItemKind.Folder, "value": T.CompletionItemKind.Property,
    "local": T.CompletionItemKind.Variable, "constant": T.CompletionItemKind.Constant,
    "counter": T.CompletionItemKind.Variable, "variable": T.CompletionItemKind.Variable,
}
_SEVERITY = {"error": T.DiagnosticSeverity.Error, "warning": T.DiagnosticSeverity.Warning}


def _path(uri: str) -> str:
    path = to_fs_path(uri)
    return os.path.normpath(os.path.abspath(path)) if path else uri


def _uri(path: str) -> str:
    return from_fs_path(path) or path


def _range(line: int, start: int, end: int) -> T.Range:
    return T.Range(T.Position(line, start), T.Position(line, end))


def _span_range(span: S.Span, lines: list[str]) -> T.Range:
    """A span as a range; one that runs over several lines (a whole declaration) shows on its first."""
    line = max(span.line - 1, 0)
    start = max(span.column - 1, 0)
    if span.end_line != span.line:
        end = len(lines[line]) if line < len(lines) else start + 1
    else:
        end = max(span.end_column - 1, start + 1)
    return _range(line, start, max(end, start + 1))


def _diagnostic(d: Diagnostic, lines: list[str]) -> T.Diagnostic:
    return T.Diagnostic(range=_span_range(d.span, lines), message=d.message + (f"\nhint: {d.hint}" if d.hint else ""),
                        severity=_SEVERITY.get(d.severity, T.DiagnosticSeverity.Information), source="playtest")


server = RulesServer()


@server.feature(T.INITIALIZE)
def _initialize(ls: RulesServer, params: T.InitializeParams):
    options = params.initialization_options if isinstance(params.initialization_options, dict) else {}
    lang = options.get("lang") or (params.locale or "en")
    ls.lang = "ja" if str(lang).lower().startswith("ja") else "en"
    lark_parser()       # built once here (0.2-0.5 s), not on the first keystroke


@server.feature(T.TEXT_DOCUMENT_DID_OPEN)
def _did_open(ls: RulesServer, params: T.DidOpenTextDocumentParams):
    ls.record(params.text_document.uri)


@server.feature(T.TEXT_DOCUMENT_DID_CHANGE)
def _did_change(ls: RulesServer, params: T.DidChangeTextDocumentParams):
    uri = params.text_document.uri
    ls.record(uri)
    # open variants are checked against the game and the variants they build on: re-check them
    for other, a in list(ls.analyses.items()):
        if other != uri and a.is_variant and ls.opened(other):
            ls.schedule.changed(other)


@server.feature(T.TEXT_DOCUMENT_DID_CLOSE)
def _did_close(ls: RulesServer, params: T.DidCloseTextDocumentParams):
    uri = params.text_document.uri
    ls.schedule.forget(uri)
    ls.analyses.pop(uri, None)
    ls.texts.pop(_path(uri), None)
    ls.text_document_publish_diagnostics(T.PublishDiagnosticsParams(uri=uri, diagnostics=[]))


@server.feature(T.TEXT_DOCUMENT_HOVER)
async def _hover(ls: RulesServer, params: T.HoverParams):
    a = await ls.analysis(params.text_document.uri)
    text = a and hover(a, params.position.line, params.position.character, ls.lang)
    if not text:
        return None
    return T.Hover(contents=T.MarkupContent(kind=T.MarkupKind.Markdown, value=text))


@server.feature(T.TEXT_DOCUMENT_COMPLETION, T.CompletionOptions(trigger_characters=[" ", "("]))
async def _completion(ls: RulesServer, params: T.CompletionParams):
    a = await ls.analysis(params.text_document.uri)
    if a is None:
        return None
    items = complete(a, params.position.line, params.position.character)
    return T.CompletionList(is_incomplete=False, items=[
        T.CompletionItem(label=i.label, kind=_COMPLETION.get(i.kind, T.CompletionItemKind.Variable),
                         detail=i.detail or i.kind, insert_text=i.insert or None) for i in items])


def _locations(locs) -> list[T.Location]:
    return [T.Location(uri=_uri(l.path), range=_range(l.line, l.start, l.end)) for l in locs]


async def _name_under(ls: RulesServer, params) -> tuple[Optional[Analysis], str | None]:
    """The document's analysis and the declared name under the request's position (None if none)."""
    a = await ls.analysis(params.text_document.uri)
    if a is None:
        return None, None
    name = a.index.name_at(a.path, params.position.line, params.position.character)
    return a, name if name and a.index.declarations(name) else None


@server.feature(T.TEXT_DOCUMENT_DEFINITION)
async def _definition(ls: RulesServer, params: T.DefinitionParams):
    a, name = await _name_under(ls, params)
    return _locations(a.index.declarations(name)) if name else None


@server.feature(T.TEXT_DOCUMENT_REFERENCES)
async def _references(ls: RulesServer, params: T.ReferenceParams):
    a, name = await _name_under(ls, params)
    if not name:
        return None
    index = await ls.schedule.worker.submit(ls.rules.family, a)     # it parses files: where analyses do
    locs = index.occurrences(name)
    if not params.context.include_declaration:
        declared = {(l.path, l.line, l.start) for l in index.declarations(name)}
        locs = [l for l in locs if (l.path, l.line, l.start) not in declared]
    return _locations(locs)


@server.feature(T.TEXT_DOCUMENT_PREPARE_RENAME)
async def _prepare_rename(ls: RulesServer, params: T.PrepareRenameParams):
    a, name = await _name_under(ls, params)
    if not name:
        return None
    w = word_at(a.text, params.position.line, params.position.character)
    return _range(params.position.line, w[0], w[1])


@server.feature(T.TEXT_DOCUMENT_RENAME)
async def _rename(ls: RulesServer, params: T.RenameParams):
    a, name = await _name_under(ls, params)
    if not name:
        return None
    new = params.new_name
    if not NAME.match(new) or _is_keyword(new):
        raise JsonRpcInvalidParams(f"'{new}' cannot be a name: use letters, digits and '_', not a keyword")
    changes: dict[str, list[T.TextEdit]] = {}
    for l in (await ls.schedule.worker.submit(ls.rules.family, a)).occurrences(name):
        changes.setdefault(_uri(l.path), []).append(T.TextEdit(range=_range(l.line, l.start, l.end), new_text=new))
    return T.WorkspaceEdit(changes=changes)


def _is_keyword(word: str) -> bool:
    return any(keyword_of(t.name) == word for t in lark_parser().terminals)


@server.feature(T.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
async def _symbols(ls: RulesServer, params: T.DocumentSymbolParams):
    a = await ls.analysis(params.text_document.uri)
    if a is None:
        return None
    lines = a.text.split("\n")

    def convert(s) -> T.DocumentSymbol:
        whole = _span_range(s.span, lines) if s.span.end_line == s.span.line else T.Range(
            T.Position(max(s.span.line - 1, 0), 0), T.Position(max(s.span.end_line - 1, 0), max(s.span.end_column - 1, 0)))
        pick = _range(*s.selection)
        if not (whole.start.line <= pick.start.line <= whole.end.line):
            pick = T.Range(whole.start, whole.start)
        return T.DocumentSymbol(name=s.name or s.kind, kind=_KINDS.get(s.kind, T.SymbolKind.Object), range=whole,
                                selection_range=pick, detail=s.detail or None, children=[convert(c) for c in s.children])
    return [convert(s) for s in outline(a.tree)]


@server.feature(T.TEXT_DOCUMENT_CODE_ACTION, T.CodeActionOptions(code_action_kinds=[T.CodeActionKind.QuickFix]))
async def _code_action(ls: RulesServer, params: T.CodeActionParams):
    uri = params.text_document.uri
    a = await ls.analysis(uri)
    if a is None:
        return None
    lines = a.text.split("\n")
    out = []
    for act in actions(a, params.range.start.line, params.range.end.line):
        edits = [T.TextEdit(range=_range(e.line, e.start, e.end), new_text=e.text) for e in act.edits]
        out.append(T.CodeAction(title=act.title, kind=T.CodeActionKind.QuickFix,
                                edit=T.WorkspaceEdit(changes={uri: edits}), is_preferred=act.diagnostic is not None,
                                diagnostics=[_diagnostic(act.diagnostic, lines)] if act.diagnostic else None))
    return out


@server.feature(REFUSED)
def _refused(ls: RulesServer, params):
    """A request the guarded input could not pass on: its error, under the request's own id."""
    raise JsonRpcException(str(getattr(params, "message", "")), int(getattr(params, "code", -32600)))


class _Answered(logging.Filter):
    """pygls logs every error it answers with, traceback and all: a request refused with a
    protocol error, or whose parameters do not fit (GuardedInput answers it), and a warning
    about what a client sent, are answered, not faults to log."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        return (record.levelno >= logging.ERROR and not isinstance(error, JsonRpcException)
                and not str(record.msg).startswith("Unable to deserialize message"))


def main() -> None:
    logging.getLogger("pygls.protocol.json_rpc").addFilter(_Answered())
    logging.getLogger("pygls.protocol.language_server").addFilter(_Answered())
    server.start_io(GuardedInput(sys.stdin.buffer.fileno(), server.protocol.structure_message), sys.stdout.buffer)
