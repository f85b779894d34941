"""A ruling in a real browser (Playwright driving Debian's chromium): an exact count in base
Bluff stops play on an open question; P1's page proposes a variant that settles it, the
designer's page confirms it, and the game plays on to a winner; the replay records the ruling."""
from __future__ import annotations

import json
import os

from dsl.analyses import replay as replay_mod
from dsl.engine import Game

from _util import BLUFF, ROOT
from test_browser_table import browser, serve, version  # noqa: F401  (fixtures)

SHOTS = ROOT / "docs" / "table"


def _take_turn(page) -> None:
    """P1 calls bluff whenever it may, else takes the first option."""
    before = version(page)
    call = page.locator("button.option[data-option=call_bluff]")
    (call if call.count() else page.locator("button.option").first).click()
    page.wait_for_function("v => document.body.dataset.version !== v", arg=before)


def _until(page, done: str) -> None:
    for _ in range(300):
        if page.evaluate(done):
            return
        if page.evaluate("document.body.dataset.moment") == "yours":
            before = version(page)      # the table holds what just happened until the person continues
            page.locator("button.carry-on").click()
            page.wait_for_function(f"v => ({done}) || document.body.dataset.version !== v", arg=before)
        elif page.locator("#turn .turn-line.yours").count():
            _take_turn(page)
        else:
            seen = version(page)
            page.wait_for_function(f"v => ({done}) || document.body.dataset.version !== v", arg=seen)
    raise AssertionError("the game did not get there")


def test_an_exact_count_is_ruled_at_the_table_and_the_game_plays_on_to_a_winner(browser, serve):  # noqa: F811
    links, saved = serve(str(BLUFF), "--seats", "human,random,random", "--seed", "12")
    pages = {}
    for who in ("P1", "designer"):
        page = browser.new_context(viewport={"width": 1400, "height": 900}).new_page()
        errors = []
        page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
        page.goto(links[who])
        page.wait_for_selector("body[data-state=live]")
        pages[who] = (page, errors)
    p1, designer = pages["P1"][0], pages["designer"][0]
    _until(p1, "document.body.dataset.ruling === 'open'")
    designer.wait_for_selector("body[data-ruling=open]")
    for page in (p1, designer):
        panel = page.inner_text("#ruling-panel")
        assert "Not yet decided: “What if the count is exact?”" in panel
        assert "equals the bid" in panel and "resolve_challenge" in panel
    p1.locator(".ruling-choice[data-name=bluff_exact_nobody_loses] button").click()
    designer.wait_for_selector(".ruling-choice.proposed[data-name=bluff_exact_nobody_loses]")
    assert "P1 proposes this" in designer.inner_text(".ruling-choice.proposed")
    if os.environ.get("PLAYTEST_SHOTS"):
        designer.screenshot(path=str(SHOTS / "bluff-ruling.png"))
    designer.locator(".ruling-choice[data-name=bluff_exact_nobody_loses] button").click()
    p1.wait_for_selector("body[data-ruling=none]")
    _until(p1, "document.body.dataset.ended === 'yes'")
    assert "wins" in p1.inner_text("#result")
    if os.environ.get("PLAYTEST_SHOTS"):
        designer.wait_for_selector("body[data-ended=yes]")
        designer.screenshot(path=str(SHOTS / "bluff-ruled-winner.png"))
    data = json.loads(open(saved, encoding="utf-8").read())
    assert [os.path.basename(v) for v in data["variants"]] == ["bluff-exact-nobody-loses.rules"]
    assert [(r["question"], r["chosen"]) for r in data["rulings"]] == [("exact_count", "bluff_exact_nobody_loses")]
    rep = replay_mod.load(saved)
    state = replay_mod.run(Game(replay_mod.embedded(rep)[0], 3), rep.actions, log=False)
    assert state.is_terminal() and state.dead_end is None and state.outcome
    assert all(not errors for _, errors in pages.values())
