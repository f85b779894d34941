"""strategies: the strategies a game declares, read in the rulebook's words and played side by side."""
from __future__ import annotations

import json

import click

from .agents import _bar
from .common import RULE_FILE, main, players_option, _game_or_exit, _load_or_exit, _scale_options, _variant_option
from .common import pool_or_exit
from .options import games_option, json_option, lang_option, pad, say, seed_option
from .simulate import agents_failing_exit


@main.command(help="""Show a game's declared strategies in words, and how each does against random
players and against each other: seat-rotated matches with 95% intervals.

Strategies are declared in the game file or in strategies/GAME.rules beside games/ (a file
that starts 'strategies for GAME'); FILE may be either. Each cell is one match: the row's
strategy in one seat (moved one seat along each game), the column's in every other.

\b
Examples:
  playtest strategies games/GAME.rules --players 2 -n 200 --seed 1
  playtest strategies strategies/GAME.rules -p 4 --lang ja
  playtest strategies games/GAME.rules -p 2 --json""")
@click.argument("file", type=RULE_FILE)
@_variant_option
@players_option
@games_option(100, "Games per pairing.")
@seed_option()
@lang_option()
@json_option()
@_scale_options
def strategies(file, variants, players, games, seed, lang, as_json, workers, scheduler):
    from ..agents.strategy import StrategyError, declared, rules_with_strategies
    from ..agents.strategy_table import pairings, side_by_side
    rules, _ = _load_or_exit(file, variants)
    game = _game_or_exit(rules, players)
    with agents_failing_exit(game):
        if not declared(game):
            raise StrategyError(f"{file} declares no strategy (write them in the game file or in strategies/)")
        readings = {lang_: _readings(rules_with_strategies(game), lang_) for lang_ in ("en", "ja")}
        with pool_or_exit(workers, scheduler) as pool, \
                _bar(games * pairings(game), f"strategies of {rules.game.name}") as progress:
            result = side_by_side(game, games, seed, progress, pool)
    result["readings"] = readings
    if as_json:
        click.echo(json.dumps(result, ensure_ascii=False, indent=1, sort_keys=True))
        return
    click.echo(format_side_by_side(rules.game, result, lang))


def _readings(rules, lang) -> dict:
    from ..constructs.registry import hook
    from ..language import syntax as S
    from ..printing.prose import Voice, plain
    v = Voice(rules, lang)
    return {d.name: plain(hook(d, "read")(v, d)) for d in rules.of(S.Strategy)}


_CELL = 24


def format_side_by_side(decl, r, lang: str = "en") -> str:
    from ..analyses.verdicts import verdict
    from ..language import syntax as S
    name = S.text_of(decl.texts, "title", lang) or decl.name
    fair = r["fair_share"]
    lines = [say(lang, f"{name}: strategies side by side, {r['players']} players, {r['games']} games a pairing, "
                       f"seed {r['seed']}",
                 f"{name}: 戦略の比較、{r['players']}人、組み合わせごとに{r['games']}ゲーム、シード{r['seed']}"),
             say(lang, f"(the row's strategy in one seat, moved along each game, the column's in the others; "
                       f"equal players score {fair:.1%})",
                 f"(行の戦略を1席に、列の戦略を他の席に置き、1ゲームごとに席を回す。互角なら{fair:.1%})"), ""]
    lines += [f"  {text}" for text in r["readings"][lang].values()]
    columns = ["random"] + r["strategies"]
    for title, cell in ((say(lang, "score of the row's strategy [95% interval]", "行の戦略のスコア [95%区間]"), _score),
                        (say(lang, "advantage over a seat of the column's [95% interval]",
                             "列の戦略の席に対する優位 [95%区間]"), _advantage),
                        (say(lang, f"games that ended in a dead end (of {r['games']}), which count for nobody",
                             f"行き詰まりで終わったゲーム({r['games']}ゲーム中)、誰の勝ちにもならない"),
                         lambda m: str(m["dead_end_games"]))):
        lines += ["", "  " + title,
                  "  " + pad(say(lang, "strategy", "戦略"), 16) + "".join(
                      pad(say(lang, "against ", "対 ") + c, _CELL) for c in columns)]
        for row in r["rows"]:
            lines.append("  " + pad(row["strategy"], 16) + "".join(
                pad(cell(row["against"][c]) if c in row["against"] else "-", _CELL) for c in columns))
    lines += ["", say(lang, "  stronger, with 95% confidence:", "  95%の確かさで強いほう:")]
    lines += [f"    {row['strategy']} / {c}: {verdict(m, lang)}" for row in r["rows"] for c, m in row["against"].items()]
    return "\n".join(lines)


def _score(m) -> str:
    lo, hi = m["ci95"]
    return f"{m['score']:.1%} [{lo:.0%}, {hi:.0%}]"


def _advantage(m) -> str:
    lo, hi = m["advantage_ci95"]
    return f"{m['advantage']:+.2f} [{lo:+.2f}, {hi:+.2f}]"

