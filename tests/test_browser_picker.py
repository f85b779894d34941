"""Options made of several values, in a real browser: Bluff's bid is picked face first, then
count, the counts no legal bid has with the face picked greyed, the option's reading (the
rulebook's words) beside it, and the keyboard (type a number, arrows, Enter) takes it."""
from __future__ import annotations

import json
import os

from _util import BLUFF, ROOT
from test_browser_table import browser, serve, version  # noqa: F401  (fixtures)

SHOTS = ROOT / "docs" / "table"


def _open(browser, url):  # noqa: F811
    page = browser.new_context(viewport={"width": 1400, "height": 900}).new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    page.wait_for_selector("body[data-state=live]")
    return page, errors


def test_a_bid_is_picked_value_by_value_with_the_illegal_ones_greyed(browser, serve):  # noqa: F811
    links, saved = serve(str(BLUFF), "--seats", "human,human", "--seed", "3")
    p1, errors = _open(browser, links["P1"])
    p1.wait_for_selector(".picker")
    picker = p1.locator(".picker").first
    assert "Choose a face (1 to 5) and a count" in picker.inner_text()
    assert "Choose a face" in (p1.locator("button.option").first.get_attribute("title") or "")
    rows = picker.locator(".picker-row")
    assert rows.count() == 2
    assert rows.nth(0).locator(".picker-value").count() == 5 and rows.nth(1).locator(".picker-value").count() == 10
    # the keyboard: face 3 typed, count 2 after an arrow right from 1; Enter takes it
    picker.focus()
    p1.keyboard.type("3")
    p1.wait_for_selector(".picker-row[data-param='0'] .picker-value.chosen[data-value='3']")
    before = version(p1)
    p1.keyboard.press("ArrowRight")
    p1.keyboard.press("ArrowRight")
    p1.wait_for_selector(".picker-row[data-param='1'] .picker-value.chosen[data-value='2']")
    p1.keyboard.press("Enter")
    p1.wait_for_function("v => document.body.dataset.version !== v", arg=before)
    # P2 raises on 3 twos: only faces 3 to 5 and counts 2 to 10 are in any raise; with face 3
    # picked, count 2 (the bid itself) is greyed; with face 4 it is not
    p2, errors2 = _open(browser, links["P2"])
    p2.wait_for_selector(".picker")
    picker = p2.locator(".picker").first
    assert "neither goes down" in picker.inner_text()
    picker.locator(".picker-row[data-param='0'] .picker-value[data-value='3']").click()
    counts = picker.locator(".picker-row[data-param='1'] .picker-value")
    greyed = [counts.nth(i).get_attribute("data-value") for i in range(counts.count())
              if "greyed" in counts.nth(i).get_attribute("class")]
    assert greyed == ["2"]
    assert picker.locator(".picker-row[data-param='0'] .picker-value").all_inner_texts() == ["3", "4", "5"]
    picker.locator(".picker-row[data-param='0'] .picker-value[data-value='4']").click()
    assert not picker.locator(".picker-row[data-param='1'] .picker-value.greyed").count()
    picker.locator(".picker-row[data-param='0'] .picker-value[data-value='3']").click()
    if os.environ.get("PLAYTEST_SHOTS"):
        p2.screenshot(path=str(SHOTS / "bluff-picker.png"))
    picker.locator(".picker-row[data-param='1'] .picker-value[data-value='4']").click()
    before = version(p2)
    p2.locator(".picker-take").click()
    p2.wait_for_function("v => document.body.dataset.version !== v", arg=before)
    data = json.loads(open(saved, encoding="utf-8").read())
    people = [a for a in data["actions"] if a[0] in (0, 1)]
    assert people[0][1][1:] == [3, 2] and people[1][1][1:] == [3, 4]
    assert not errors and not errors2
