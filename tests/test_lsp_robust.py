"""The language server survives any byte stream (issue 40, finding 7): a bounded message size,
resynchronisation after garbage, an answer to every request, hover text shown as text."""
from __future__ import annotations

import importlib.util
import json
import os

import pytest
from markdown_it import MarkdownIt

from _util import BLUFF, ROOT

from dsl.lsp import stream

spec = importlib.util.spec_from_file_location("fuzz_lsp", ROOT / "scripts" / "fuzz_lsp.py")
fuzz_lsp = importlib.util.module_from_spec(spec)
spec.loader.exec_module(fuzz_lsp)

TEXT = BLUFF.read_text(encoding="utf-8")
START_DICE = (13, 12)          # `start_dice` in `parameter start_dice = 5`, 0-based


@pytest.fixture
def server():
    s = fuzz_lsp.Server()
    s.start(TEXT)
    yield s
    s.close()


def hover_works(s) -> bool:
    got = s.answer(s.hover(*START_DICE))
    return got is not None and "start_dice" in got["result"]["contents"]["value"]


def test_a_header_announcing_a_hundred_gigabytes_is_skipped_and_answered(server):
    body = json.dumps({"jsonrpc": "2.0", "id": 99, "method": "textDocument/hover"}).encode()
    server.send(b"Content-Length: 100000000000\r\n\r\n" + body)
    assert hover_works(server)          # the next header shows the announced length was a lie
    got = server.answer(99)
    assert got["error"]["code"] == stream.INVALID_REQUEST
    assert got["error"]["message"] == (f"the message is 100,000,000,000 bytes, more than the "
                                       f"{stream.MAX_MESSAGE_BYTES:,} the server reads")


@pytest.mark.parametrize("garbage", [bytes(range(256)) * 12,
                                     b"Content-Length: 5\r\n\r\n",
                                     b"Content-Length: 900\r\n\r\n{\"jsonrpc\": ",
                                     b"Content-Length: x\r\n\r\n{}",
                                     b"Content-Length: 10\r\nX-Long: " + b"a" * 20_000 + b"\r\n",
                                     b"no header at all\r\n\r\n{\"id\": 1}"],
                         ids=["bytes", "short", "long", "bad-number", "endless", "no-header"])
def test_a_valid_request_after_garbage_is_answered(server, garbage):
    server.send(garbage)
    assert hover_works(server)
    assert server.proc.poll() is None


def test_a_request_cut_short_by_the_next_is_answered_with_an_error(server):
    server.send(b"Content-Length: 900\r\n\r\n{\"jsonrpc\": \"2.0\", \"id\": 41, ")
    assert hover_works(server)
    assert server.answer(41)["error"]["message"] == "the message ended before its Content-Length"


@pytest.mark.parametrize("method", ["textDocument/hover", "textDocument/completion", "textDocument/definition"])
def test_a_position_at_line_minus_five_gets_an_error_answer(server, method):
    msg_id = server.request(method, {"textDocument": {"uri": fuzz_lsp.URI}, "position": {"line": -5, "character": 0}})
    got = server.answer(msg_id)
    assert got["error"]["code"] == stream.INVALID_PARAMS
    assert got["error"]["message"] == (f"invalid parameters for {method}: "
                                       "Position.line should be in range [0:2147483647], but was -5.")
    assert hover_works(server)


def test_broken_json_with_an_id_gets_a_parse_error_and_deep_json_does_no_harm(server):
    server.send(fuzz_lsp.framed(b'{"jsonrpc": "2.0", "id": 7, "method": '))
    assert server.answer(7)["error"]["code"] == stream.PARSE_ERROR
    server.send(fuzz_lsp.framed(b"[" * 200_000 + b"]" * 200_000))
    assert hover_works(server)


def test_positions_past_the_end_of_the_document_are_answered(server):
    for line, character in ((10**6, 0), (0, 10**6), (2**31 - 1, 2**31 - 1)):
        assert server.answer(server.hover(line, character)) == {"jsonrpc": "2.0", "id": server.next_id, "result": None}


HOSTILE = ('see [the site](http://evil.example/x) ![t](http://evil.example/track.png) '
           '<img src=http://evil.example/i.png> <a href=http://evil.example>a</a> <script>x</script> '
           '&lt;b&gt; **bold** *it* _it_ `code` # not a heading | a | b | ~~struck~~ <http://evil.example/auto>')


def test_hover_shows_the_designers_text_as_text(server):
    hostile = TEXT.replace('en "dice per player at the start"', 'en "' + HOSTILE + '"', 1)
    assert hostile != TEXT
    server.notify("textDocument/didChange", {"textDocument": {"uri": fuzz_lsp.URI, "version": 2},
                                             "contentChanges": [{"text": hostile}]})
    value = server.answer(server.hover(*START_DICE))["result"]["contents"]["value"]
    html = MarkdownIt("gfm-like", {"html": True, "linkify": False}).render(value)
    assert html.count("<em>") == 1 and "<em>line 14</em>" in html         # the server's own italics only
    for markup in ("<a ", "<img", "<script", "<strong>bold", "<code>code", "<s>", "<del>", "<h1", "<table"):
        assert markup not in html, (markup, html)
    assert "<strong>parameter</strong> <code>start_dice</code>" in html      # the server's own markup stays
    plain = MarkdownIt("commonmark").render(value)
    assert "[the site](http://evil.example/x)" in plain and "&lt;img src=http://evil.example/i.png&gt;" in plain


def test_the_guarded_input_resynchronises_on_its_own(tmp_path):
    """Frames straight from a file: each body whole, in order, whatever lies between them."""
    good = [json.dumps({"jsonrpc": "2.0", "method": "m", "params": {"i": i}}).encode() for i in range(3)]
    data = (b"\x00\xffgarbage" + fuzz_lsp.framed(good[0]) + b"Content-Length: 50\r\n\r\nabc" + fuzz_lsp.framed(good[1])
            + b"Content-Length: 99999999999\r\n\r\n" + b"z" * 100 + fuzz_lsp.framed(good[2]))
    f = tmp_path / "stream"
    f.write_bytes(data)
    refused = []
    with open(f, "rb") as fh:
        frames = stream.Frames(fh.fileno(), lambda *r: refused.append(r))
        got = [frames.next() for _ in range(4)]
    assert got == good + [None]
    assert [code for _, code, _ in refused] == [stream.INVALID_REQUEST, stream.INVALID_REQUEST]


def test_a_short_campaign_of_the_fuzzer_finds_nothing():
    tally = fuzz_lsp.campaign(seconds=8, seed=3)
    assert tally["failure"] is None
    assert tally["attacks"] >= 1 and tally["answered"] >= tally["attacks"]
