"""The language server's cost is bounded: a document longer than `check` accepts gets `check`'s
error and no analysis, a burst of edits is analysed as its latest text, and a request the
server cannot serve (before `initialize`, about a document that is not open) is answered with
the protocol's own answer and leaves nothing on stderr."""
from __future__ import annotations

import importlib.util
import threading

import pytest
import pytest_lsp
from lsprotocol import types as T
from pytest_lsp import LanguageClient

from dsl.language.limits import MAX_FILE_CHARS
from lsp_client import CAPABILITIES, ROOT, SERVER, change_doc, close_doc, errors_shown, open_doc, uri

spec = importlib.util.spec_from_file_location("fuzz_lsp", ROOT / "scripts" / "fuzz_lsp.py")
fuzz_lsp = importlib.util.module_from_spec(spec)
spec.loader.exec_module(fuzz_lsp)

BLUFF = ROOT / "games" / "bluff.rules"
TEXT = BLUFF.read_text(encoding="utf-8")
START_DICE = (13, 12)          # `start_dice` in `parameter start_dice = 5`, 0-based
# Bluff, then a comment that takes it one character past the limit: read whole, it checks
TOO_LONG = TEXT + "#" * (MAX_FILE_CHARS + 1 - len(TEXT) - 1) + "\n"


@pytest_lsp.fixture(scope="module", config=SERVER)
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(T.InitializeParams(capabilities=CAPABILITIES))
    yield
    assert errors_shown(lsp_client) == []
    await lsp_client.shutdown_session()


@pytest.mark.asyncio(loop_scope="module")
async def test_a_document_past_the_size_limit_gets_the_error_at_1_1_and_no_analysis(client: LanguageClient):
    path = ROOT / "games" / "too-long.rules"
    assert len(TOO_LONG) == MAX_FILE_CHARS + 1
    diags = await open_doc(client, path, TOO_LONG)
    assert [(d.range.start, d.severity) for d in diags] == [(T.Position(0, 0), T.DiagnosticSeverity.Error)]
    assert diags[0].message == (f"the file is too long ({MAX_FILE_CHARS + 1:,} characters; at most {MAX_FILE_CHARS:,})"
                                "\nhint: a rule file is one game; split long texts or leave data out")
    # nothing of the text was parsed: no outline, nothing to hover
    assert await client.text_document_document_symbol_async(T.DocumentSymbolParams(T.TextDocumentIdentifier(uri(path)))) == []
    assert await client.text_document_hover_async(T.HoverParams(T.TextDocumentIdentifier(uri(path)), T.Position(*START_DICE))) is None
    # within the limit again, it is checked as the game it is; past it once more, refused again
    assert not [d for d in await change_doc(client, path, TEXT, 2) if d.severity == T.DiagnosticSeverity.Error]
    assert len(await change_doc(client, path, TOO_LONG, 3)) == 1
    await close_doc(client, path)


def _raw_server(tmp_path):
    """`playtest lsp` spoken to in raw bytes, its stderr kept in a file."""
    err = open(tmp_path / "stderr", "wb")
    return fuzz_lsp.Server(stderr=err), err


def _stderr(server, err) -> str:
    server.close()
    err.close()
    return open(err.name, encoding="utf-8", errors="replace").read()


REQUESTS = {
    "textDocument/hover": {"position": {"line": 0, "character": 0}},
    "textDocument/completion": {"position": {"line": 0, "character": 0}},
    "textDocument/definition": {"position": {"line": 13, "character": 12}},
    "textDocument/references": {"position": {"line": 13, "character": 12}, "context": {"includeDeclaration": True}},
    "textDocument/prepareRename": {"position": {"line": 13, "character": 12}},
    "textDocument/rename": {"position": {"line": 13, "character": 12}, "newName": "dice"},
    "textDocument/documentSymbol": {},
    "textDocument/codeAction": {"range": {"start": {"line": 0, "character": 0}, "end": {"line": 1, "character": 0}},
                                "context": {"diagnostics": []}},
}


def test_before_initialize_a_request_is_answered_server_not_initialized_and_nothing_is_on_stderr(tmp_path):
    s, err = _raw_server(tmp_path)
    for method, params in REQUESTS.items():
        got = s.answer(s.request(method, {"textDocument": {"uri": fuzz_lsp.URI}, **params}))
        assert got["error"]["code"] == -32002, (method, got)
        assert got["error"]["message"] == f"the server is not initialized: send 'initialize' before '{method}'"
    # a notification before initialize is dropped, as the protocol asks
    s.notify("textDocument/didOpen", {"textDocument": {"uri": fuzz_lsp.URI, "languageId": "playtest-rules",
                                                       "version": 1, "text": TEXT}})
    assert s.answer(s.request("initialize", {"capabilities": {}}))["result"]["capabilities"]
    s.notify("initialized", {})
    assert s.answer(s.hover(*START_DICE))["result"] is None         # the document was never opened
    s.notify("textDocument/didOpen", {"textDocument": {"uri": fuzz_lsp.URI, "languageId": "playtest-rules",
                                                       "version": 1, "text": TEXT}})
    assert "start_dice" in s.answer(s.hover(*START_DICE))["result"]["contents"]["value"]
    assert _stderr(s, err) == ""


def test_a_request_about_a_document_not_open_is_answered_null_with_nothing_on_stderr(tmp_path):
    s, err = _raw_server(tmp_path)
    s.start(TEXT)
    # a file that does not exist, and one on disk that the editor has not opened
    for doc in ("file:///nowhere/no-such.rules", (ROOT / "games" / "populus.rules").as_uri()):
        for method, params in REQUESTS.items():
            got = s.answer(s.request(method, {"textDocument": {"uri": doc}, **params}))
            assert got == {"jsonrpc": "2.0", "id": s.next_id, "result": None}, (method, doc, got)
    assert "start_dice" in s.answer(s.hover(*START_DICE))["result"]["contents"]["value"]
    assert _stderr(s, err) == ""


def test_a_burst_of_edits_is_analysed_as_its_latest_text(tmp_path):
    s, err = _raw_server(tmp_path)
    s.start(TEXT)
    assert s.diagnostics(1) is not None
    edits = 100
    probe = lambda k: TEXT + f"\nvalue probe = missing_{k} + 1\n"
    # every change in one write, from a thread of its own so that what the server sends on the
    # way is read meanwhile: the server finds them all waiting
    burst = threading.Thread(target=s.send, args=(b"".join(fuzz_lsp.framed({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
        "textDocument": {"uri": fuzz_lsp.URI, "version": k + 2}, "contentChanges": [{"text": probe(k)}]}})
        for k in range(edits)),))
    burst.start()
    last = s.diagnostics(edits + 1)
    burst.join()
    assert last is not None
    assert [d["message"] for d in last["diagnostics"] if d["severity"] == 1] == [f"unknown name 'missing_{edits - 1}'"]
    assert s.published[-1] is last
    # whatever was published on the way is true of its own version's text, and the texts in
    # between were not each analysed and published in turn
    on_the_way = [p for p in s.published if p.get("version", 1) > 1]
    for p in on_the_way:
        assert f"missing_{p['version'] - 2}'" in " ".join(d["message"] for d in p["diagnostics"])
    assert len(on_the_way) <= edits // 4
    # a hover now reads the latest text: the probe is there
    probe_at = probe(0).count("\n") - 1
    assert "probe" in s.answer(s.hover(probe_at, 7))["result"]["contents"]["value"]
    assert _stderr(s, err) == ""


def test_parameters_that_do_not_fit_leave_no_traceback_and_a_request_no_word_on_stderr(tmp_path):
    s, err = _raw_server(tmp_path)
    s.start(TEXT)
    bad = {"textDocument": {"uri": fuzz_lsp.URI}, "position": {"line": -5, "character": 0}}
    assert s.answer(s.request("textDocument/hover", bad))["error"]["code"] == -32602
    s.notify("textDocument/didChange", {"textDocument": {"uri": fuzz_lsp.URI, "version": 2}, "contentChanges": [
        {"range": {"start": {"line": -5, "character": 0}, "end": {"line": 0, "character": 0}}, "text": "x"}]})
    # the change was dropped whole: the document is as it was
    assert "start_dice" in s.answer(s.hover(*START_DICE))["result"]["contents"]["value"]
    # the request was answered; the notification, which cannot be, is one line in the server's log
    assert _stderr(s, err) == ("playtest lsp: invalid parameters for textDocument/didChange: "
                               "Position.line should be in range [0:2147483647], but was -5.\n")
