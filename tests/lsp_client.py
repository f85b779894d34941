"""What the LSP tests share: starting `playtest lsp` under a pytest-lsp client, opening and
changing documents and waiting for their diagnostics."""
from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from lsprotocol import types as T
from pytest_lsp import ClientServerConfig

ROOT = Path(__file__).resolve().parent.parent
SERVER = ClientServerConfig(server_command=[sys.executable, "-m", "dsl.cli", "lsp"])

CAPABILITIES = T.ClientCapabilities(
    text_document=T.TextDocumentClientCapabilities(
        hover=T.HoverClientCapabilities(content_format=[T.MarkupKind.Markdown, T.MarkupKind.PlainText]),
        document_symbol=T.DocumentSymbolClientCapabilities(hierarchical_document_symbol_support=True),
        code_action=T.CodeActionClientCapabilities(code_action_literal_support=T.ClientCodeActionLiteralOptions(
            code_action_kind=T.ClientCodeActionKindOptions(value_set=[T.CodeActionKind.QuickFix]))),
        rename=T.RenameClientCapabilities(prepare_support=True),
        publish_diagnostics=T.PublishDiagnosticsClientCapabilities(version_support=True),
    ),
    workspace=T.WorkspaceClientCapabilities(workspace_edit=T.WorkspaceEditClientCapabilities(document_changes=False)),
)


def uri(path) -> str:
    return Path(path).resolve().as_uri()


async def fresh(client, u: str, send):
    """Send something that makes the server publish a document's diagnostics; return them."""
    client.diagnostics.pop(u, None)
    send()
    return await arrival(client, u)


async def arrival(client, u: str, timeout: float = 30.0):
    """The diagnostics of a document, once they have arrived (after the caller popped the old ones)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while u not in client.diagnostics:
        if loop.time() > end:
            raise TimeoutError(f"no diagnostics for {u}")
        await asyncio.sleep(0.002)
    return client.diagnostics[u]


async def open_doc(client, path, text: str | None = None, version: int = 1):
    """Open a document (its text on disk unless given) and return its diagnostics."""
    u = uri(path)
    text = Path(path).read_text(encoding="utf-8") if text is None else text
    return await fresh(client, u, lambda: client.text_document_did_open(T.DidOpenTextDocumentParams(
        T.TextDocumentItem(uri=u, language_id="playtest-rules", version=version, text=text))))


async def change_doc(client, path, text: str, version: int):
    """Replace a document's whole text and return its new diagnostics."""
    u = uri(path)
    return await fresh(client, u, lambda: client.text_document_did_change(T.DidChangeTextDocumentParams(
        T.VersionedTextDocumentIdentifier(uri=u, version=version),
        [T.TextDocumentContentChangeWholeDocument(text=text)])))


async def close_doc(client, path) -> None:
    """Close a document and wait for its diagnostics to be cleared (so none arrive late)."""
    assert len(await fresh(client, uri(path), lambda: client.text_document_did_close(
        T.DidCloseTextDocumentParams(T.TextDocumentIdentifier(uri(path)))))) == 0


def position(text: str, needle: str, nth: int = 1, offset: int = 0) -> T.Position:
    """The 0-based position `offset` characters into the nth occurrence of needle."""
    at = -1
    for _ in range(nth):
        at = text.index(needle, at + 1)
    line = text.count("\n", 0, at)
    return T.Position(line, at - (text.rfind("\n", 0, at) + 1) + offset)


def errors_shown(client) -> list[str]:
    return [m.message for m in client.messages if m.type == T.MessageType.Error] + \
           [m.message for m in client.log_messages if m.type == T.MessageType.Error]
