"""play: sit at the table in the terminal with people and bots; table-stats: games played by
people beside random play's figures."""
from __future__ import annotations

import os
import secrets

import click

from .options import games_option, json_option, lang_option, seed_option
from .common import RULE_FILE
from .common import main, _echo_errors, _fail, _variant_option, _load_or_exit, _game_or_exit, players_option, writable_or_exit


@main.command(help="""Play a game in the terminal: people and bots at one table.

\b
Each person sees only what their seat may see, the log since their last turn, and their
options numbered in words; they type a number (u undo, q stop and keep the game, ? help).
Several people at one keyboard: the screen clears between two people's turns.
The game is saved after every move (--save; by default under out/tables/).

\b
Examples:
  playtest play games/GAME.rules -p 3                      you against two random bots
  playtest play games/GAME.rules --seats human,ismcts:200,random --lang ja
  playtest play games/GAME.rules --seats human,human       two people, one keyboard
  playtest play --resume out/tables/GAME.json              go on with a stopped game""")
@click.argument("file", type=RULE_FILE, required=False)
@_variant_option
@players_option
@click.option("--seats", default=None, metavar="SEAT,SEAT,...",
              help="Who sits in each seat, in order: human, or a bot as --agents takes it (random, flat:N, "
                   "ismcts:N; ismcts:1s thinks a second a move). Default: one human and random bots.")
@click.option("--seed", type=int, default=None, help="Seed for the shuffles, dice and bots (default: 256 bits of fresh seed material each game, kept in the save).")
@lang_option("Language of the table: en or ja.")
@click.option("--save", "save", type=click.Path(), default=None,
              help="Replay file written after every move (default: out/tables/GAME.json, numbered if taken).")
@click.option("--resume", type=click.Path(), default=None, help="Go on with a game saved by play.")
def play(file, variants, players, seats, seed, lang, save, resume):
    from ..agents.spec import FORMS
    from ..table import Table
    from ..table.terminal import Terminal
    if resume:
        if file or variants or players or seats or seed is not None or save:
            _fail("--resume goes on with the saved game as it was: give no game file, --variant, --players, "
                  "--seats, --seed or --save with it", 2)
        table = resumed_or_exit(resume)
        save = resume
    else:
        if not file:
            _fail("name the game's rule file (playtest play games/GAME.rules), or --resume FILE", 2)
        rules, _ = _load_or_exit(file, variants)
        spec = [s.strip() for s in seats.split(",")] if seats else None
        game = _game_or_exit(rules, players if players is not None or spec is None else len(spec))
        spec = spec or ["human"] + ["random"] * (game.n - 1)
        if len(spec) != game.n:
            _fail(f"--seats names {len(spec)} seats for {game.n} players: give one per seat", 2)
        if save and os.path.exists(save):
            _fail(f"--save {save}: the file is there already; go on with that game with --resume {save}, "
                  "or give another file", 2)
        save = save or _free_name(os.path.join("out", "tables"), file, variants)
        writable_or_exit(save, "--save")
        try:
            table = Table(rules, game.n, spec, secrets.token_bytes(32) if seed is None else seed, save,
                          list(variants))
        except ValueError as e:
            reason = str(e).split("; valid forms")[0]
            _fail(f"--seats: {reason}; a seat is human or one of " + ", ".join(FORMS), 2)
        except OSError as e:
            _fail(f"{save}: cannot write the game ({e.strerror or e})")
    try:
        Terminal(table, lang, saved_to=save).run()
    except KeyboardInterrupt:
        click.echo(f"\nStopped. Continue with: playtest play --resume {save}")
    except OSError as e:
        _fail(f"{save}: cannot write the game ({e.strerror or e})")


def _free_name(folder: str, rules_path: str, variants) -> str:
    """out/tables/GAME.json, or GAME-2.json... when a game already sits there."""
    from ..analyses.replay import file_name
    stem = file_name(rules_path, variants)[:-5]
    for k in range(1, 10_000):
        path = os.path.join(folder, stem + (f"-{k}" if k > 1 else "") + ".json")
        if not os.path.exists(path):
            return path
    _fail(f"{folder}: too many saved games named {stem}; give --save FILE")


def resumed_or_exit(path):
    """The table of a saved game, played on from the rules it carries (play and serve)."""
    from ..analyses import replay as replay_mod
    from ..language.diagnostics import RuleFileError
    from ..table import Table
    try:
        return Table.resume(path)
    except replay_mod.ReplayError as e:
        _fail(str(e))
    except RuleFileError as e:
        _echo_errors(e, f"{path} (the rules it carries)")



@main.command("table-stats", help="""Games played by people at the table beside random play's figures.

\b
Reads the replays `play` saved in FOLDER (and below; those where a person sat) and, for each
game and player count, prints side by side: games and finished games, decisions per game,
wins by seat, the share people's seats won against their fair share, the options people took
(random play: every seat), the dead ends met and the rulings made at the table. Random play's column comes from -n random
games from --seed, as `simulate` plays them.

\b
Example:
  playtest table-stats out/tables -n 500""")
@click.argument("folder", type=click.Path(exists=True, file_okay=False))
@games_option(200, "Random games to compare with.")
@seed_option("Seed of the random games: the same seed gives the same figures.")
@lang_option("Language of the tables: en or ja.")
@json_option("Print one JSON object instead of tables.")
@click.option("--against", "against", multiple=True, metavar="AGENT",
              help="Calibration: bots (random, ismcts:N, strategy:NAME) each play --against-games games; "
                   "the table's length and seat balance beside theirs, with 95% intervals. Repeatable.")
@click.option("--against-games", type=click.IntRange(min=1), default=20, show_default=True,
              help="Games each --against bot plays.")
@click.option("--html", "html", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Also write one self-contained HTML page: the ratings with intervals, the notes by rule and by "
                   "decision with the command that opens each, the rulings, and the table beside random play and "
                   "the --against bots as charts.")
def table_stats(folder, games, seed, lang, as_json, against, against_games, html):
    import json
    if html:
        writable_or_exit(html, "--html")
        if "random" not in against:         # the page sets the table beside random play with intervals
            against = ("random", *against)
    out, played, skipped = table_data(folder, games, seed, lang, against, against_games)
    if html:
        from ..io_guard import write_set
        from ..table.stats_page import render
        try:
            write_set([(html, render(out, played, lang))])
        except OSError as e:
            _fail(f"{html}: cannot write the page ({e.strerror or e})")
    if as_json:
        click.echo(json.dumps({"groups": out, "sessions": played, "skipped": [{"file": f, "why": w} for f, w in skipped]},
                              ensure_ascii=False, indent=1, sort_keys=True))
        return
    for f, why in skipped:
        click.echo(f"skipped {f}: {why}", err=True)
    if not out:
        _fail(f"{folder}: no game played by people (save one with `playtest play`)")
    from ..table.sessions import lines
    for g in out:
        _print_comparison(g)
        if "calibration" in g:
            _print_calibration(g["calibration"])
    if played:
        click.echo("Sessions by version of the rules: the people's answers and notes")
    for s in played:
        for line in lines(s, s["titles"]):
            click.echo(line)
        click.echo("")
    if html:
        click.echo(f"wrote {html}", err=True)


def table_data(folder, games, seed, lang, against=(), against_games=20) -> tuple:
    """(the groups of table games beside random play and the bots, the sessions by version of the
    rules, [(file, why it was left out)]) of the replays in `folder`: table-stats' and the report's."""
    from ..table.sessions import sessions, titles_of
    from ..table.stats import random_figures, table_figures, table_games, table_replays
    groups, skipped = table_replays(folder)
    out = []
    for (rules_path, variants, players), game, replays in table_games(groups, skipped):
        table = table_figures(game, replays, skipped)
        if not table["games"]:
            continue
        rand = random_figures(game, games, seed)
        calib = _calibration(rules_path, variants, players, game, replays, against, against_games, seed)
        out.append({"rules": rules_path, "variants": list(variants), "players": players,
                    "table": table, "random": rand, "random_seed": seed, **calib,
                    "option_titles": _option_titles(game, lang, [*table["options_taken"], *rand["options_taken"]])})
    played = sessions(folder)
    for s in played:
        first = (s["notes_by_step"] or [{"file": None}])[0]["file"]
        s["titles"] = titles_of(first, lang) if first else {}
    return out, played, skipped


def _print_comparison(g):
    t, r = g["table"], g["random"]
    name = " + ".join([g["rules"], *g["variants"]])
    click.echo(f"{name}, {g['players']} players: at the table vs random play (seed {g['random_seed']})")
    rows = [("games (finished)", f"{t['games']} ({t['finished']})", f"{r['games']} ({r['finished']})"),
            ("decisions per game, mean", _num(t["decisions_per_game"]["mean"]), _num(r["decisions_per_game"]["mean"])),
            ("decisions per game, median", _num(t["decisions_per_game"]["median"]), _num(r["decisions_per_game"]["median"]))]
    for seat in t["win_share_by_seat"]:
        rows.append((f"P{seat} won", _pct(t["win_share_by_seat"][seat]), _pct(r["win_share_by_seat"][seat])))
    rows.append(("people's seats won (fair share)",
                 f"{_pct(t['people_win_share'])} ({_pct(t['people_fair_share'])})", "-"))
    dead = sorted(set(t["dead_ends"]) | set(r["dead_ends"]))
    for d in dead:
        rows.append((f"dead end: {d}", str(t["dead_ends"].get(d, 0)), str(r["dead_ends"].get(d, 0))))
    if not dead:
        rows.append(("dead ends", "0", "0"))
    for k, count in t.get("rulings", {}).items():
        rows.append((f"ruling made at the table: {k}", str(count), "-"))
    rows.append((f"options taken (people: {t['decisions_counted']}; random: {r['decisions_counted']})", "", ""))
    for k in list(dict.fromkeys([*t["options_taken"], *r["options_taken"]])):
        rows.append((f"  {g['option_titles'][k]}", _pct(t["options_taken"].get(k, 0.0)), _pct(r["options_taken"].get(k, 0.0))))
    from rich.cells import cell_len         # a Japanese title is two columns a character
    width = max(cell_len(a) for a, _, _ in rows)
    click.echo(f"  {'':<{width}}  {'table':>12}  {'random':>12}")
    for a, b, c in rows:
        click.echo(f"  {a}{' ' * (width - cell_len(a))}  {b:>12}  {c:>12}")
    if t["finished"] < 10:
        click.echo(f"  ({t['finished']} finished table games: too few to tell a difference from chance)")
    click.echo("")


def _calibration(rules_path, variants, players, game, replays, against, games, seed) -> dict:
    if not against:
        return {}
    from ..engine import compiled
    from ..table import calibration as C
    if any(a.startswith("strategy") or "/" in a for a in against):     # the strategies beside the game
        from ..language.diagnostics import RuleFileError
        from ..loader import load
        try:
            rules, _ = load(rules_path, list(variants), strategies_beside=True)
        except RuleFileError as e:
            _fail(f"--against: the strategies beside {rules_path} do not load: {str(e).splitlines()[0]}")
        game = compiled(rules, players)
    table = C.table_games(replays, game)
    try:
        bots = {a: C.bot_games(game, a, games, seed) for a in against}
    except ValueError as e:
        _fail(f"--against: {e}")
    return {"calibration": {"table": table, "bots": bots, "flags": C.flags(table, bots)}}


def _print_calibration(c):
    def fig(f, key):
        r = f["length"] if key == "length" else f["win_share"].get(key)
        if not r or r.get("low") is None:
            return "-"
        mid = r["mean"] if key == "length" else r["share"]
        return f"{mid:.2f} [{r['low']:.2f}, {r['high']:.2f}]" if key == "length" else \
            f"{mid:.0%} [{r['low']:.0%}, {r['high']:.0%}]"
    names = ["table", *c["bots"]]
    cols = [c["table"], *c["bots"].values()]
    click.echo("  calibration (95% intervals; games played to a result: " +
               ", ".join(f"{n} {f['games']}" for n, f in zip(names, cols)) + ")")
    rows = [("decisions per game", "length")] + [(f"P{s} won", s) for s in c["table"]["win_share"]]
    w = max(len(n) for n in names) + 18
    click.echo(f"  {'':<22}" + "".join(f"{n:>{w}}" for n in names))
    for label, key in rows:
        click.echo(f"  {label:<22}" + "".join(f"{fig(f, key):>{w}}" for f in cols))
    for f in c["flags"]:
        if f["verdict"] == "differ":
            click.echo(f"  differs beyond the intervals: {f['figure']}, table vs {f['bot']}")
    agree = sorted({f["bot"] for f in c["flags"]} - {f["bot"] for f in c["flags"] if f["verdict"] == "differ"})
    for b in agree:
        click.echo(f"  agrees within the intervals on every figure: table and {b}")
    click.echo("")


def _option_titles(game, lang, keys) -> dict:
    """Each 'rule: option' key as the rulebook titles it: 'STEP TITLE: OPTION TITLE'."""
    from ..printing.narrate import Narrator
    n = Narrator(game, lang)
    out = {}
    for k in keys:
        owner, sep, option = k.partition(": ")
        out[k] = (f"{n.step(owner)}: {n.option(option)}" if option != "choose" else n.step(owner)) if sep else n.step(k)
    return out


def _num(v) -> str:
    return "-" if v is None else f"{v:g}"


def _pct(v) -> str:
    return "-" if v is None else f"{v:.0%}"


@main.command("table-script", help="""Table games whose people are played by a policy, for calibration.

\b
Plays -n games at the table in which seat 1 is a person whose choices a non-random policy makes
(a declared strategy, strategy:NAME, from the strategies beside the game) and the other seats
--others; each game's replay is saved in --save as a person's game is. `table-stats DIR
--against random --against ismcts:N` then sets them beside bots' games, with 95% intervals.

\b
Example:
  playtest table-script my-game.rules -p 3 --people strategy:NAME -n 10 --save out/calib""")
@click.argument("file", type=RULE_FILE)
@_variant_option
@players_option
@click.option("--people", required=True, metavar="AGENT", help="The policy that makes the person's choices (strategy:NAME).")
@click.option("--others", default="random", show_default=True, metavar="AGENT", help="Who sits in the other seats.")
@games_option(10, "Games to play.")
@seed_option("Seed of the first game (game i uses seed + i).")
@click.option("--save", "save", type=click.Path(file_okay=False), required=True, help="Folder the replays are saved in.")
def table_script(file, variants, players, people, others, games, seed, save):
    from ..language.diagnostics import RuleFileError
    from ..loader import load
    from ..table.calibration import scripted
    try:
        rules, _ = load(file, list(variants), strategies_beside=True)
    except RuleFileError as e:
        _echo_errors(e, file)
        raise SystemExit(1)
    from ..agents.spec import parse_agent
    from ..agents.strategy import ready
    game = _game_or_exit(rules, players)
    try:        # a policy the game lacks is told before the folder is made
        ready([parse_agent(people), parse_agent(others)], game)
    except ValueError as e:
        _fail(f"--people/--others: {e}")
    writable_or_exit(save, "--save", folder=True)
    paths = scripted(rules, game.n, people, others, games, seed, save)
    click.echo(f"{len(paths)} games saved in {save}")
