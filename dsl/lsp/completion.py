"""Completion: the keywords the grammar accepts at the cursor, and the names that fit there.

The text of the top-level item up to the cursor goes through Lark's interactive parser
(the same LALR tables and indenter the parser uses); `accepts()` then says which
terminals may come next: keywords are offered as themselves, NAME as the declared
names, builtins (with their signatures), locals in scope and the built-in constants.
After `do` only rules fit, after `assume` only questions, after `about` rules and steps.

Imports: lark, dsl.language (parser, syntax), dsl.engine.builtins, this package.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedInput

from ..engine.builtins import BUILTINS, worded
from ..language import parser as language_parser
from ..language import syntax as S
from .chunks import split
from .hover import signature
from .resolve import Analysis
from .walk import CONSTANTS

_SENTINEL = "\x00"      # no terminal matches it: lexing stops there, before the indenter closes the blocks
_KEYWORD = re.compile(r"[a-z]+\Z")


@dataclass(frozen=True)
class Item:
    label: str
    kind: str           # 'keyword' | 'rule' | 'zone' | ... | 'builtin' | 'local' | 'constant'
    detail: str = ""
    insert: str = ""


def complete(a: Analysis, line0: int, char: int) -> list[Item]:
    lines = a.text.split("\n")
    if not 0 <= line0 < len(lines):
        return []
    before_line = lines[line0][:char]
    if _in_string_or_comment(before_line):
        return []
    start = max((n for n, _ in split(a.text) if n <= line0 + 1), default=1)
    prefix = "\n".join(lines[start - 1:line0] + [before_line])
    prefix = re.sub(r"\w*\Z", "", prefix)
    accepted = _accepts(prefix)
    words = re.findall(r"\w+", prefix.rsplit("\n", 1)[-1])
    previous = words[-1] if words else ""       # the word before the cursor on its line
    out: list[Item] = []
    if accepted is None or "NAME" in accepted:
        out += _names(a, previous, prefix)
    for term in sorted(accepted or ()):
        word = keyword_of(term)
        if word is not None:
            out.append(Item(word, "keyword"))
    return out


def _in_string_or_comment(line: str) -> bool:
    quotes = 0
    for c in line:
        if c == '"':
            quotes += 1
        elif c == "#" and quotes % 2 == 0:
            return True
    return quotes % 2 == 1


@lru_cache(maxsize=1)
def lark_parser():
    """A Lark of completion's own, built like the parser's (from its cache, 30 ms): the indenter
    keeps its state on the instance while it runs, and analyses parse in another thread."""
    return language_parser._lark.__wrapped__()


def _accepts(prefix: str) -> set[str] | None:
    """The terminals that may follow `prefix`, or None when the cursor's own line does not parse.

    An unfinished line above the cursor (typed a moment ago) is blanked out and the parse
    tried again, so it does not hide what may be written here.
    """
    lines = prefix.split("\n")
    for _ in range(8):
        ip = lark_parser().parse_interactive("\n".join(lines) + _SENTINEL)
        try:
            ip.exhaust_lexer()
            return set(ip.accepts())
        except UnexpectedCharacters as e:
            if e.char == _SENTINEL:
                return set(ip.accepts())
            line = e.line
        except UnexpectedInput as e:
            line = e.line
        except (LarkError, AssertionError):     # a bad dedent; the indenter asserts on a stray ')'
            return None
        if not 0 < line < len(lines):
            return None
        lines[line - 1] = ""
    return None


def keyword_of(term: str) -> str | None:
    try:
        pattern = lark_parser().get_terminal(term).pattern
    except KeyError:
        return None
    value = pattern.value
    return value if pattern.type == "str" and _KEYWORD.match(value) else None


def _names(a: Analysis, previous: str, prefix: str) -> list[Item]:
    decls = [d for d in a.rules.decls if not isinstance(d, (S.Game, S.Flow, S.Patch, S.Variant))]
    steps = [n for n, locs in a.index.defs.items() if any(loc.kind in ("step", "phase", "cases") for loc in locs)]
    if previous == "do":
        return [Item(d.name, "rule") for d in decls if isinstance(d, S.Rule)]
    if previous == "assume":
        return [Item(d.name, "question") for d in decls if isinstance(d, S.Question)]
    if previous == "about":
        return [Item(d.name, "rule") for d in decls if isinstance(d, (S.Rule, S.Trigger))] + \
               [Item(n, "step") for n in steps]
    out = [Item(d.name, S.kind_of(d), _title(d)) for d in decls if not isinstance(d, (S.Rule, S.Trigger, S.Question))]
    out += [Item(n, "local") for n in _locals(prefix)]
    out += [Item(n, "constant") for n in CONSTANTS]
    for name, b in BUILTINS.items():
        sig, _ = signature(name)
        out.append(Item(name, "builtin", f"{sig}: {worded(b.en).format(*'abcdefghi')}", name + "("))
    return out


# Where a name is bound for the lines below it: loops, comprehensions, rankings, a rule's or
# value's parameters, what a player chooses.
_BINDERS = [re.compile(p, re.M) for p in (
    r"\bfor (?:each )?(\w+) in\b", r"\beach (\w+) in\b", r"^(?:rule|value) \w+ *\(([\w, ]*)\)",
    r"(?:\bchooses|\bwith|,) *(\w+) from\b")]


def _locals(prefix: str) -> list[str]:
    """The local names bound in the item above the cursor (read from the text, which may not parse)."""
    found = {n.strip() for b in _BINDERS for m in b.finditer(prefix) for n in m.group(1).split(",")}
    return sorted(n for n in found if n)


def _title(d: S.Decl) -> str:
    return S.text_of(d.texts, "title", "en") or S.text_of(d.texts, "title", "ja") or ""
