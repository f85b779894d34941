"""The table in a real browser (Playwright driving Debian's chromium): two people and a bot finish
a game of Bluff and of Democracy, each person on their own page, clicking options and cards;
two people finish tic-tac-toe clicking the board's spaces; a dead end's replay steps back and forth."""
from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys

import pytest

from dsl.analyses import replay as replay_mod

from _util import BLUFF, DEMOCRACY, GAMES, ROOT, game_of

TICTACTOE = GAMES / "tictactoe.rules"

CHROMIUM = "/usr/bin/chromium"


@pytest.fixture(scope="module")
def browser():
    if not os.path.exists(CHROMIUM):
        pytest.skip("chromium is not installed: apt-get install chromium")
    from playwright.sync_api import sync_playwright
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        yield b
        b.close()


@pytest.fixture
def serve(tmp_path):
    """Starts `playtest serve`; returns the human seats' links and the replay file."""
    procs = []

    def start(*args):
        proc = subprocess.Popen([sys.executable, "-m", "dsl.cli", "serve", *args, "--port", "0", "--save", str(tmp_path)],
                                cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        procs.append(proc)
        links, saved = {}, None
        for line in proc.stdout:
            m = re.match(r"\s+(P\d+ \(human\)|designer)\s+(http://\S+)", line)
            if m:
                links[m[1].split()[0]] = m[2]
            if line.startswith("saved after every move to "):
                saved = line.split(" to ", 1)[1].split(";")[0]
            if line.startswith("Ctrl-C"):
                break
        assert links and saved, proc.stderr.read()
        return links, saved

    yield start
    for proc in procs:
        proc.terminate()
        proc.wait()


def version(page) -> str:
    return page.evaluate("document.body.dataset.version")


def finish(pages, clickable) -> int:
    """Each page takes its turn when its page says so, until both pages show the game's end:
    every other choice by a click on what `clickable` selects (cards, spaces) where it can, the
    rest by option buttons; returns how many choices the pages made."""
    made = 0
    while not all(p.evaluate("document.body.dataset.ended") == "yes" for p in pages):
        looking = next((p for p in pages if p.evaluate("document.body.dataset.moment") == "yours"), None)
        if looking is not None:     # the table holds what just happened until each person continues
            before = version(looking)
            looking.locator("button.carry-on").click()
            looking.wait_for_function("v => document.body.dataset.version !== v", arg=before)
            now = version(looking)
            for other in pages:     # every page has the table after that continue before the next look
                other.wait_for_function("v => document.body.dataset.version === v", arg=now)
            continue
        page = next((p for p in pages if p.locator("#turn .turn-line.yours").count()), None)
        if page is None:        # the other page's update is on its way: wait for any page to change
            seen = [version(p) for p in pages]
            pages[0].wait_for_function(
                "seen => document.body.dataset.ended === 'yes' || document.body.dataset.version !== seen", arg=seen[0])
            continue
        before = version(page)
        cards = page.locator(clickable or "none")
        if clickable and cards.count() and made % 2 == 0:
            cards.nth(made % cards.count()).click()
            page.wait_for_function("v => document.body.dataset.version !== v || document.body.dataset.picking === 'yes'",
                                   arg=before)
            if page.evaluate("document.body.dataset.picking") == "yes":
                page.locator("button.option:not(.faded)").first.click()
        else:
            options = page.locator("button.option")
            options.nth((made * 7) % options.count()).click()
        page.wait_for_function("v => document.body.dataset.version !== v", arg=before)
        now = version(page)
        for other in pages:     # both pages see the same table version before the next choice
            other.wait_for_function("v => document.body.dataset.version === v", arg=now)
        made += 1
    return made


@pytest.mark.parametrize("path, seats, seed, clickable", [
    (BLUFF, "human,human,random", 4, None),
    pytest.param(DEMOCRACY, "human,human,random", 6, ".piece.choosable", marks=pytest.mark.slow),     # ~20 s
    (TICTACTOE, "human,human", 2, ".cell.choosable"),
], ids=["bluff", "democracy", "tictactoe"])
def test_people_and_a_bot_finish_a_game_from_their_own_pages(browser, serve, path, seats, seed, clickable):
    links, saved = serve(str(path), "--seats", seats, "--seed", str(seed))
    n = len(seats.split(","))
    pages = []
    for seat in ("P1", "P2"):
        page = browser.new_context(viewport={"width": 1400, "height": 900}).new_page()
        errors = []
        page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
        page.goto(links[seat])
        page.wait_for_selector("body[data-state=live]")
        assert page.locator("#who").inner_text().endswith(seat)
        pages.append((page, errors))
    made = finish([p for p, _ in pages], clickable)
    rep = replay_mod.load(saved)
    state = replay_mod.run(game_of(str(path), n), rep.actions, log=False)
    assert state.is_terminal()
    assert made == sum(1 for actor, _ in rep.actions if actor in (0, 1)) and made >= 3
    data = json.loads(open(saved, encoding="utf-8").read())
    assert data["seats"] == seats.split(",") and data["undone"] == []
    for seat, (page, errors) in zip(("P1", "P2"), pages):
        assert errors == []
        assert page.locator("#result").inner_text().strip()
        # the page draws only pieces the seat's view shows (a pile: its top one), the rest as backs
        view = seat_view(links[seat])
        shown = {p["id"] for z in view["zones"] for p in z["pieces"] if p is not None}
        drawn = {int(x) for x in page.eval_on_selector_all("[data-piece]", "es => es.map(e => e.dataset.piece)")}
        assert drawn <= shown
        hands = [z for z in view["zones"] if z["kind"] == "hand"]
        assert page.locator(".kind-hand .piece.back, .kind-hand .piece.die.hidden").count() \
            == sum(p is None for z in hands for p in z["pieces"])


def seat_view(link: str) -> dict:
    """What the server sends that link's seat, read over a socket of its own."""
    from websockets.sync.client import connect
    address, token = link.split("#")
    with connect(address.replace("http://", "ws://").replace("/table/", "/ws/")) as ws:
        ws.send(json.dumps({"type": "join", "token": token}))
        return json.loads(ws.recv())["view"]


def test_a_dead_end_replay_opens_at_its_dead_end_and_steps_back_from_any_seat(browser, tmp_path):
    subprocess.run([sys.executable, "-m", "dsl.cli", "simulate", str(BLUFF), "-p", "2", "-n", "300", "--seed", "1",
                    "--workers", "1", "--save-dead-ends", str(tmp_path)], cwd=ROOT, check=True, capture_output=True)
    saved = sorted(tmp_path.glob("*.json"))[0]
    steps = len(replay_mod.load(str(saved)).actions)
    proc = subprocess.Popen([sys.executable, "-m", "dsl.cli", "replay", str(saved), "--serve", "--port", "0"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        said = [proc.stdout.readline() for _ in range(2)]
        assert said[0].endswith(f"{steps} actions, opening at step {steps} of {steps} (the dead end)\n"), said
        page = browser.new_page(viewport={"width": 1400, "height": 800})
        page.goto(said[1].strip())
        page.wait_for_selector("body[data-state=live]")
        assert page.inner_text("#stepno") == f"Step {steps} of {steps}"
        assert "DEAD END" in page.inner_text("#result") and "resolve_challenge" in page.inner_text("#result")
        assert page.locator(".piece.back, .piece.die.hidden").count() == 0         # the designer sees all
        page.select_option("#lookas", "1")
        page.click("#first")
        page.wait_for_function("() => document.querySelector('#stepno').textContent === 'Step 0 of %d'" % steps)
        # forward, step by step, as P2 sees it: once the dice are rolled P1's are hidden from P2
        for step in range(1, steps + 1):
            page.click("#forward")
            page.wait_for_function("s => document.querySelector('#stepno').textContent === s",
                                   arg=f"Step {step} of {steps}")
            assert page.locator(".narration li.now").count() >= 1
            if page.locator("[data-zone='cup(1)'] .piece.die.hidden").count():
                break
        assert page.locator("[data-zone='cup(1)'] .piece.die.hidden").count() == 5
        assert page.locator("[data-zone='cup(2)'] .piece.die:not(.hidden)").count() == 5
    finally:
        proc.terminate()
        proc.wait()


def test_a_page_whose_connection_drops_rejoins_its_seat_and_plays_on(browser, serve):
    links, saved = serve(str(BLUFF), "--seats", "human,random", "--seed", "3")
    page = browser.new_page()
    page.goto(links["P1"])
    page.wait_for_selector("body[data-state=live]")
    before = version(page)
    page.evaluate("socket.close()")
    page.wait_for_selector("body[data-state=lost]")
    page.wait_for_selector("body[data-state=live]")        # it reconnected with its own token
    assert page.locator("#who").inner_text().endswith("P1") and version(page) == before
    mine = [a for a in replay_mod.load(saved).actions if a[0] == 0]
    page.locator("button.option").first.click()
    page.wait_for_function("v => document.body.dataset.version !== v", arg=before)
    assert len([a for a in replay_mod.load(saved).actions if a[0] == 0]) == len(mine) + 1


def served_at(args, port="0"):
    port = [] if port is None else ["--port", port]
    proc = subprocess.Popen([sys.executable, "-m", "dsl.cli", "serve", *args, *port],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    links = {}
    for line in proc.stdout:
        m = re.match(r"\s+(P\d+ \(human\)|designer)\s+(http://\S+)", line)
        if m:
            links[m[1].split()[0]] = m[2]
        if line.startswith("Ctrl-C"):
            break
    assert links, proc.stderr.read()
    return proc, links


def test_a_page_open_across_a_kill_and_a_resume_rejoins_by_itself(browser, tmp_path):
    """kill -9, then `serve --resume FILE` (no port given: the game's links say where it was
    served): the open page comes back to the same seat at the same link; while the server is
    down it offers nothing to click."""
    proc, links = served_at([str(BLUFF), "--seats", "human,random", "--save", str(tmp_path)])
    resumed = None
    try:
        page = browser.new_page()
        page.goto(links["P1"])
        page.wait_for_selector("body[data-state=live]")
        assert page.locator("#turn .turn-line.yours").count() == 1
        before = version(page)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        page.wait_for_selector("body[data-state=lost]")
        assert page.evaluate("[...document.querySelectorAll('button.option')].every(b => b.disabled)")
        assert page.locator("button.option").count() > 0 and page.locator("#banner").is_visible()
        saved = next(str(p) for p in tmp_path.glob("*.json"))
        resumed, again = served_at(["--resume", saved], None)
        assert again == links
        page.wait_for_selector("body[data-state=live]", timeout=30000)
        assert version(page) == before and page.locator("#who").inner_text().endswith("P1")
        assert not page.locator("#banner").is_visible()
        page.locator("button.option").first.click()
        page.wait_for_function("v => document.body.dataset.version !== v", arg=before)
    finally:
        for p in (proc, resumed):
            if p is not None and p.poll() is None:
                p.terminate()
                p.wait()


def test_a_link_the_server_refuses_says_why_and_stops_trying(browser, serve):
    links, _ = serve(str(BLUFF), "--seats", "human,random", "--seed", "3")
    page = browser.new_page()
    sockets = []
    page.on("websocket", lambda ws: sockets.append(ws))
    page.goto(links["P1"].split("#")[0] + "#not-a-token-of-this-game")
    page.wait_for_selector("body[data-state=gone]")
    assert "that token sits at no seat of this game" in page.inner_text("#banner")
    page.wait_for_timeout(2500)         # the old page tried again every half second, forever
    assert len(sockets) == 1 and page.evaluate("document.body.dataset.state") == "gone"
