"""Checking grows in step with the file: four times the file, about four times the work.

The work is counted, never timed: every Python and built-in function call made while the
checker reads the tree, over the shapes of file that once took minutes (a chain of values
each reading the last, thousands of unknown names, a chain of rules, a seed game's
declarations repeated). bench/check_scaling.py prints the times."""
from __future__ import annotations

import sys

import pytest

from _util import ROOT

sys.path.insert(0, str(ROOT / "bench"))

from check_scaling import SHAPES  # noqa: E402

from dsl.language.checker import check  # noqa: E402
from dsl.language.parser import parse_text  # noqa: E402


def calls_to_check(text: str) -> int:
    """Function calls made by `check` on the parsed text."""
    rules, diagnostics = parse_text(text, "g.rules")
    assert rules is not None, [d.format() for d in diagnostics]
    count = 0

    def profile(frame, event, arg):
        nonlocal count
        if event in ("call", "c_call"):
            count += 1
    sys.setprofile(profile)
    try:
        check(rules)
    finally:
        sys.setprofile(None)
    return count


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_four_times_the_file_is_at_most_about_four_times_the_work(shape):
    small, large = SHAPES[shape](12_000), SHAPES[shape](48_000)
    ratio = calls_to_check(large) / calls_to_check(small)
    size_ratio = len(large) / len(small)
    # linear work gives the size ratio (about 4); work growing with the square of the file gave 13 to 16
    assert ratio < size_ratio * 1.25, f"{shape}: {ratio:.1f} times the calls for {size_ratio:.1f} times the text"


def test_a_file_with_many_syntax_errors_is_read_a_few_times_not_once_per_error(monkeypatch):
    """After a mistake each declaration is parsed on its own: the text handed to the parser
    stays a few times the file's, whatever the number of mistakes (it was once per mistake)."""
    from dsl.language import parser
    lines = SHAPES["unknown"](48_000).split("\n")
    broken = [k for k in range(12, len(lines), len(lines) // 20) if lines[k].startswith("value")][:20]
    for k in broken:
        lines[k] = lines[k].replace("+ 1", "+* 1")
    text = "\n".join(lines)
    lark, read = parser._lark(), []

    class Counting:
        def parse(self, source):
            read.append(len(source))
            return lark.parse(source)
    monkeypatch.setattr(parser, "_lark", lambda: Counting())
    tree, diagnostics = parser.parse_text(text, "g.rules")
    assert tree is None and [d.span.line for d in diagnostics] == [k + 1 for k in broken]
    assert sum(read) < 4 * len(text), f"{sum(read) / len(text):.1f} times the file"
