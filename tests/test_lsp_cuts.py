"""Bad input never breaks the server: every seed rule file and a variant, cut at seeded
random places (a prefix, as if typed so far, or a slice cut out) and typed character by
character over a stretch, each followed by the requests an editor sends. No request may
fail, no error may be shown, and every diagnostic must point into the document."""
from __future__ import annotations

import random
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as T
from pytest_lsp import LanguageClient

from lsp_client import CAPABILITIES, ROOT, SERVER, fresh, change_doc, close_doc, errors_shown, open_doc, uri

pytestmark = pytest.mark.asyncio(loop_scope="module")

FILES = sorted((ROOT / "games").glob("*.rules")) + [ROOT / "variants" / "bluff-life.rules",
                                                    ROOT / "variants" / "dream-duels-2025.rules"]
CUTS = 16


@pytest_lsp.fixture(scope="module", config=SERVER)
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(T.InitializeParams(capabilities=CAPABILITIES,
                                                           initialization_options={"lang": "ja"}))
    yield
    await lsp_client.shutdown_session()


async def _poke(client: LanguageClient, path: Path, text: str, rng: random.Random, diags) -> None:
    """The requests an editor sends while one types; any error response raises here."""
    lines = text.split("\n")
    for d in diags:
        assert 0 <= d.range.start.line < len(lines) and d.range.start <= d.range.end, d
    doc = T.TextDocumentIdentifier(uri(path))
    line = rng.randrange(len(lines))
    at = T.Position(line, rng.randint(0, len(lines[line])))
    end = T.Position(len(lines) - 1, len(lines[-1]))
    await client.text_document_hover_async(T.HoverParams(doc, at))
    await client.text_document_completion_async(T.CompletionParams(doc, end))
    await client.text_document_completion_async(T.CompletionParams(doc, at))
    await client.text_document_definition_async(T.DefinitionParams(doc, at))
    await client.text_document_document_symbol_async(T.DocumentSymbolParams(doc))
    await client.text_document_code_action_async(T.CodeActionParams(
        doc, T.Range(T.Position(0, 0), end), T.CodeActionContext(diagnostics=list(diags))))
    await client.text_document_prepare_rename_async(T.PrepareRenameParams(doc, at))


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
async def test_random_cuts(client: LanguageClient, path: Path):
    text = path.read_text(encoding="utf-8")
    rng = random.Random(path.name)
    await open_doc(client, path, "")
    version = 1
    for i in range(CUTS):
        a, b = sorted(rng.randrange(len(text) + 1) for _ in range(2))
        cut = text[:a] if i % 2 == 0 else text[:a] + text[b:]
        version += 1
        diags = await change_doc(client, path, cut, version)
        await _poke(client, path, cut, rng, diags)
    assert errors_shown(client) == []
    await close_doc(client, path)


async def test_typing_character_by_character(client: LanguageClient):
    """Typing a stretch of Bluff's play into the file, one incremental change per key."""
    path = ROOT / "games" / "bluff.rules"
    text = path.read_text(encoding="utf-8")
    start = text.index("    step opening_bid")
    stretch = text[start:text.index("    step bidding")]
    before = text[:start] + text[start + len(stretch):]
    await open_doc(client, path, before)
    line = before.count("\n", 0, start)
    col = 0
    rng = random.Random(1)
    for version, ch in enumerate(stretch, 2):
        change = T.TextDocumentContentChangePartial(range=T.Range(T.Position(line, col), T.Position(line, col)), text=ch)
        diags = await _send(client, path, change, version)
        if ch == "\n":
            line, col = line + 1, 0
        else:
            col += 1
        if version % 10 == 0:
            await _poke(client, path, text[:start] + stretch[:version - 1] + text[start + len(stretch):], rng, diags)
    final = await change_doc(client, path, text, version + 1)
    assert sum(1 for d in final if d.severity == T.DiagnosticSeverity.Error) == 0
    assert errors_shown(client) == []
    await close_doc(client, path)


async def _send(client, path, change, version):
    return await fresh(client, uri(path), lambda: client.text_document_did_change(T.DidChangeTextDocumentParams(
        T.VersionedTextDocumentIdentifier(uri=uri(path), version=version), [change])))
