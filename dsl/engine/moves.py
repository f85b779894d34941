"""Legal moves: enumerating what a paused choice offers, checking one move without listing the
others, and binding a chosen move's values to its option's slots.

May import: engine values, errors, program parts and generated code.
"""
from __future__ import annotations

import itertools

from ..language.limits import MAX_OPTIONS
from .errors import CARRIED, IllegalMove, RuleError
from .program import plain_move
from .source import conjuncts, hoisted, keeps_slots, local_names, reads_slots, slots_as_locals
from .values import Piece, Player, ZoneId


def _too_many(choice, n):
    return RuleError("too many options", f"the decision offers {n:,} moves (at most {MAX_OPTIONS:,})", choice.span)


def _too_wide(pname, n):
    return RuleError("too many options", f"'{pname}' may be any of {n:,} numbers "
                     f"(at most {MAX_OPTIONS:,} moves in one decision)")


_too_many.keeps_slots = _too_wide.keeps_slots = True     # they build an error, touching no state


# How a bound of `where` narrows a range [a, b], as code: v is the bound's value.
_NARROW = {">=": "a = {max}(a, v)", ">": "a = {max}(a, v + 1)", "<=": "b = {min}(b, v)",
           "<": "b = {min}(b, v - 1)", "=": "a, b = {max}(a, v), {min}(b, v)"}


def _tests_by_loop(rest, params) -> list:
    """The terms of a `where` test (`a and b and c`, in order), each in the outermost of an
    option's loops where it can run: the loop of the last parameter it reads (its value, or its
    slot; a call handed the state may read any), and none before a term written before it. So
    a term is tried once for each value of what it reads, and the terms are tried in the same
    order and stop at the same one as the whole test tried for every move."""
    loops = [[] for _ in params]
    level = 0
    for term in conjuncts(rest):
        names = local_names(term)
        reads = [i for i, p in enumerate(params) if f"v{i}" in names or reads_slots(term, [p[1]])]
        level = max([level, *reads])
        loops[level].append(f"({term})")
    return loops


class Moves:
    """The part of a Game that works out and checks players' moves."""

    def drawn_move(self, s, choice, chooser, rng):
        """The move `rng.choice` draws from the moves `enumerate` lists, drawn without listing
        them, for a choice whose options have independent parameters and no `where`
        (`choice.parts`): the moves are the options' products of ranges, in order; with how
        many moves there are (what a watcher counting the moves is shown). (None, 0), with
        nothing drawn, when there is no move, too many, or working them out fails (then
        `enumerate` says so)."""
        L = s.loc_slots
        each = choice.each_slot if choice.simultaneous else None
        whole = None if choice.parts.keeps_slots else list(L)     # its code may write other slots
        if each is not None:
            saved, L[each] = L[each], chooser
        try:
            parts = choice.parts(s)
        except CARRIED:
            return None, 0
        finally:
            if whole is not None:
                L[:] = whole
            elif each is not None:
                L[each] = saved
        if len(parts) == 1 and len(parts[0][1]) == 1:       # the common shape: one option of one value
            d = parts[0][1][0]
            return ((parts[0][0], rng.choice(d)), len(d)) if 0 < len(d) <= MAX_OPTIONS else (None, 0)
        total = sum(size for _, _, size in parts)
        if not 0 < total <= MAX_OPTIONS:
            return None, 0
        i = rng.choice(range(total))
        for name, domains, size in parts:
            if i >= size:
                i -= size
                continue
            values = []
            for d in reversed(domains):     # the first parameter varies slowest
                i, k = divmod(i, len(d))
                values.append(d[k])
            return (name, *reversed(values)), total

    def option_parts(self, choice):
        """The function of the state giving, for each option of such a choice that is offered,
        (its name, the domain of each parameter as `domain` works it out, how many moves), as
        one generated function (Moves.drawn_move)."""
        src = self.new_source()
        v = src.value
        lines = ["    parts = []"]
        for name, avail, params, rest, bounds, label, opt, cov in choice.options:
            body = []
            for i, p in enumerate(params):
                body += self.domain_code(f"d{i}", p, bounds, src, choice.zone_params)
            size = " * ".join(f"{v(len)}(d{i})" for i in range(len(params))) or "1"
            body.append(f"    parts.append(({v(name)}, [{', '.join(f'd{i}' for i in range(len(params)))}], {size}))")
            lines += body if avail is None else [f"    if {src.of(avail)}:"] + ["    " + x for x in body]
        text = "\n".join(lines + ["    return parts"]) + "\n"
        try:
            fn = src.function("s", text, statements=True)
        except (SyntaxError, RecursionError, MemoryError, ValueError):
            return None         # code Python cannot read: the moves are listed
        fn.keeps_slots = keeps_slots(text, src.names)       # then there is nothing to save and restore
        return fn

    def bind_move(self, s, choice, move):
        option = choice.named.get(move[0])
        if option is None:
            raise RuleError("illegal move", f"no option named {move[0]!r}", choice.span)
        slots, label, cov = option
        L = s.loc_slots
        for slot, v in zip(slots, move[1:]):
            L[slot] = v
        if s.fired is not None:
            s.fired[cov] = s.fired.get(cov, 0) + 1
        return label.ip

    def option_filler(self, choice, name, params, bounds, rest_fn, src, rest):
        """The loop `enumerate` runs for an option of independent parameters, as one generated
        function with each range worked out (as `domain` does) and the `where` test inline
        (`rest` is its code in `src`, which names its values; without code, a call of
        `rest_fn`): the same moves, in the same order, the same checks, and the slot writes the
        test reads. None for any other option, which `enumerate` lists itself."""
        if not params:
            return None
        if rest is None:
            src = self.new_source()
            rest = None if rest_fn is None else src.call(rest_fn)
        k = len(params)
        v = src.value
        ahead = []
        if rest is not None:        # the loop's own variables hold the values the slots do
            rest = slots_as_locals(rest, {p[1]: f"v{i}" for i, p in enumerate(params)})
            # and the test reads again and again what the loop cannot change: read once
            ahead, (rest,) = hoisted([rest], [p[1] for p in params], src.names)
        lines = []
        for i, p in enumerate(params):
            lines += self.domain_code(f"d{i}", p, bounds, src, choice.zone_params)
        lines += ["    " + x for x in ahead]
        lines += [f"    size = {' * '.join(f'{v(len)}(d{i})' for i in range(k))}",
                  f"    if size + {v(len)}(moves) > {MAX_OPTIONS!r}:",
                  f"        raise {v(_too_many)}({v(choice)}, size + {v(len)}(moves))"]
        move = f"({v(name)}{''.join(f', v{i}' for i in range(k))})"
        # the slots are written only for a test that reads them (the caller puts them back after listing)
        stored = rest is not None and reads_slots(rest, [p[1] for p in params])
        if k == 2 and rest is None:
            lines += ["    for v0 in d0:", f"        moves.extend([{move} for v1 in d1])"]
        else:
            tests = [[] for _ in params] if rest is None else _tests_by_loop(rest, params)
            lines += ["    L = s.loc_slots"] if stored else []
            pad = "    "
            if any(tests[:-1]):         # a test before the last loop runs only where the last one has values
                lines += [f"{pad}if size:"]
                pad += "    "
            for i, p in enumerate(params):
                lines += [f"{pad}for v{i} in d{i}:"] + ([f"{pad}    L[{p[1]!r}] = v{i}"] if stored else [])
                pad += "    "
                if tests[i]:
                    lines += [f"{pad}if {' and '.join(tests[i])}:"]
                    pad += "    "
            lines += [f"{pad}moves.append({move})"]
        text = "\n".join(lines) + "\n"
        try:
            fill = src.function("s, moves", text, statements=True)
        except (SyntaxError, RecursionError, MemoryError, ValueError):
            return None         # code Python cannot read (loops nested too deep): enumerate lists them
        fill.keeps_slots = not stored and keeps_slots(text, src.names)
        return fill

    @staticmethod
    def domain_code(var, param, bounds, src, zones=()) -> list:
        """Lines setting `var` to what `domain` gives for the parameter (a zone's own list, read
        and not copied: nothing changes a zone while moves are worked out). A parameter whose
        slot is in `zones` is taken from one zone, known when compiling."""
        pname, slot, lo, hi = param
        v = src.value
        if hi is None and slot in zones:
            return [f"    {var} = s.zones[{src.of(lo)}]"]
        if hi is None:
            return [f"    coll = {src.of(lo)}",
                    f"    {var} = s.zones[coll] if {v(isinstance)}(coll, {v(ZoneId)}) else {v(list)}(coll)"]
        lines = [f"    a, b = {src.of(lo)}, {src.of(hi)}"]
        for op, f in bounds.get(pname, ()):
            lines += [f"    v = {src.of(f)}", "    " + _NARROW[op].format(max=v(max), min=v(min))]
        return lines + [f"    if b - a + 1 > {MAX_OPTIONS!r}:", f"        raise {v(_too_wide)}({v(pname)}, b - a + 1)",
                        f"    {var} = {v(range)}(a, b + 1)"]

    def enumerate(self, s, choice) -> list:
        """The moves of `choice`, in order. The local slots are scratch while listing, left as
        it leaves them: every caller puts them back (Machine.choice_moves, the play-out's own
        listing in choice_playout.py), which is why a generated lister may skip writes nothing reads."""
        moves = []
        L = s.loc_slots
        for name, avail, params, rest, bounds, label, opt, cov in choice.options:
            if avail is not None and not avail(s):
                continue
            if opt.alike:
                start = len(moves)
                self._list_option(s, choice, L, name, params, rest, bounds, opt, moves)
                sets = [(group, self.domain(s, params[group[0]], bounds)) for group in opt.alike]
                moves[start:] = [m for m in moves[start:] if self.alike_once(s, sets, m)]
            else:
                self._list_option(s, choice, L, name, params, rest, bounds, opt, moves)
        return moves

    def alike_once(self, s, sets, move) -> bool:
        """Whether a move of an option with sets (`a, b from Z`) is the one offered for its set:
        of pieces no rule nor player can tell apart (the same kind, values and owner, in the same
        place, face and shown state), it takes the lowest numbered, so two such guards and a king
        make one move 'guard and king', not two."""
        classes = self._alike_classes
        if classes is None:
            from .order import piece_classes
            classes = self._alike_classes = piece_classes(self)
        for group, dom in sets:
            chosen = {move[1 + i] for i in group}
            passed = set()
            for x in sorted(dom):
                look = (classes[x], s.loc[x], s.face[x], s.revealed[x], tuple(sorted(s.looked.get(x, ()))) if s.looked else ()) \
                    if type(x) is Piece else ("value", x)
                if x not in chosen:
                    passed.add(look)
                elif look in passed:
                    return False
        return True

    def _list_option(self, s, choice, L, name, params, rest, bounds, opt, moves) -> None:
        """Appends the moves of one offered option to `moves`."""
        if opt.fill is not None:
            opt.fill(s, moves)
        elif not params:
            if rest is None or rest(s):
                moves.append((name,))
        elif opt.independent:
            doms = [self.domain(s, p, bounds) for p in params]
            size = 1
            for d in doms:
                size *= len(d)
            if size + len(moves) > MAX_OPTIONS:
                raise _too_many(choice, size + len(moves))
            if len(params) == 1:
                s0 = params[0][1]
                for v in doms[0]:
                    L[s0] = v
                    if rest is None or rest(s):
                        moves.append((name, v))
            elif len(params) == 2:
                s0, s1 = params[0][1], params[1][1]
                d1 = doms[1]
                for v0 in doms[0]:
                    L[s0] = v0
                    if rest is None:
                        moves.extend([(name, v0, v1) for v1 in d1])
                        continue
                    for v1 in d1:
                        L[s1] = v1
                        if rest(s):
                            moves.append((name, v0, v1))
            else:
                for combo in itertools.product(*doms):
                    for (_, slot, _, _), v in zip(params, combo):
                        L[slot] = v
                    if rest is None or rest(s):
                        moves.append((name, *combo))
        else:
            self.product(s, L, params, 0, bounds, rest, [name], moves)

    def domain(self, s, param, bounds):
        pname, slot, lo, hi = param
        if hi is None:
            coll = lo(s)
            return list(s.zones[coll] if isinstance(coll, ZoneId) else coll)
        a, b = lo(s), hi(s)
        for op, f in bounds.get(pname, ()):
            v = f(s)
            if op == ">=":
                a = max(a, v)
            elif op == ">":
                a = max(a, v + 1)
            elif op == "<=":
                b = min(b, v)
            elif op == "<":
                b = min(b, v - 1)
            else:
                a, b = max(a, v), min(b, v)
        if b - a + 1 > MAX_OPTIONS:
            raise _too_wide(pname, b - a + 1)
        return range(a, b + 1)

    def product(self, s, L, params, k, bounds, rest, prefix, out):
        if k == len(params):
            if rest is None or rest(s):
                out.append(tuple(prefix))
                if len(out) > MAX_OPTIONS:
                    raise RuleError("too many options", f"the decision offers more than {MAX_OPTIONS:,} moves")
            return
        slot = params[k][1]
        for v in self.domain(s, params[k], bounds):
            L[slot] = v
            prefix.append(v)
            self.product(s, L, params, k + 1, bounds, rest, prefix, out)
            prefix.pop()

    def _checked_move(self, s, choice, move, player) -> tuple:
        """The move as legal_moves would list it, or IllegalMove. Checks one move without
        enumerating the others: the option is offered, every value is in its range or
        collection (ranges may depend on earlier values), and `where` holds."""
        try:
            move = tuple(move)
        except TypeError:
            raise IllegalMove(f"{move!r} is not a move (a move is a list: option name, then values)")
        bad = IllegalMove(f"{plain_move(move)} is not a legal move for P{int(player) + 1}")
        if not move or not isinstance(move[0], str):
            raise bad
        L = s.loc_slots
        saved = list(L)
        try:
            if choice.simultaneous:
                waiting = self.waiting(s, choice, player)
                L[choice.each_slot] = waiting[0][1] if waiting else Player(player)
            for name, avail, params, rest, bounds, label, opt, cov in choice.options:
                if name != move[0]:
                    continue
                if len(move) != 1 + len(params) or (avail is not None and not avail(s)):
                    raise bad
                out = [name]
                for param, v in zip(params, move[1:]):
                    dom = self.domain(s, param, bounds)
                    if param[3] is not None:
                        if isinstance(v, bool) or not isinstance(v, int) or v not in dom:
                            raise bad
                    else:
                        try:
                            v = dom[dom.index(v)]       # the item itself (a piece, a player), not its number
                        except ValueError:
                            raise bad
                    L[param[1]] = v
                    out.append(v)
                if rest is not None and not rest(s):
                    raise bad
                if opt.alike and not self.alike_once(
                        s, [(group, self.domain(s, params[group[0]], bounds)) for group in opt.alike], out):
                    raise bad
                return tuple(out)
            raise bad
        except IllegalMove:
            raise
        except (RuleError, TypeError, KeyError, IndexError, ValueError, ZeroDivisionError, AttributeError):
            raise bad
        finally:
            L[:] = saved
