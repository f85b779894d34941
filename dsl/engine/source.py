"""Expressions specialised per game: one Python function per expression tree instead of one
closure per node, which is most of what random play spends its time on.

Each expression construct's `generate(src, e, env)` hook returns the Python expression that
computes its value from the state `s`, or None for a form it leaves to its closure (a construct
may say so before it has generated any part, never after). Parts without a generator run
through their own `compile` closure, called from the generated code, so a construct without
one loses speed, never meaning. No text of a rule file becomes code: a slot or a variable is
an index the compiler chose, a number or a string is a literal written by `repr`, and any other
value (a tuple of players, a zone, a table) or function is a name bound to it in the namespace
the code runs in, which has no builtins.

May import: the language, the constructs' registry, engine errors and program parts.
"""
from __future__ import annotations

import ast
import functools
import io
import keyword
import re
import threading
import tokenize
from typing import Callable

from ..constructs.registry import Absent, construct_of, hook

# Generated expressions nest at most this deep; a deeper part becomes a function of its own,
# so Python's parser never meets a tree deeper than it can read.
_MAX_NESTING = 30

# Python's compiling is most of the cost of generating, and the same code recurs (the names in
# it are bound per tree): within a game, across player counts, across a fuzz run's mutants.
_compiled: dict = {}
# CPython 3.11's compiler keeps its recursion depth in shared state: two threads compiling at
# once (a dask worker's threads) can fail with "AST constructor recursion depth mismatch"
_compiling = threading.Lock()
_MAX_CACHED = 20_000

# Code that is a constant: a whole number, truth or nothing (text is left to its function).
_LITERAL = re.compile(r"-?[0-9]+|True|False|None")


def expression(c, e, env) -> Callable:
    """The function of the state computing `e`: generated when its construct can, else its closure."""
    return generated(c, e, env)[0]


def generated(c, e, env) -> tuple:
    """(function, Source, code): the function of the state computing `e`, and the code it runs
    with the values it names, for code that embeds it; (closure, None, None) when `e` has no generator."""
    gen = _generator(e)
    src = Source(c)
    text = gen(src, e, env) if gen is not None else None
    if text is None:
        return hook(e, "compile")(c, e, env), None, None
    whole = src.calls.get(text)
    if whole is not None:
        # a tree that is one closure is that closure: calling it through a lambda only adds a call
        return whole, src, text
    fn = src.function("s", text)
    fn.code = (text, src.names)
    fn.keeps_slots = keeps_slots(text, src.names)      # an expression writes a slot only through a call
    if text in src.names:
        fn.constant = (src.names[text],)
    elif _LITERAL.fullmatch(text):
        fn.constant = (ast.literal_eval(text),)
    return fn, src, text


def inlined(fn, value) -> str | None:
    """The code of a generated function of the state, for code that runs it in place: its
    values named again through `value` (a Source's). None for a function without code."""
    code = getattr(fn, "code", None)
    if code is None:
        return None
    text, names = code
    if "\n" in text:
        return None
    out, at = [], 0
    for tok in _tokens(text):
        if tok.type == tokenize.NAME and tok.string in names:
            out += [text[at:tok.start[1]], value(names[tok.string])]
            at = tok.end[1]
    return "(" + "".join(out) + text[at:] + ")"


def slots_as_locals(text: str, names: dict) -> str:
    """Expression code `text` with each read of a local slot in `names` (slot -> the Python
    local of the loop it goes in, which holds the same value) read from that local."""
    if "\n" in text:
        return text
    toks = _tokens(text)
    out, at = [], 0
    for i in range(len(toks)):
        read = _state_read(toks, i)
        if read is not None and read[0] == "loc_slots" and read[1] in names:
            out += [text[at:toks[i].start[1]], names[read[1]]]
            at = toks[read[2]].end[1]
    return "".join(out) + text[at:]


def _state_read(toks, i):
    """(attribute, number, the index of its last token) where the tokens from `i` read
    `s.attribute[number]` of the state `s` itself, (attribute, None, ...) for `s.attribute`
    read otherwise; None where they do not start a read of the state."""
    if toks[i].string != "s" or (i and toks[i - 1].string == ".") or i + 2 >= len(toks) or toks[i + 1].string != ".":
        return None
    if i + 5 < len(toks) and toks[i + 3].string == "[" and toks[i + 4].type == tokenize.NUMBER \
            and toks[i + 5].string == "]":
        return toks[i + 2].string, int(toks[i + 4].string), i + 5
    return toks[i + 2].string, None, i + 2


# The state's own lists, which a game never replaces (Machine.blank_state makes them, State.clone
# copies them): an expression reads the same list however often it reads one.
_STATE_LISTS = frozenset(("face", "revealed", "loc", "alive", "zones", "pvars"))


def hoisted(texts: list, written, names: dict, before=()) -> tuple[list, list]:
    """Expression codes `texts` that a generated loop runs for each item, with what they read
    that no pass of the loop can change read once, before it, into a local: a variable
    (`s.vars[3]`: an expression writes none), one of the state's lists, and a local slot the
    loop does not write (`written`), when nothing the texts call, nor the code `before` that
    runs between the reads and the loop (the loop's own lines), can write one. Returns the
    lines that read them and the texts reading the locals instead. Python's tokenizer tells
    the code from the same letters inside a text literal."""
    used = set().union(*map(local_names, texts))
    slots_kept = all(keeps_slots(text, names) for text in [*texts, *before])
    found: dict = {}            # the code read -> the local that holds it
    out = []
    for text in texts:
        if "\n" in text:
            out.append(text)
            continue
        toks = _tokens(text)
        parts, at = [], 0
        for i, tok in enumerate(toks):
            read = _state_read(toks, i)
            if read is None:
                continue
            attr, number, last = read
            if attr in ("vars", "loc_slots") and number is not None:
                if attr == "loc_slots" and (number in written or not slots_kept):
                    continue
                code, local = f"s.{attr}[{number!r}]", f"h_{attr}{number}"
            elif attr in _STATE_LISTS:
                code, local, last = f"s.{attr}", f"h_{attr}", i + 2
            else:
                continue
            if local in used:
                continue
            found[code] = local
            parts += [text[at:tok.start[1]], local]
            at = toks[last].end[1]
        out.append("".join(parts) + text[at:])
    return [f"{local} = {code}" for code, local in found.items()], out


def reads_slots(text: str, slots) -> bool:
    """Whether expression code `text` may read one of the local slots `slots`: it reads one
    itself (or a slot it works out), or hands the state to a function, which may."""
    toks = _tokens(text)
    for i, tok in enumerate(toks):
        if tok.type != tokenize.NAME:
            continue
        after = toks[i + 1].string if i + 1 < len(toks) else None
        if tok.string == "s" and after != ".":
            return True
        if tok.string == "loc_slots":
            index = toks[i + 2] if i + 3 < len(toks) and toks[i + 3].string == "]" else None
            if after != "[" or index is None or index.type != tokenize.NUMBER or int(index.string) in slots:
                return True
    return False


# built-in functions generated code calls that never write a local slot
SLOT_FREE = (len, list, tuple, isinstance, range, max, min, sum, next, iter, reversed, divmod, bool, int, type)


def keeps_slots(text: str, names: dict) -> bool:
    """Whether code `text`, which writes no local slot itself, leaves them all as they are:
    every call it makes is of a built-in function that writes none, or of a function marked
    `keeps_slots` (generated expressions whose calls are such, and the error builders)."""
    return all(f is not None and (f in SLOT_FREE or getattr(f, "keeps_slots", False)) for f in called(text, names))


def conjuncts(text: str) -> list:
    """The terms of expression code `a and b and c`, in order, each as its own code (one term
    for code of any other form)."""
    text = text.strip()
    terms = []

    def flatten(node):
        if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And):
            for x in node.values:
                flatten(x)
        else:
            terms.append(ast.get_source_segment(text, node))
    try:
        with _compiling:
            tree = ast.parse(text, mode="eval")
        flatten(tree.body)
    except (SyntaxError, RecursionError, MemoryError, ValueError):
        return [text]
    return terms if None not in terms else [text]


def local_names(text: str) -> set:
    """The names code reads (its Python locals and the names of its values), without keywords."""
    return {tok.string for tok in _tokens(text) if tok.type == tokenize.NAME and not keyword.iskeyword(tok.string)}


def called(text: str, names: dict) -> list:
    """The values that code `text` calls by the names `names` binds (a call of anything else,
    or of a call's result, gives None); a method of a value (`out.append`) is not counted."""
    toks = _tokens(text)
    out = []
    for dot, before, tok in zip((None, *toks), toks, toks[1:]):
        if tok.string != "(" or dot is not None and dot.string == ".":
            continue
        if before.type == tokenize.NAME and not keyword.iskeyword(before.string):
            out.append(names.get(before.string))
        elif before.string in (")", "]"):
            out.append(None)
    return out


@functools.lru_cache(maxsize=1 << 14)
def _tokens(text: str) -> tuple:
    """The tokens of code, without line and indentation marks: Python's own tokenizer, which
    tells a name from the same letters inside a text literal (columns count within one line).
    Kept per text: compiling asks again for the same small texts (each expression's code is
    read by inlining, hoisting and the slot analyses, at every player count), and the
    tokenizer was half of a compile."""
    return tuple(x for x in tokenize.generate_tokens(io.StringIO(text).readline)
                 if x.type not in (tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.COMMENT))


def constant(fn):
    """(value,) for a function of the state that gives the same value whatever the state (its
    code is one literal or one named value); None for any other."""
    return getattr(fn, "constant", None)


def _generator(e):
    found = construct_of(e).hooks.get("generate")
    return None if found is None or isinstance(found, Absent) else found


class Source:
    """What the generators of one expression tree share: the compiler and the named values."""

    def __init__(self, compiler):
        self.c = compiler
        self.names: dict = {}
        self.calls: dict = {}           # "kN(s)" -> the closure kN, for a tree that is only that
        self.depth = 0

    def sub(self, e, env) -> str:
        """The code of a part: generated, or a call of its closure."""
        gen = _generator(e)
        if gen is not None and self.depth < _MAX_NESTING:
            self.depth += 1
            try:
                text = gen(self, e, env)
            finally:
                self.depth -= 1
            if text is not None:
                return text
        # a part too deep is generated on its own (Compiler.expr); one without a generator is its closure
        return self.call(self.c.expr(e, env) if gen is not None else hook(e, "compile")(self.c, e, env))

    def call(self, fn: Callable) -> str:
        """The code calling a function of the state."""
        text = f"{self.value(fn)}(s)"
        self.calls[text] = fn
        return text

    def function(self, params: str, body: str, statements: bool = False) -> Callable:
        """A function of `params` returning the expression `body`, or running the statements
        `body`, with the values this Source named and nothing else in reach."""
        text = f"def f({params}):\n{body}" if statements else f"lambda {params}: {body}"
        code = _compiled.get(text)
        if code is None:
            if len(_compiled) >= _MAX_CACHED:
                _compiled.clear()
            with _compiling:
                code = compile(text, "<rule expression>", "exec" if statements else "eval")
            _compiled[text] = code
        namespace = {"__builtins__": {}}
        namespace.update(self.names)
        if not statements:
            return eval(code, namespace)
        exec(code, namespace)
        return namespace["f"]

    def of(self, fn) -> str:
        """The code computing the function of the state `fn`: a constant by its value, generated
        code in place (its values bound here), any other function called."""
        fixed = constant(fn)
        if fixed is not None:
            return f"({self.value(fixed[0])})"
        return inlined(fn, self.value) or f"{self.value(fn)}(s)"

    def value(self, v) -> str:
        """The code for a value: a literal for a whole number, truth, text or nothing, else a bound name."""
        if v is None or type(v) in (bool, int, str):
            return repr(v)
        name = f"k{len(self.names)}"
        self.names[name] = v
        return name
