"""`playtest strategies` says which strategy of each pairing is stronger in the words of
analyses.verdicts, in English and in Japanese, the same pairings in both."""
from __future__ import annotations

from click.testing import CliRunner

from dsl.cli import main

from _util import ROOT

TICTACTOE = ROOT / "strategies" / "tictactoe.rules"


def _verdicts(lang):
    res = CliRunner().invoke(main, ["strategies", str(TICTACTOE), "-n", "12", "--seed", "3", "--lang", lang])
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    head = lines.index({"en": "  stronger, with 95% confidence:", "ja": "  95%の確かさで強いほう:"}[lang])
    return lines[head + 1:]


def test_the_verdicts_read_in_japanese_as_in_english():
    assert _verdicts("en") == ["    careful / random: strategy:careful is stronger",
                               "    careful / centre: strategy:careful is stronger",
                               "    centre / random: no clear difference",
                               "    centre / careful: strategy:careful is stronger"]
    assert _verdicts("ja") == ["    careful / random: strategy:carefulの方が強い",
                               "    careful / centre: strategy:carefulの方が強い",
                               "    centre / random: はっきりした差はない",
                               "    centre / careful: strategy:carefulの方が強い"]
