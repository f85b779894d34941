"""`playtest lsp` driven as an editor drives it (pytest-lsp over stdio): diagnostics equal to
`check`, hover in English and Japanese, completion, definition, references, rename, the
outline and code actions."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as T
from pytest_lsp import LanguageClient

from dsl.language.diagnostics import RuleFileError
from dsl.loader import load
from lsp_client import CAPABILITIES, ROOT, SERVER, arrival, change_doc, close_doc, errors_shown, open_doc, position, uri

pytestmark = pytest.mark.asyncio(loop_scope="module")

BLUFF = ROOT / "games" / "bluff.rules"
LIFE = ROOT / "variants" / "bluff-life.rules"
TEXT = BLUFF.read_text(encoding="utf-8")


@pytest_lsp.fixture(scope="module", config=SERVER)
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(T.InitializeParams(capabilities=CAPABILITIES))
    yield
    assert errors_shown(lsp_client) == []
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(scope="module", config=SERVER)
async def client_ja(lsp_client: LanguageClient):
    # no initializationOptions: the language comes from the client's locale
    await lsp_client.initialize_session(T.InitializeParams(capabilities=CAPABILITIES, locale="ja-JP"))
    yield
    await lsp_client.shutdown_session()


def _expected(path: Path):
    """What `check` reports in this file: (severity, line, column, message)."""
    try:
        _, diags = load(str(path))
    except RuleFileError as e:
        diags = e.diagnostics
    return sorted((d.severity, d.span.line, d.span.column, d.message) for d in diags
                  if Path(d.span.file or d.path).resolve() == path.resolve())


def _got(diags):
    names = {T.DiagnosticSeverity.Error: "error", T.DiagnosticSeverity.Warning: "warning"}
    return sorted((names[d.severity], d.range.start.line + 1, d.range.start.character + 1, d.message.split("\nhint: ")[0])
                  for d in diags)


@pytest.mark.parametrize("path", sorted((ROOT / "games").glob("*.rules")) + sorted((ROOT / "variants").glob("bluff*.rules"))
                         + [ROOT / "variants" / "dream-duels-2025.rules"], ids=lambda p: p.name)
async def test_diagnostics_are_checks(client: LanguageClient, path: Path):
    got = await open_doc(client, path)
    await close_doc(client, path)
    assert _got(got) == _expected(path)


async def test_a_misspelt_name_is_an_error_with_its_hint_and_a_fix(client: LanguageClient):
    bad = TEXT.replace("move start_dice from supply", "move start_dice from suply")
    diags = await open_doc(client, BLUFF, bad)
    errors = [d for d in diags if d.severity == T.DiagnosticSeverity.Error]
    at = position(bad, "suply")
    assert [(e.message, e.range) for e in errors] == [
        ("unknown name 'suply'\nhint: did you mean 'supply'?", T.Range(at, T.Position(at.line, at.character + 5)))]
    # open questions and provisional parameters stay warnings, as in `check`
    assert sum(1 for d in diags if d.severity == T.DiagnosticSeverity.Warning) == TEXT.count("\nquestion ") + TEXT.count("\n  question ")
    actions = await client.text_document_code_action_async(T.CodeActionParams(
        T.TextDocumentIdentifier(uri(BLUFF)), T.Range(at, at), T.CodeActionContext(diagnostics=errors)))
    fix = [a for a in actions if a.title == "Change 'suply' to 'supply'"]
    assert len(fix) == 1
    assert {u: list(e) for u, e in fix[0].edit.changes.items()} == {uri(BLUFF): [T.TextEdit(T.Range(at, T.Position(at.line, at.character + 5)), "supply")]}
    fixed = await change_doc(client, BLUFF, TEXT, 2)
    assert not [d for d in fixed if d.severity == T.DiagnosticSeverity.Error]
    await close_doc(client, BLUFF)


async def test_a_half_typed_file_gives_a_syntax_error_not_a_crash(client: LanguageClient):
    cut = TEXT[:TEXT.index("move start_dice from supply") + len("move start_dice fr")]
    diags = await open_doc(client, BLUFF, cut)
    assert [(d.severity, d.message.split("\n")[0], d.range.start) for d in diags] == \
        [(T.DiagnosticSeverity.Error, "unexpected 'fr'", position(cut, "start_dice fr", offset=11))]
    await close_doc(client, BLUFF)


async def test_a_case_left_open_gets_a_question_stub(client: LanguageClient):
    text = TEXT.replace("question exact_count about resolve_challenge", "question exact_count")
    await open_doc(client, BLUFF, text)
    at = position(text, "  cases\n    when matching > bid_count")
    actions = await client.text_document_code_action_async(T.CodeActionParams(
        T.TextDocumentIdentifier(uri(BLUFF)), T.Range(at, at), T.CodeActionContext(diagnostics=[])))
    rule_line = position(text, "rule resolve_challenge").line
    assert [(a.title, list(a.edit.changes[uri(BLUFF)])) for a in actions] == [
        ("Add an open question about 'resolve_challenge'", [T.TextEdit(
            T.Range(T.Position(rule_line, 0), T.Position(rule_line, 0)),
            'question resolve_challenge_unhandled about resolve_challenge\n'
            '  text en "The rules do not say what happens here."\n\n')])]
    await close_doc(client, BLUFF)


async def _hover(client, path, at) -> str:
    h = await client.text_document_hover_async(T.HoverParams(T.TextDocumentIdentifier(uri(path)), at))
    return h.contents.value


async def test_hover_in_english_and_japanese(client: LanguageClient, client_ja: LanguageClient):
    for c in (client, client_ja):
        await open_doc(c, BLUFF)
    name = position(TEXT, "move start_dice from supply", offset=6)
    statement = position(TEXT, "roll cup(p)", offset=1)
    builtin = position(TEXT, "player(1)", offset=2)
    assert await _hover(client, BLUFF, name) == \
        "**parameter** `start_dice` — dice per player at the start\n\n5\n\n*line 14*"
    assert await _hover(client_ja, BLUFF, name) == \
        "**パラメータ** `start_dice` — 最初のさいころの数\n\n5\n\n*14行目*"
    assert await _hover(client, BLUFF, statement) == "Roll each player's dice under your cup."
    assert await _hover(client_ja, BLUFF, statement) == "各プレイヤーの手元のさいころを振る。"
    assert await _hover(client, BLUFF, builtin) == "**builtin** `player(a)`\n\nthe player in seat a"
    assert await _hover(client_ja, BLUFF, builtin) == "**組み込み関数** `player(a)`\n\n席aのプレイヤー"
    for c in (client, client_ja):
        await close_doc(c, BLUFF)


async def _labels(client, path, at, kind=None) -> list[str]:
    got = await client.text_document_completion_async(T.CompletionParams(T.TextDocumentIdentifier(uri(path)), at))
    return sorted(i.label for i in got.items if kind is None or i.kind == kind)


async def test_completion_offers_what_the_grammar_and_the_names_allow(client: LanguageClient):
    line = "      move start_dice from supply to cup(p)\n"
    text = TEXT.replace(line, line + "      do \n      \n      move 1 from su\n", 1)
    await open_doc(client, BLUFF, text)
    after_do = position(text, "      do \n", offset=9)
    assert await _labels(client, BLUFF, after_do) == ["lose", "resolve_challenge"]
    new_line = position(text, "      \n      move 1", offset=6)
    keywords = await _labels(client, BLUFF, new_line, T.CompletionItemKind.Keyword)
    assert {"move", "roll", "set", "if", "repeat", "do", "step"} <= set(keywords)
    assert not {"game", "zone", "rule", "from"} & set(keywords)
    locals_ = await _labels(client, BLUFF, new_line, T.CompletionItemKind.Variable)
    assert "p" in locals_           # the `for each p` around the cursor
    expression = position(text, "move 1 from su", offset=14)
    names = await _labels(client, BLUFF, expression)
    assert {"supply", "cup", "lost", "start_dice", "count", "alive_players"} <= set(names)
    assert "move" not in names
    got = await client.text_document_completion_async(T.CompletionParams(T.TextDocumentIdentifier(uri(BLUFF)), expression))
    count = next(i for i in got.items if i.label == "count")
    assert (count.kind, count.detail) == (T.CompletionItemKind.Function, "count(a): the number of a")
    end = T.Position(text.count("\n"), 0)
    top = await _labels(client, BLUFF, end, T.CompletionItemKind.Keyword)
    assert {"rule", "zone", "parameter", "question", "trigger"} <= set(top) and "move" not in top
    await close_doc(client, BLUFF)


async def test_definition_and_references_across_a_variant_and_its_base(client: LanguageClient):
    await open_doc(client, BLUFF)
    rule = position(TEXT, "rule lose(loser", offset=5)
    use = position(TEXT, "do lose(bidder", offset=3)
    got = await client.text_document_definition_async(T.DefinitionParams(T.TextDocumentIdentifier(uri(BLUFF)), use))
    assert [(g.uri, g.range.start) for g in got] == [(uri(BLUFF), rule)]
    supply = position(TEXT, "zone supply", offset=5)
    refs = await client.text_document_references_async(T.ReferenceParams(
        text_document=T.TextDocumentIdentifier(uri(BLUFF)), position=supply,
        context=T.ReferenceContext(include_declaration=True)))
    # `in supply`, the declaration, `from supply`; not the zone kind in `is supply`
    taken = position(TEXT, "from supply", offset=5)
    assert sorted((r.range.start.line + 1, r.range.start.character + 1) for r in refs) == [
        (23, 6), (31, 6), (taken.line + 1, taken.character + 1)]
    life = LIFE.read_text(encoding="utf-8")
    await open_doc(client, LIFE)
    patched = position(life, "replace rule lose", offset=13)
    got = await client.text_document_definition_async(T.DefinitionParams(T.TextDocumentIdentifier(uri(LIFE)), patched))
    assert sorted((g.uri, g.range.start.line) for g in got) == sorted([(uri(BLUFF), rule.line), (uri(LIFE), patched.line)])
    half_typed = await change_doc(client, LIFE, life + "\nadd rule broken(\n", 2)
    assert [d.severity for d in half_typed] == [T.DiagnosticSeverity.Error]
    got = await client.text_document_definition_async(T.DefinitionParams(T.TextDocumentIdentifier(uri(LIFE)), patched))
    assert sorted((g.uri, g.range.start.line) for g in got) == sorted([(uri(BLUFF), rule.line), (uri(LIFE), patched.line)])
    await change_doc(client, LIFE, life, 3)
    counter = position(life, "life(loser)", offset=1)
    got = await client.text_document_definition_async(T.DefinitionParams(T.TextDocumentIdentifier(uri(LIFE)), counter))
    assert [(g.uri, g.range.start) for g in got] == [(uri(LIFE), position(life, "add counter life", offset=12))]
    refs = await client.text_document_references_async(T.ReferenceParams(
        text_document=T.TextDocumentIdentifier(uri(LIFE)), position=patched,
        context=T.ReferenceContext(include_declaration=False)))
    places = {(Path(r.uri[len("file://"):]).name, r.range.start.line + 1) for r in refs}
    # every `do lose(...)` in the game and its variants, and `question ... about lose`; no declaration
    # (the game's rule, and the `replace rule lose` of bluff-life and bluff-reversed)
    line_of = lambda name, text: next(n for n, line in enumerate(
        (ROOT / "variants" / name).read_text(encoding="utf-8").splitlines(), 1) if text in line)
    game_line = lambda text: next(n for n, line in enumerate(TEXT.splitlines(), 1) if text in line)
    assert {("bluff.rules", game_line("do lose(challenger")), ("bluff.rules", game_line("do lose(bidder")),
            ("bluff-exact-just-call.rules", line_of("bluff-exact-just-call.rules", "do lose(challenger, abs("))} <= places
    assert ("bluff.rules", game_line("rule lose(")) not in places and ("bluff-life.rules", patched.line + 1) not in places
    assert ("bluff-reversed.rules", line_of("bluff-reversed.rules", "question reversed_exchange about lose")) in places
    assert len(places) == sum(p.read_text(encoding="utf-8").count("do lose(")
                              for p in [BLUFF, *(ROOT / "variants").glob("bluff*.rules")]) + 1 == 14
    for p in (BLUFF, LIFE):
        await close_doc(client, p)


async def test_rename_changes_every_file_and_the_game_still_checks(client: LanguageClient, tmp_path: Path):
    shutil.copytree(ROOT / "games", tmp_path / "games")
    shutil.copytree(ROOT / "variants", tmp_path / "variants")
    game, life = tmp_path / "games" / "bluff.rules", tmp_path / "variants" / "bluff-life.rules"
    await open_doc(client, life)
    at = position(life.read_text(encoding="utf-8"), "replace rule lose", offset=13)
    edit = await client.text_document_rename_async(T.RenameParams(T.TextDocumentIdentifier(uri(life)), at, "lose_dice"))
    for u, edits in edit.changes.items():
        path = Path(u[len("file://"):])
        lines = path.read_text(encoding="utf-8").split("\n")
        for e in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
            ln = lines[e.range.start.line]
            assert ln[e.range.start.character:e.range.end.character] == "lose"
            lines[e.range.start.line] = ln[:e.range.start.character] + e.new_text + ln[e.range.end.character:]
        path.write_text("\n".join(lines), encoding="utf-8")
    assert uri(game) in edit.changes and uri(life) in edit.changes
    for path in [game] + sorted((tmp_path / "variants").glob("bluff*.rules")):
        load(str(path))             # raises on any error
        assert "do lose(" not in path.read_text(encoding="utf-8")
    with pytest.raises(Exception, match="cannot be a name"):
        await client.text_document_rename_async(T.RenameParams(T.TextDocumentIdentifier(uri(life)), at, "move"))
    await close_doc(client, life)


async def test_outline(client: LanguageClient):
    await open_doc(client, BLUFF)
    symbols = await client.text_document_document_symbol_async(T.DocumentSymbolParams(T.TextDocumentIdentifier(uri(BLUFF))))
    names = [s.name for s in symbols]
    assert names[:4] == ["bluff", "start_dice", "die", "face"]
    assert names.count("setup") == 1 and "resolve_challenge" in names and "exact_count" in names
    play = next(s for s in symbols if s.name == "play")
    assert [c.name for c in play.children] == ["roll", "opening_bid", "bidding", "reveal", "next_round"]
    rule = next(s for s in symbols if s.name == "resolve_challenge")
    assert (rule.kind, rule.detail, rule.selection_range.start) == \
        (T.SymbolKind.Function, "Settle the challenge", position(TEXT, "rule resolve_challenge", offset=5))
    await close_doc(client, BLUFF)


async def test_an_open_variant_is_rechecked_when_its_game_changes(client: LanguageClient):
    await open_doc(client, LIFE)
    await open_doc(client, BLUFF)
    client.diagnostics.pop(uri(LIFE), None)
    # the game loses the rule bluff-life replaces: the variant's patch now has nothing to replace
    broken = TEXT.replace("rule lose(loser, n)", "rule lose_dice(loser, n)").replace("do lose(", "do lose_dice(")
    await change_doc(client, BLUFF, broken, 2)
    rechecked = await arrival(client, uri(LIFE))
    assert [d.message.split("\n")[0] for d in rechecked if d.severity == T.DiagnosticSeverity.Error] \
        == ["no rule 'lose' to replace"]
    for p in (BLUFF, LIFE):
        await close_doc(client, p)
