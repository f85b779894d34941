"""check: report mistakes and open questions."""
from __future__ import annotations

import json
import sys

import click

from .common import main, _variant_option
from .common import RULE_FILE
from .options import json_option, lang_option, say


@main.command(help="""Check rule files: errors (exit 1), warnings, and the open questions the rules leave.

Seeded random games at the fewest and the most players allowed find a player count at
which the game cannot be played (it ends before anyone decides, or the same way whatever
anyone chooses).

A game that declares no strategies is checked with the file of strategies beside it
(strategies/GAME.rules, where the agents find them), so a change to the game that breaks a
strategy is an error at the strategy's line.

\b
A variant file is checked applied to its game:
  playtest check variants/VARIANT.rules
  playtest check games/GAME.rules --variant variants/A.rules --variant variants/B.rules""")
@click.argument("files", nargs=-1, required=True, type=RULE_FILE)
@_variant_option
@json_option("Print the diagnostics as JSON.")
@lang_option("Language of each file's verdict: en or ja (the diagnostics are in English).")
def check(files, variants, as_json, lang):
    from ..language.diagnostics import RuleFileError
    from ..analyses.player_counts import unplayable
    from ..printing.learn import formula_warnings
    from ..loader import load
    status = 0
    report = []
    for path in files:
        try:
            rules, diags = load(path, variants, strategies_beside=True)
            diags = diags + unplayable(rules) + formula_warnings(rules)
            source = lambda d, rules=rules: rules.source_of(d.span)
        except RuleFileError as e:
            diags, source = e.diagnostics, lambda d, e=e: e.source_for(d.path)
        errors = [d for d in diags if d.severity == "error"]
        warnings = [d for d in diags if d.severity == "warning"]
        if errors:
            status = 1
        if as_json:
            report.append({"file": path, "errors": len(errors), "warnings": len(warnings),
                           "diagnostics": [d.to_json() for d in diags]})
            continue
        for d in diags:
            click.echo(d.format(source(d)), err=bool(errors))
        verdict = click.style(say(lang, "ok", "問題なし"), fg="green") if not errors \
            else click.style(say(lang, "failed", "エラーあり"), fg="red")
        counts = say(lang, f"{len(errors)} error{'s' if len(errors) != 1 else ''}, "
                           f"{len(warnings)} warning{'s' if len(warnings) != 1 else ''}",
                     f"エラー{len(errors)}件、警告{len(warnings)}件")
        click.echo(f"{path}: {verdict} ({counts})", err=bool(errors))
    if as_json:
        click.echo(json.dumps(report, ensure_ascii=False, indent=1))
    sys.exit(status)
