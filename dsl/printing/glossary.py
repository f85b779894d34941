"""The glossary: the words a rulebook uses that no table of it defines, each said in words from
the rule structure. Seats and the order of play, 'the next player', 'the players still in', and the
names a `symbol` gives (what is chosen in an option, a value printed on cards, a word of the game's
own with the designer's line on what it means), and a facing: the
number that says which way a piece points, each number with its way and turn (figures.facings;
the book draws it beside the definition).

May import: the language, the constructs and printing/runs.py, prose.py, figures.py.
"""
from __future__ import annotations

from ..language import syntax as S
from .figures import facings, turn, way
from .labels import label
from .prose import Voice, notes_of, title_of
from .runs import ARTICLE, Runs, join, say


def _uses(rules: S.RuleFile, fns: tuple[str, ...]) -> bool:
    return any(isinstance(n, S.Call) and n.fn in fns for n in S.walk_rules(rules))


def _seats(rules: S.RuleFile, v: Voice) -> list[tuple[str, str, Runs]]:
    game = rules.game
    way = {"clockwise": ("時計回り", "clockwise"), "counterclockwise": ("反時計回り", "counterclockwise")}[game.seating]
    out = []
    if game.max_players > 1:
        out.append(("seat", say(v.lang, "席", "seat"), [("", say(
            v.lang, f"手番の順({way[0]})に1から番号を振った、プレイヤーの座る位置。だれが席1に座るかはルールが決めていない。"
                    "始める前に全員で決める。",
            f"Where a player sits, numbered from 1 in the order of play ({way[1]}). The rules do not say who sits in "
            "seat 1: agree it before you start."))]))
    still = any(isinstance(n, S.Eliminate) for n in S.walk_rules(rules))
    if _uses(rules, ("next_player", "previous_player")):
        out.append(("next", say(v.lang, "次のプレイヤー", "the next player"), [("", say(
            v.lang, f"{way[0]}で隣の席のプレイヤー。" + ("ゲームから脱落した人は飛ばす。" if still else ""),
            f"The player in the next seat {way[1]}" + (", skipping anyone out of the game." if still else ".")))]))
    if still and _uses(rules, ("alive_players", "alive", "alive_teams")):
        out.append(("still_in", say(v.lang, "残っているプレイヤー", "players still in"), [("", say(
            v.lang, "まだゲームから脱落していないプレイヤー。", "Those not yet out of the game."))]))
    return out


def _choices(node, step: str):
    """Every choice in a rule or flow, with the title of the step it stands in."""
    for c in S.children(node):
        if isinstance(c, S.Choose):
            yield c, step
        if isinstance(c, S.Node):
            inner = c.name if isinstance(c, S.Block) and c.kind in ("step", "phase") else step
            yield from _choices(c, inner)


def _passed(rules: S.RuleFile, v: Voice) -> dict[str, Runs]:
    """A symbol that names a value each call of a rule gives: 'the value given each time “Place a
    worker” is carried out: 0 in “1: Blessing”; 1 in “2: Revelation”, “3: Prosperity”'."""
    out: dict[str, Runs] = {}
    for r in rules.of(S.Rule):
        for i, p in enumerate(r.params):
            if not v.named_param(p) or p in out:
                continue
            given: dict[str, list[str]] = {}
            for place, call in v.calls.get(r.name, []):
                a = call.args[i] if i < len(call.args) else None
                named = v.titles.get(place) or (label(v.lang, place) if place in ("setup", "play") else None)
                if isinstance(a, S.Num) and named:
                    where = given.setdefault(str(a.value), [])
                    if named not in where:
                        where.append(named)
            if not given:
                continue
            rule = v.titles.get(r.name, r.name)
            if v.lang == "ja":
                cases = "、".join("・".join(f"「{w}」" for w in where) + f"では{n}" for n, where in given.items())
                out[p] = [("", f"「{rule}」を行うたびに示される値。{cases}。")] + _own_text(v, p)
            else:
                cases = "; ".join(f"{n} in " + ", ".join(f"“{w}”" for w in where) for n, where in given.items())
                out[p] = [("", f"The value given each time “{rule}” is carried out: {cases}.")] + _own_text(v, p)
    return out


def _own_text(v: Voice, name: str) -> Runs:
    """The designer's words about a symbol, after what the rules say of it."""
    d = v.kinds.get(name)
    notes = notes_of(d.texts, v.lang) if d is not None else []
    return [("", " " + notes[0][1])] if notes else []


def _chosen(rules: S.RuleFile, v: Voice) -> dict[str, Runs]:
    """A symbol that names what a player chooses: 'chosen in “Opening bid” and “Raise the bid”: a
    number from 1 to 5'."""
    found: dict[str, tuple[list, object]] = {}
    for d in rules.decls:
        if not isinstance(d, (S.Flow, S.Rule)):
            continue
        for choice, step in _choices(d, d.name):
            for o in choice.options:
                where = title_of(o.texts, v.lang) or v.titles.get(step)
                for p in o.params:
                    if p.name in v.titles and isinstance(v.kinds.get(p.name), S.Symbol):
                        places, _ = found.setdefault(p.name, ([], p))
                        if where and where not in places:
                            places.append(where)
    out: dict[str, Runs] = {}
    for d in rules.decls:
        if isinstance(d, (S.Flow, S.Rule)):
            for choice, _ in _choices(d, d.name):
                for o in choice.options:
                    for st in o.body:
                        if isinstance(st, S.Assign) and isinstance(st.value, S.Str) and st.value.value in v.titles \
                                and title_of(o.texts, v.lang) and st.value.value not in out:
                            # a word a choice writes down: 'the call made when “Challenge” is chosen'
                            what, where = v.title(st.target.name), title_of(o.texts, v.lang)
                            the = what[:1].upper() + what[1:] if ARTICLE.match(what) else "The " + what
                            out[st.value.value] = [("", say(v.lang, f"「{where}」を選んだときの{what}。",
                                                            f"{the} when “{where}” is chosen."))]
    for name, (places, p) in found.items():
        if p.high is not None:
            what = say(v.lang, v.expr(p.low) + [("", "から")] + v.expr(p.high) + [("", "までの数")],
                       [("", "a number from ")] + v.expr(p.low) + [("", " to ")] + v.expr(p.high))
        else:
            what = say(v.lang, v.expr(p.low) + [("", "から選ぶもの")], [("", "one of ")] + v.expr(p.low))
        named = [[("", say(v.lang, f"「{w}」", f"“{w}”"))] for w in places]
        out[name] = say(v.lang, join(named, "と") + [("", "で選ぶ値: " if named else "選ぶ値: ")],
                        [("", "What is chosen" + (" in " if named else ""))] + join(named, " and ") + [("", ": ")]) \
            + what + [("", say(v.lang, "。", "."))]
    return out


def _card_values(rules: S.RuleFile, v: Voice, grouped: dict[str, str]) -> dict[str, Runs]:
    """Symbols printed on cards: a column's values on one line, 'spade, heart, diamond, club'."""
    out: dict[str, Runs] = {}
    for c in rules.of(S.Component):
        columns: dict[str, list] = {}
        for spec in c.cards:
            for attr, value in spec.attrs:
                if isinstance(value, str) and value not in columns.setdefault(attr, []):
                    columns[attr].append(value)
        for attr in dict.fromkeys(a for spec in c.cards for a, _ in spec.attrs):
            if attr in v.titles and isinstance(v.kinds.get(attr), S.Symbol) and attr not in out and attr not in columns:
                shown = [str(x) for x in dict.fromkeys(x for spec in c.cards for a, x in spec.attrs if a == attr)]
                deck = v.titles.get(c.name, c.name)
                out[attr] = [("", say(v.lang, f"{deck}ごとに書かれた値({'、'.join(shown)})。",
                                      f"The value printed on each {deck}: {', '.join(shown)}."))]
        for attr, values in columns.items():
            shown = [x for x in values if x in v.titles and isinstance(v.kinds.get(x), S.Symbol) and x not in out]
            if shown:
                # one line for a column's values: 'spade, heart, diamond, club: the suits of a card'
                column, deck = v.titles.get(attr, attr), v.titles.get(c.name, c.name)
                out[shown[0]] = [("", say(v.lang, f"{deck}の{column}。", f"The {column} values of a {deck}."))]
                grouped[shown[0]] = say(v.lang, "、", ", ").join(v.titles[x] for x in shown)
                out.update({x: [] for x in shown[1:]})
    return out


def _facings(rules: S.RuleFile, v: Voice) -> list[tuple[str, str, Runs]]:
    """'A number from 0 to 3: which way the piece points on the field ... 1 right: a quarter turn clockwise'."""
    out = []
    for f in facings(rules):
        numbers = list(f.steps)
        board = v.title(f.board)
        alike = say(v.lang, "、", ", ").join(v.title(a) for a in f.alike)
        head = say(v.lang, f"{board}の上でコマが向いている方向。{numbers[0]}〜{numbers[-1]}の数で表し、"
                           f"カードを置く向きで示す(上が{board}の1行目の側)"
                           + (f"。{alike}も同じ数で表す" if alike else "") + "。",
                   f"Which way a piece points on the {board}, a number from {numbers[0]} to {numbers[-1]}, shown by the "
                   f"way its card is laid (up is toward row 1 of the {board})"
                   + (f"; the {alike} is numbered the same way" if alike else "") + ". ")
        each = [say(v.lang, f"{d}は{way(v.lang, s)}: {turn(v.lang, s)}", f"{d}, {way(v.lang, s)}: {turn(v.lang, s)}")
                for d, s in f.steps.items()]
        out.append((f.counter, v.title(f.counter),
                    [("", head)] + join([[("", e)] for e in each], say(v.lang, "。", "; ")) + [("", say(v.lang, "。", "."))]))
    return out


def glossary(rules: S.RuleFile, v: Voice) -> list[tuple[str, str, Runs]]:
    """(name, word, what it means), in the order a reader meets them: the table, then the game's words."""
    out = _seats(rules, v) + _facings(rules, v)
    for c in rules.of(S.Component):
        if c.part_of and c.name in v.titles:
            # printed on another component, so the components table lists it under that one, not by name
            whole = v.titles.get(c.part_of, c.part_of)
            text = notes_of(c.texts, v.lang)
            out.append((c.name, v.titles[c.name], [("", text[0][1] if text else say(
                v.lang, f"{whole}に印刷されている。", f"Printed on each {whole}."))]))
    grouped: dict[str, str] = {}
    said = {**_card_values(rules, v, grouped), **_chosen(rules, v), **_passed(rules, v)}
    for d in rules.of(S.Symbol):
        if said.get(d.name):
            out.append((d.name, grouped.get(d.name, v.titles[d.name]), said[d.name]))
        elif d.name not in said and d.name in v.titles and notes_of(d.texts, v.lang):
            # a word of the game's own: what the designer says it means
            out.append((d.name, v.titles[d.name], [("", notes_of(d.texts, v.lang)[0][1])]))
    return out
