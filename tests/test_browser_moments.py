"""The table holds what a person must see (Playwright driving Debian's chromium): in Bluff the
reveal stays on both people's pages, face up and in words, until each clicks Continue, and the
bot waits; tic-tac-toe's marks carry their owners' colours and shapes; Democracy's face-down
card lies face down before its chooser on the other pages; the end shows the ranking."""
from __future__ import annotations

import json
import os

from test_browser_table import browser, finish, serve, version      # noqa: F401 (fixtures)

from _util import BLUFF, DEMOCRACY, GAMES, ROOT

SHOTS = ROOT / "docs" / "table"


def pages_of(browser, links, seats=("P1", "P2")):
    out = []
    for seat in seats:
        page = browser.new_context(viewport={"width": 1400, "height": 900}).new_page()
        page.goto(links[seat])
        page.wait_for_selector("body[data-state=live]")
        out.append(page)
    return out


def moment(page) -> str:
    return page.evaluate("document.body.dataset.moment")


def test_bluff_holds_the_reveal_on_both_pages_until_each_person_continues(browser, serve):
    links, saved = serve(str(BLUFF), "--seats", "human,human,random", "--seed", "4")
    pages = pages_of(browser, links)
    # bid the lowest until someone may call, then call bluff
    while not any(moment(p) != "no" for p in pages):
        page = next((p for p in pages if p.locator("#turn .turn-line.yours").count()), None)
        if page is None:
            pages[0].wait_for_function("() => document.body.dataset.moment !== 'no' || "
                                       "document.querySelector('#turn .turn-line.yours')")
            pages[1].wait_for_function("() => document.body.dataset.moment !== 'no' || "
                                       "document.querySelector('#turn .turn-line.yours')")
            continue
        before = version(page)
        calls = page.locator("button.option", has_text="Call bluff")
        (calls if calls.count() else page.locator("button.option")).first.click()
        page.wait_for_function("v => document.body.dataset.version !== v", arg=before)
        for other in pages:
            other.wait_for_function("v => document.body.dataset.version === v", arg=version(page))
    actions = len(json.loads(open(saved, encoding="utf-8").read())["actions"])
    for page in pages:
        assert moment(page) == "yours"
        said = page.inner_text("#moment")
        # the outcome in words, in the seat's own words: its cup is "your cup", the others' by name
        assert "revealed dice under your cup" in said and "revealed dice under P3's cup" in said
        assert "=" not in said and "-- " not in said and "!!" not in said
        # the outcome in one sentence at its head: the numbers compared and whom it fell on
        outcome = page.inner_text("#moment .moment-outcome")
        assert "the bid count: " in outcome and " loses dice (" in outcome, outcome
        # the felt keeps the dice face up: every other seat's cup shows its faces
        assert page.locator("#others .piece.die.hidden").count() == 0
        assert page.locator("#others .piece.die").count() > 0
        assert page.locator("button.option").count() == 0      # nothing to choose while it is held
    pages[0].screenshot(path=str(SHOTS / "bluff-moment.png"), full_page=True)
    before = version(pages[0])
    pages[0].locator("button.carry-on").click()
    for page in pages:
        page.wait_for_function("v => document.body.dataset.version !== v", arg=before)
    # P1 has continued; P2 still looks, so the bot has not rolled nor bid: the game has not moved
    assert moment(pages[0]) == "waiting" and moment(pages[1]) == "yours"
    assert "P2" in pages[0].inner_text("#moment")
    assert len(json.loads(open(saved, encoding="utf-8").read())["actions"]) == actions
    before = version(pages[1])
    pages[1].locator("button.carry-on").click()
    for page in pages:
        page.wait_for_function("v => document.body.dataset.version !== v", arg=before)
    assert len(json.loads(open(saved, encoding="utf-8").read())["actions"]) > actions
    finish(pages, None)
    for page in pages:
        page.wait_for_selector("#final:not([hidden])")
        assert page.locator("#final tr").count() == 3
        link = page.locator("#final a.replay-link")
        assert link.count() == 1 and "/replay/" in link.get_attribute("href")


def test_every_mark_in_tictactoe_carries_its_owners_colour_and_shape(browser, serve):
    links, _ = serve(str(GAMES / "tictactoe.rules"), "--seats", "human,human", "--seed", "2")
    pages = pages_of(browser, links)
    finish(pages, ".cell.choosable")
    page = pages[0]
    marks = page.eval_on_selector_all(".cell .piece", """es => es.map(e => [e.dataset.owner,
        getComputedStyle(e).getPropertyValue('--owner').trim(), e.textContent])""")
    assert len(marks) >= 5 and all(m[0] in ("0", "1") for m in marks)
    owners = {m[0]: (m[1], m[2]) for m in marks}
    assert len(owners) == 2 and owners["0"] != owners["1"]       # two colours, two shapes
    assert all((m[1], m[2]) == owners[m[0]] for m in marks)
    counts = [sum(m[0] == k for m in marks) for k in ("0", "1")]
    assert counts[0] - counts[1] in (0, 1)                         # P1 moved first
    page.screenshot(path=str(SHOTS / "tictactoe.png"), full_page=True)


def test_a_face_down_choice_lies_face_down_before_its_chooser(browser, serve):
    links, _ = serve(str(DEMOCRACY), "--seats", "human,human,random", "--seed", "6")
    pages = pages_of(browser, links)
    page = next(p for p in pages if p.locator("#turn .turn-line.yours").count())
    other = pages[1] if page is pages[0] else pages[0]
    seat = int(page.evaluate("last.view.seat"))
    before = version(other)
    page.locator("button.option").first.click()
    other.wait_for_function("v => document.body.dataset.version !== v", arg=before)
    spot = other.locator(f".seat[data-seat='{seat}'] .face-down-choice .piece.back")
    assert spot.count() == 1
    assert "chosen" in other.inner_text(f".seat[data-seat='{seat}'] .face-down-choice")
    page.wait_for_function("() => document.querySelector('.seat.me .face-down-choice')")
    mine = page.inner_text(".seat.me .face-down-choice")
    assert "your choice" in mine and "face down" in mine
    other.screenshot(path=str(SHOTS / "democracy.png"), full_page=True)
