"""Fuzzing the front end with mutations of games/bluff.rules.

Whatever the text, parse_text returns diagnostics instead of raising, load raises
nothing but RuleFileError, every failure has at least one positioned error, and the
CLI reports it without a traceback and exits 1.
"""
from __future__ import annotations

import os
import re
import tempfile

from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from _util import BLUFF, rules_text

from dsl.cli import main
from dsl.language.diagnostics import RuleFileError
from dsl.loader import load
from dsl.language.parser import parse_text

SOURCE = rules_text(BLUFF)
WORDS = sorted(set(re.findall(r"[A-Za-z_][A-Za-z_0-9]*|\d+", SOURCE)))

FUZZ = settings(max_examples=60, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

_chars = st.one_of(
    st.characters(min_codepoint=0x20, max_codepoint=0x7e),                        # printable ASCII
    st.characters(blacklist_categories=("Cs",), min_codepoint=0x80),               # any unicode
    st.characters(min_codepoint=0, max_codepoint=0x1f),                            # control
    st.sampled_from(list("\t\r\n\x0b\x0c\x85\u2028\u2029\ufeff\"'#()[]:=<>-|,.「」“”　")),
)


@st.composite
def _mutation(draw, text):
    kind = draw(st.sampled_from(["delete_line", "duplicate_line", "swap_chars", "insert",
                                 "truncate", "indent", "replace_char", "swap_lines", "replace_word"]))
    lines = text.split("\n")
    if kind == "replace_word":
        # a syntactically plausible change that the checker has to catch (or accept)
        spots = list(re.finditer(r"[A-Za-z_][A-Za-z_0-9]*|\d+", text))
        if spots:
            m = spots[draw(st.integers(0, len(spots) - 1))]
            return text[:m.start()] + draw(st.sampled_from(WORDS)) + text[m.end():]
        return text
    if kind == "delete_line":
        i = draw(st.integers(0, len(lines) - 1))
        return "\n".join(lines[:i] + lines[i + 1:])
    if kind == "duplicate_line":
        i = draw(st.integers(0, len(lines) - 1))
        return "\n".join(lines[:i + 1] + [lines[i]] + lines[i + 1:])
    if kind == "swap_lines":
        i = draw(st.integers(0, len(lines) - 1))
        j = draw(st.integers(0, len(lines) - 1))
        lines[i], lines[j] = lines[j], lines[i]
        return "\n".join(lines)
    if not text:
        return draw(st.text(_chars, max_size=5))
    if kind == "swap_chars":
        i = draw(st.integers(0, len(text) - 1))
        j = draw(st.integers(0, len(text) - 1))
        i, j = min(i, j), max(i, j)
        return text[:i] + text[j] + text[i + 1:j] + text[i] + text[j + 1:] if i != j else text
    if kind == "insert":
        i = draw(st.integers(0, len(text)))
        return text[:i] + draw(st.text(_chars, min_size=1, max_size=4)) + text[i:]
    if kind == "replace_char":
        i = draw(st.integers(0, len(text) - 1))
        return text[:i] + draw(_chars) + text[i + 1:]
    if kind == "truncate":
        return text[:draw(st.integers(0, len(text)))]
    # indent: add or remove leading spaces or a tab on one line
    i = draw(st.integers(0, len(lines) - 1))
    how = draw(st.sampled_from(["+1", "+2", "-1", "-2", "tab", "flush"]))
    line = lines[i]
    stripped = line.lstrip(" ")
    lead = len(line) - len(stripped)
    if how == "+1":
        line = " " + line
    elif how == "+2":
        line = "  " + line
    elif how == "-1":
        line = " " * max(0, lead - 1) + stripped
    elif how == "-2":
        line = " " * max(0, lead - 2) + stripped
    elif how == "tab":
        line = "\t" + stripped
    else:
        line = stripped
    lines[i] = line
    return "\n".join(lines)


@st.composite
def mutated(draw):
    text = SOURCE
    for _ in range(draw(st.integers(1, 3))):
        text = draw(_mutation(text))
    return text


def _positioned(diags, text):
    errors = [d for d in diags if d.severity == "error"]
    assert errors, "a failure without any error diagnostic"
    good = [d for d in errors if d.span.line >= 1 and d.span.column >= 1]
    assert good, f"no error has a position: {[(d.span, d.message) for d in errors]}"
    n_lines = max(1, len(text.splitlines()))
    for d in good:
        assert d.span.line <= n_lines + 1, (d.span, d.message, n_lines)
        assert d.message
        d.format(text)                  # printing a diagnostic never fails
    return errors


def _write(text: str, folder: str) -> str:
    path = os.path.join(folder, "mutant.rules")
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(text)
    return path


@FUZZ
@given(mutated())
def test_parse_text_never_raises(text):
    tree, diags = parse_text(text, "mutant.rules")
    if tree is None:
        _positioned(diags, text)
    for d in diags:
        assert d.severity in ("error", "warning", "note")


@FUZZ
@given(mutated())
def test_load_raises_only_rule_file_errors_with_positions(text):
    with tempfile.TemporaryDirectory() as tmp:
        path = _write(text, tmp)
        try:
            rules, warnings = load(path)
        except RuleFileError as e:
            _positioned(e.diagnostics, text)
            assert all(d.path == path for d in e.diagnostics)
        else:
            assert all(d.severity != "error" for d in warnings)
            assert rules.game is not None


@settings(max_examples=30, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(mutated())
def test_cli_check_on_mutants_exits_cleanly(text):
    with tempfile.TemporaryDirectory() as tmp:
        path = _write(text, tmp)
        try:
            load(path)
            expected = 0
        except RuleFileError:
            expected = 1
        r = CliRunner().invoke(main, ["check", path])
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    assert "Traceback" not in r.output
    assert r.exit_code == expected, r.output
    if expected == 1:
        assert f"{path}:" in r.output and ": error: " in r.output


@settings(max_examples=30, deadline=None, derandomize=True, database=None)
@given(st.binary(min_size=0, max_size=40), st.integers(0, len(SOURCE.encode())))
def test_load_of_arbitrary_bytes_inside_the_file(blob, at):
    data = SOURCE.encode()
    data = data[:at] + blob + data[at:]
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "bytes.rules")
        with open(path, "wb") as f:
            f.write(data)
        try:
            load(path)
        except RuleFileError as e:
            assert e.diagnostics
            assert all(d.span.line >= 1 and d.span.column >= 1 for d in e.diagnostics
                       if d.severity == "error")


@settings(max_examples=40, deadline=None, derandomize=True, database=None)
@given(st.text(_chars, max_size=200))
def test_parse_text_of_arbitrary_text(text):
    tree, diags = parse_text(text)
    if tree is None:
        _positioned(diags, text)


def test_original_parses_cleanly():
    tree, diags = parse_text(SOURCE, "bluff.rules")
    assert tree is not None
    assert [d for d in diags if d.severity == "error"] == []
