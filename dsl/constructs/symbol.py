"""`symbol NAME`: a word the game prints (a card value such as `spade` or `fire`, a card's name,
a column of a card table such as `suit`), with its title and, optionally, the mark and colour a
card shows it in.

The engine never reads a symbol: `fire` in a table or an expression is the same value with or
without the declaration. The declaration only tells the printed game how to show it.

May import: the syntax base classes and the leaf helpers of the language, engine and printing.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional

from lark import Token

from ..language import syntax as S
from ..language.building import span, tok_span, unquote
from ..language.diagnostics import did_you_mean
from ..language.syntax import Decl, Span
from ..printing.runs import Runs, say
from .registry import register

# The CSS named colours (CSS Color 4), and Typst's one name CSS lacks. Names are turned into
# these hex values for both HTML and Typst, whose own `blue`, `green`... are other shades: a
# colour must print the same on the screen and on paper.
_WORDS = """
aliceblue f0f8ff antiquewhite faebd7 aqua 00ffff aquamarine 7fffd4 azure f0ffff beige f5f5dc
bisque ffe4c4 black 000000 blanchedalmond ffebcd blue 0000ff blueviolet 8a2be2 brown a52a2a
burlywood deb887 cadetblue 5f9ea0 chartreuse 7fff00 chocolate d2691e coral ff7f50
cornflowerblue 6495ed cornsilk fff8dc crimson dc143c cyan 00ffff darkblue 00008b darkcyan 008b8b
darkgoldenrod b8860b darkgray a9a9a9 darkgreen 006400 darkgrey a9a9a9 darkkhaki bdb76b
darkmagenta 8b008b darkolivegreen 556b2f darkorange ff8c00 darkorchid 9932cc darkred 8b0000
darksalmon e9967a darkseagreen 8fbc8f darkslateblue 483d8b darkslategray 2f4f4f
darkslategrey 2f4f4f darkturquoise 00ced1 darkviolet 9400d3 deeppink ff1493 deepskyblue 00bfff
dimgray 696969 dimgrey 696969 dodgerblue 1e90ff firebrick b22222 floralwhite fffaf0
forestgreen 228b22 fuchsia ff00ff gainsboro dcdcdc ghostwhite f8f8ff gold ffd700
goldenrod daa520 gray 808080 green 008000 greenyellow adff2f grey 808080 honeydew f0fff0
hotpink ff69b4 indianred cd5c5c indigo 4b0082 ivory fffff0 khaki f0e68c lavender e6e6fa
lavenderblush fff0f5 lawngreen 7cfc00 lemonchiffon fffacd lightblue add8e6 lightcoral f08080
lightcyan e0ffff lightgoldenrodyellow fafad2 lightgray d3d3d3 lightgreen 90ee90 lightgrey d3d3d3
lightpink ffb6c1 lightsalmon ffa07a lightseagreen 20b2aa lightskyblue 87cefa
lightslategray 778899 lightslategrey 778899 lightsteelblue b0c4de lightyellow ffffe0 lime 00ff00
limegreen 32cd32 linen faf0e6 magenta ff00ff maroon 800000 mediumaquamarine 66cdaa
mediumblue 0000cd mediumorchid ba55d3 mediumpurple 9370db mediumseagreen 3cb371
mediumslateblue 7b68ee mediumspringgreen 00fa9a mediumturquoise 48d1cc mediumvioletred c71585
midnightblue 191970 mintcream f5fffa mistyrose ffe4e1 moccasin ffe4b5 navajowhite ffdead
navy 000080 oldlace fdf5e6 olive 808000 olivedrab 6b8e23 orange ffa500 orangered ff4500
orchid da70d6 palegoldenrod eee8aa palegreen 98fb98 paleturquoise afeeee palevioletred db7093
papayawhip ffefd5 peachpuff ffdab9 peru cd853f pink ffc0cb plum dda0dd powderblue b0e0e6
purple 800080 rebeccapurple 663399 red ff0000 rosybrown bc8f8f royalblue 4169e1
saddlebrown 8b4513 salmon fa8072 sandybrown f4a460 seagreen 2e8b57 seashell fff5ee sienna a0522d
silver c0c0c0 skyblue 87ceeb slateblue 6a5acd slategray 708090 slategrey 708090 snow fffafa
springgreen 00ff7f steelblue 4682b4 tan d2b48c teal 008080 thistle d8bfd8 tomato ff6347
turquoise 40e0d0 violet ee82ee wheat f5deb3 white ffffff whitesmoke f5f5f5 yellow ffff00
yellowgreen 9acd32 eastern 239dad
""".split()
_NAMED = dict(zip(_WORDS[::2], _WORDS[1::2]))

MARK_LENGTH = 3         # a mark sits in a card's corner, under the value: a few characters at most


def colour_hex(text: Optional[str]) -> Optional[str]:
    """'#rrggbb' for a colour name or #rgb / #rrggbb; None for anything else."""
    if text is None:
        return None
    t = text.strip().lower()
    if t in _NAMED:
        return "#" + _NAMED[t]
    if re.fullmatch(r"#[0-9a-f]{6}", t):
        return t
    if re.fullmatch(r"#[0-9a-f]{3}", t):
        return "#" + "".join(ch * 2 for ch in t[1:])
    return None


@dataclass(frozen=True)
class Symbol(Decl):
    keyword = "symbol"
    mark: Optional[str] = None
    colour: Optional[str] = None            # as written; colour_hex() reads it
    mark_span: Optional[Span] = None
    colour_span: Optional[Span] = None


# ---------------------------------------------------------------- grammar
def _quoted(meta, c):
    tok = c[0]
    where = tok_span(tok) if isinstance(tok, Token) else span(meta)
    return unquote(str(tok)), where


def _mark_line(meta, c):
    return ("mark", _quoted(meta, c))


def _colour_line(meta, c):
    return ("colour", _quoted(meta, c))


def _symbol(meta, c):
    props: dict = {}
    texts = []
    for line in c[1:]:
        if line is None:
            continue
        if isinstance(line, tuple) and line and isinstance(line[0], S.Text):
            texts.extend(line)
        else:
            props[line[0]] = line[1]
    mark, mark_span = props.get("mark", (None, None))
    colour, colour_span = props.get("colour", (None, None))
    return Symbol(str(c[0]), tuple(texts), span(meta), mark, colour, mark_span, colour_span)


GRAMMAR = {"mark_line": _mark_line, "colour_line": _colour_line, "symbol": _symbol}


# ---------------------------------------------------------------- checks
def printed_names(rules) -> set[str]:
    """Every word a card table, a die or an order can print: values, columns and card names."""
    out = set()
    for c in rules.of(S.Component):
        out.update(f for f in c.faces if isinstance(f, str))
        for spec in c.cards:
            for attr, value in spec.attrs:
                out.add(attr)
                if isinstance(value, str):
                    out.add(value)
            if spec.name != "-".join(str(x) for _, x in spec.attrs):     # a `card NAME` line
                out.add(spec.name)
    for o in rules.of(S.Order):
        out.add(o.attribute)
        out.update(v for group in o.ranks for v in group if isinstance(v, str))
    # a text value the rules set or compare, and a name a rule binds (what a player chooses,
    # a loop's item), which the rulebook then calls by the symbol's title
    for node in S.walk_rules(rules):
        if isinstance(node, S.Str):
            out.add(node.value)
        elif isinstance(node, (S.ForEach, S.Comprehension)):
            out.add(node.var)
        elif isinstance(node, S.Param):
            out.add(node.name)
        elif isinstance(node, (S.Rule, S.Define)):
            out.update(node.params)
    return out


def check(ck, d):
    printed = ck.once("printed names", lambda: printed_names(ck.rules))
    # a symbol with a line of designer text is a word of the game the book defines (the seed's
    # プロポーザル), whether or not the rules name it
    if d.name not in printed and not S.text_of(d.texts, "text", "en") and not S.text_of(d.texts, "text", "ja"):
        ck.warning(d.span, f"symbol '{d.name}' names nothing in the file",
                   ck.did_you_mean(d.name, printed) or
                   "a symbol titles a value of a card table, a die face, a card's name, a column of a card table, "
                   "a text value the rules use, or a name a rule binds (what a player chooses); "
                   "a word of the game's own that the book should define takes a 'text' line saying what it means")
    if not d.texts and d.mark is None and d.colour is None:
        ck.warning(d.span, f"symbol '{d.name}' says nothing about how it prints",
                   "add 'title ja \"...\" en \"...\"', and a 'mark' or 'colour' if cards show it")
    if d.mark is not None and not 1 <= len(d.mark) <= MARK_LENGTH:
        ck.error(d.mark_span or d.span, f"the mark of '{d.name}' must be 1 to {MARK_LENGTH} characters, "
                                        f"but it is {len(d.mark)}",
                 "a mark is printed small in a card's corner, like ♠ or 火; the title is the word")
    if d.colour is not None and colour_hex(d.colour) is None:
        guess = did_you_mean(d.colour.strip().lower(), _NAMED)
        ck.error(d.colour_span or d.span, f"'{d.colour}' is not a colour",
                 (guess + " A" if guess else "A") + " colour is a CSS colour name (red, navy, goldenrod...) or #rrggbb")


# ---------------------------------------------------------------- reading
def read(v, d, counts=()) -> Runs:
    out: Runs = []
    if d.mark:
        out.append(("", say(v.lang, "記号 ", "mark ") + d.mark))
    if d.colour:
        out += [("", ("、" if v.lang == "ja" else ", ") * bool(out) + say(v.lang, "色 ", "colour ")), ("code", d.colour)]
    return out


register(Symbol, "declaration", grammar=GRAMMAR, check=check, read=read)
