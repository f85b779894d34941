"""Notes and the questionnaire in a real browser (Playwright driving Debian's chromium): two
people play tic-tac-toe, each leaves a note at a decision naming a rule, the other's page never
shows it before the end, both answer the questionnaire; `table-stats` lists the notes by rule with
the command that opens the replay at the note's step, and that command opens the page there."""
from __future__ import annotations

import json
import os
import subprocess
import sys

from click.testing import CliRunner

from dsl.cli import main

from _util import ROOT
from test_browser_table import TICTACTOE, browser, finish, serve, version  # noqa: F401  (fixtures)

SHOTS = ROOT / "docs" / "table"


def _note(page, text: str) -> None:
    before = page.locator("#notes-panel .note-item").count()
    page.fill("#note-text", text)
    page.select_option("#note-rule", "take")
    page.click("#note-add")
    page.wait_for_function("n => document.querySelectorAll('#notes-panel .note-item').length > n", arg=before)


def _move(page) -> None:
    before = version(page)
    page.locator("button.option").first.click()
    page.wait_for_function("v => document.body.dataset.version !== v", arg=before)


def test_two_people_leave_notes_and_answer_and_table_stats_opens_the_replay_at_each(browser, serve, tmp_path):  # noqa: F811
    links, saved = serve(str(TICTACTOE), "--seats", "human,human", "--seed", "2")
    pages = {}
    for who in ("P1", "P2", "designer"):
        page = browser.new_context(viewport={"width": 1400, "height": 900}).new_page()
        page.on("pageerror", lambda e: (_ for _ in ()).throw(AssertionError(str(e))))
        page.goto(links[who])
        page.wait_for_selector("body[data-state=live]")
        pages[who] = page
    p1, p2, designer = pages["P1"], pages["P2"], pages["designer"]
    _note(p1, "<i>no good</i> choice here")
    designer.wait_for_selector("#notes-panel .note-item")           # the designer's link sees it at once
    assert p1.inner_text("#notes-panel .note-text") == "<i>no good</i> choice here"     # text, not markup
    assert "Claim a square" in p1.inner_text("#notes-panel .note-where")
    _move(p1)
    p2.wait_for_selector("#turn .turn-line.yours")
    assert p2.locator("#notes-panel .note-item").count() == 0 and "<i>no good" not in p2.content() and "&lt;i&gt;no good" not in p2.content()
    _note(p2, "this rule was unclear")
    _move(p2)
    p1.wait_for_selector("#turn .turn-line.yours")
    assert [t for t in p1.locator("#notes-panel .note-text").all_inner_texts()] == ["<i>no good</i> choice here"]
    finish([p1, p2], None)
    for page, overall in ((p1, 4), (p2, 2)):
        page.wait_for_selector("#questionnaire")
        assert page.locator("#notes-panel .note-item").count() == 2        # after the end every note is shown
        page.check(f"#questionnaire .q[data-key=overall] input[value='{overall}']")
        page.check("#questionnaire .q[data-key=length] input[value=right]")
        page.fill("#questionnaire .q[data-key=unclear] textarea", "whether a full grid is a draw")
        if page is p1 and os.environ.get("PLAYTEST_SHOTS"):
            page.screenshot(path=str(SHOTS / "notes.png"), full_page=True)
        page.click("#answers-send")
        page.wait_for_function("() => document.querySelector('#questionnaire').dataset.done === 'yes'")
    data = json.loads(open(saved, encoding="utf-8").read())
    assert [(n["step"], n["seat"], n["rule"]) for n in data["notes"]] == [(0, 0, "take"), (1, 1, "take")]
    assert data["answers"]["0"]["overall"] == 4 and data["answers"]["1"]["overall"] == 2
    out = CliRunner().invoke(main, ["table-stats", os.path.dirname(saved), "-n", "5"]).output
    assert "notes by rule:" in out and "    Claim a square:" in out
    assert "at action 1, P2: this rule was unclear" in out
    assert "overall: mean 3.00 of 2" in out
    command = next(line.strip() for line in out.splitlines() if line.strip().endswith("--step 1"))
    args = command.split()[1:]
    proc = subprocess.Popen([sys.executable, "-m", "dsl.cli", *[a.strip("'") for a in args], "--port", "0"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        said = [proc.stdout.readline() for _ in range(2)]
        assert "opening at step 1 of" in said[0], said
        page = browser.new_page(viewport={"width": 1400, "height": 800})
        page.goto(said[1].strip())
        page.wait_for_selector("body[data-state=live]")
        assert page.inner_text("#stepno").startswith("Step 1 of ")
        here = page.locator("#notes-panel .note-item.here")
        assert here.count() == 1 and here.locator(".note-text").inner_text() == "this rule was unclear"
        page.locator("#notes-panel .note-item .note-go").first.click()
        page.wait_for_function("() => document.querySelector('#stepno').textContent.startsWith('Step 0 of ')")
        assert page.locator("#notes-panel .note-item.here .note-text").inner_text() == "<i>no good</i> choice here"
    finally:
        proc.terminate()
        proc.wait()
