"""replay: narrate a saved game."""
from __future__ import annotations


import click

from .common import main, _fail, _variant_option, _load_or_exit, _game_or_exit, _echo_errors
from .common import RULE_FILE
from .options import lang_option, say
from .serve import _address_options, serve_replay


@main.command(help="""Replay a saved game step by step, narrated in English or Japanese.

\b
Replay files are written by `simulate --save-replays DIR` and `fuzz`/`explore --save-replays DIR`.
A replay carries the texts of its rules and plays from them anywhere: the file names in it
are only labels, never opened. With --rules (and --variant) it plays under those files
instead, says which parts changed since it was saved, and exits 1 when the game no longer
ends in the state it was saved with.""")
@click.argument("file", type=click.Path())
@lang_option("Language of the narration: en or ja.")
@click.option("--rules", "rules_path", type=RULE_FILE, default=None,
              help="Rule file to play under instead of the rules the replay carries.")
@_variant_option
@click.option("--serve", is_flag=True, help="Show the game step by step in the browser (any seat's view or the designer's).")
@click.option("--step", type=click.IntRange(min=0), default=None,
              help="With --serve: open at this step (the number of actions taken), e.g. where a note was left.")
@_address_options
def replay(file, lang, rules_path, variants, serve, step, host, port):
    from ..analyses import replay as replay_mod
    from ..language.diagnostics import shown
    from ..printing.narrate import Narrator
    try:
        rep = replay_mod.load(file)
    except replay_mod.ReplayError as e:
        _fail(str(e))
    if rules_path:
        rules, _ = _load_or_exit(rules_path, variants)
    else:
        rules = _embedded_or_exit(file, rep, variants)
    if rep.fingerprint is None:
        click.echo(f"note: {file} was saved without a fingerprint of its rules (by an older playtest): "
                   "it cannot tell whether the rules changed since", err=True)
    elif rep.fingerprint != replay_mod.fingerprint(rules):
        _report_changes(file, rep, rules, lang)
    game = _game_or_exit(rules, rep.players)
    try:
        state = replay_mod.run(game, rep.actions, log=True, rulings=rep.rulings)
    except replay_mod.ReplayError as e:
        _fail(f"{file}: {e}")
    if serve:
        if step is not None and step > len(rep.actions):
            _fail(f"{file}: --step {step} is past its last step, {len(rep.actions)}")
        return serve_replay(file, rules, rep, lang, host, port, step)
    narrator = Narrator(game, lang)
    if rep.note:
        click.echo(f"# {shown(rep.note)}")
    for line in narrator.tell(state.log):
        click.echo(shown(line))
    if not state.is_terminal():
        click.echo(say(lang, "(the replay stops before the game ends)", "（リプレイはゲームが終わる前に止まる）"))
    scores = _scores(game, state, narrator)
    if scores:
        click.echo(shown(scores))
    click.echo(f"state {state.digest()}")
    if rep.final_state is not None and state.digest() != rep.final_state:
        _fail(f"{file}: the game ends in another state than when it was saved "
              f"(saved {rep.final_state}, now {state.digest()}): the rules changed")


def _scores(game, state, n) -> str | None:
    """Every seat's score where the replay stops, by the rule file's `score` (None without one,
    or where it cannot be worked out in that state)."""
    from ..engine.errors import CARRIED
    from ..language import syntax as S
    try:
        scores = game.scores(state)
    except CARRIED:
        return None
    if scores is None:
        return None
    declared = game.rules.of(S.Score)[0]
    title = S.text_of(declared.texts, "title", n.lang) or n.say("スコア", "Score")
    final = n.say("最終", "Final ") if state.is_terminal() else ""
    title = final + (title[0].lower() + title[1:] if final and n.lang == "en" else title)
    return n.say(f"{title}: ", f"{title}: ") + n.say("、", ", ").join(
        f"{n.player(p)} {_number(v)}" for p, v in enumerate(scores))


def _number(v) -> str:
    return str(int(v)) if isinstance(v, float) and v.is_integer() else str(v)


def _embedded_or_exit(file, rep, variants):
    """The rules the replay carries (its game with `variants` in place of its own, if any)."""
    from ..analyses import replay as replay_mod
    from ..language.diagnostics import RuleFileError
    try:
        return replay_mod.embedded(rep, variants)[0]
    except replay_mod.ReplayError as e:
        _fail(f"{file}: {e}")
    except RuleFileError as e:
        _echo_errors(e, f"{file} (the rules it carries)")


def _report_changes(file, rep, rules, lang):
    """What changed between the rules the replay was saved with and the ones it runs under."""
    from ..analyses import replay as replay_mod
    from ..variants import diff
    click.echo(say(lang, f"warning: the rules changed since {file} was saved",
                   f"警告: {file} を保存したあとでルールが変わった"), err=True)
    old = replay_mod.saved_rules(rep)
    if old is None:
        click.echo("  (the saved rule texts no longer read, so the parts that changed cannot be listed)", err=True)
        return
    for line in diff.format_text(old, rules, diff.diff(old, rules), lang=lang)[3:]:
        click.echo(f"  {line}" if line else "", err=True)
