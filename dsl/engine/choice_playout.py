"""A choice in a play-out: random play's decision drawn in place in the generated code of a
whole game (engine/fused.py), each piece mirroring the machine method it stands for
(Machine.counted_choice, Moves.drawn_move, RandomPlay.deciding and drawn_together), so that a
play-out draws what the play loop would draw, in the same order, and shows a watcher the same.

May import: the language's limits, engine values, errors and generated code (a leaf, so the choice
construct can use it).
"""
from __future__ import annotations

from itertools import repeat

from ..language.limits import MAX_OPTIONS, MAX_PIECES
from .errors import CARRIED, LISTING_ERRORS, RuleError, WatcherFailed
from .source import reads_slots, slots_as_locals
from .values import Team


def no_actor(choice) -> RuleError:
    """What ends the game where the one who should choose is nobody or out: the pause
    instruction raises it, and the play-out in its place."""
    return RuleError("no actor", "the player who should choose here is nobody, or is out", choice.span)


def in_play_out(choice, ip, ranges, everyone=None, after=None):
    """The builder of the lines of `choice`, paused at `ip`, in a play-out: its options' bodies
    compiled at `ranges`; for a simultaneous choice, its fixed players (`everyone`, or None)
    and where it goes on once every move is revealed (`after`)."""
    next_ip = ip + 1

    def played(f, resume=None):
        """Random play's decisions here, drawn in place, then the body of the option taken."""
        if not f.pausing or resume not in (None, ip):
            return None             # not entered inside an option's body: a game's first pause is
                                    # never there, and a search's rollout from there plays through the loop
        choosing = f.name(choice)
        if not choice.simultaneous:
            # what taken and bind_move do, in place: the first option of the move's name binds its values
            bound = []
            for k, ((name, _, params, *_, cov), (first, last)) in enumerate(zip(choice.options, ranges)):
                values = [f"L[{slot!r}] = move[{j + 1}]" for j, (_, slot, _, _) in enumerate(params)]
                bound += [f"{'el' if k else ''}if move[0] == {f.name(name)}:"] + f.indented(
                    values + f.counted(cov) + f.body(first, last))
            # the pause instruction's work, in place: the actor worked out once, then the step bound
            actor = _actor(f, choice)
            paused = [f"s.ip = {ip!r}"] + actor + ["if p is None or not s.alive[p]:", f"    raise {f.name(no_actor)}({choosing})"]
            # entered at the pause, which ran before: nobody may decide now (RandomPlay.deciding)
            entered = actor + ["if p is None:", f"    {f.name(f.c.waits_for_nobody)}(s)", "    return -1"] \
                if resume == ip else [f"at = {ip!r}"] + paused + f.paused(ip)
            return entered + _decided(f, choice) + [f"at = {ip!r}"] + _counted_choice(f, choice, "p", "x", False) + bound
        drawing = [f"if not {f.name(f.c.drawn_together)}(s, {choosing}, rng, actions, watch):", "    return -1"]
        if resume != ip:
            drawing = [f"at = {ip!r}", f"if {f.of(f.c.code[ip])} < 0:"] + f.indented(
                f.paused(ip) + _drawn_in_place(f, choice, everyone, drawing))
        if choice.drawn_from is None:
            bodies = []
            for k, (first, last) in enumerate(ranges):
                bodies += [f"{'el' if k else ''}if ip == {first!r}:"] + f.indented(f.body(first, last))
            return drawing + ["while True:", f"    at = {next_ip!r}", f"    ip = {f.of(f.c.code[next_ip])}",
                               f"    if ip == {after!r}:", "        break"] + f.indented(bodies)
        # one option of one value: what reveal_next and bind_move do, in place
        (first, last), cov, value_slot = ranges[0], choice.options[0][7], choice.drawn_from[1][1]
        pending = f"L[{choice.pending_slot!r}]"
        return drawing + ["while True:", f"    at = {next_ip!r}", f"    pending = {pending}", "    if not pending:",
                           "        break", f"    {pending} = pending[1:]", f"    L[{choice.each_slot!r}], move = pending[0]",
                           f"    L[{value_slot!r}] = move[1]"] + f.indented(f.counted(cov) + f.body(first, last))

    return played


def _decided(f, choice) -> list:
    """The move of `p`, the one actor at `choice`, who is in (the pause has checked), drawn
    as random play draws it (RandomPlay.deciding): `move`, shown with the moves to `watch` when
    there is one; the game ends here when there is none."""
    c, n = f.c, f.name
    pick = ["if not moves:", f"    {n(c.offered)}(s, p, None, moves, None)", "    return -1",
            "move = rng.choice(moves)"]
    if choice.parts is not None:
        # drawn without its moves listed: a watcher (simulate's metrics) is shown them all the
        # same, listed before its call, so that a listing's error stays the game's, or only
        # how many there are, as the draw counted them, when that is all it asks
        drawn, count = _drawn(f, choice)
        lines = ["moves = None"] + drawn + ["if move is None:"] + f.indented(_listed(f, choice) + pick)
        listed = ["if moves is None:",
                  f"    moves = {count} if {_counts(n)} else {n(c.choice_moves)}(s, {n(choice)}, p)"]
    else:
        lines = _listed(f, choice) + pick
        listed = []
    return lines + ["if watch is not None:"] + f.indented(listed + _shown(n, f"s, {n(int)}(p), moves, move")) + [
        "if actions is not None:", f"    actions.append([{n(int)}(p), {n(list)}(move)])"]


def _counts(n) -> str:
    """engine.errors.counts_moves(watch), in place: it is asked at every decision watched."""
    return f"{n(getattr)}(watch, 'counts_moves', False)"


def _shown(n, arguments: str) -> list:
    """`watch(arguments)`, its error carried out of the play-out as the watcher's own
    (random_play._watched, in place)."""
    return ["try:", f"    watch({arguments})", f"except {n(CARRIED)} as err:", f"    raise {n(WatcherFailed)}() from err"]


def _actor(f, choice) -> list:
    """`p`, the player who decides at a choice of one actor (for a team, its first member
    still in), as Machine.current_actors works it out."""
    n = f.name
    return [f"x = {f.of(choice.actor)}", f"p = x if {n(type)}(x) is not {n(Team)} else {n(f.c.acting_player)}(s, x)"]


def _counted_choice(f, choice, player, chooser, hidden) -> list:
    """Machine.counted_choice of `move`, in place."""
    return ["s.moves += 1", "s.ticks = 0", "if s.log is not None:",
            f"    {f.name(f.c.logged_choice)}(s, {f.name(choice)}, move, {player}, {chooser}, {hidden!r})"]


def _drawn(f, choice) -> tuple:
    """The lines drawing `move` without listing the moves as Moves.drawn_move draws it, or None:
    in place for one option, always offered, of one or more values; and the expression giving
    how many moves there are once a move is drawn."""
    c, n = f.c, f.name
    name, avail, params, _, bounds = choice.options[0][:5]
    if len(choice.options) != 1 or avail is not None or not params:
        return [f"move, count = {n(c.drawn_move)}(s, {n(choice)}, None, rng)"], "count"
    k = len(params)
    domains = [x for i, p in enumerate(params) for x in c.domain_code(f"d{i}", p, bounds, f.src, choice.zone_params)]
    lens = [f"{n(len)}(d{i})" for i in range(k)]
    if k == 1:      # drawn_move's common shape: one value, drawn from its domain
        drawn = [f"move = ({n(name)}, rng.choice(d0)) if {_offers('d0', params[0], choice, n)} else None"]
    else:           # the first value varies slowest
        drawn = [f"size = {' * '.join(lens)}", f"if 0 < size <= {MAX_OPTIONS!r}:",
                 f"    i = rng.choice({n(range)}(size))"]
        drawn += [f"    i, j = {n(divmod)}(i, {lens[i]})\n    v{i} = d{i}[j]" for i in reversed(range(k))]
        drawn += [f"    move = ({n(name)}, {', '.join(f'v{i}' for i in range(k))})", "else:", "    move = None"]
    # code that may write other slots than its own leaves them as they were
    whole, back = ([], []) if choice.parts.keeps_slots else (["whole = L[:]"], ["L[:] = whole"])
    return (whole + ["try:"] + domains + [f"except {n(CARRIED)}:"] + f.indented(back + ["move = None"])
            + ["else:"] + f.indented(back + "\n".join(drawn).split("\n"))), (f"{n(len)}(d0)" if k == 1 else "size")


def _offers(var, param, choice, n) -> str:
    """The test that the domain `var` of the parameter `param` has a move to draw, as
    Moves.drawn_move tests it: some value, and no more than a decision may offer; a domain
    taken from one zone holds at most MAX_PIECES pieces, so only the first needs testing."""
    if param[1] in choice.zone_params and MAX_PIECES <= MAX_OPTIONS:
        return var
    return f"0 < {n(len)}({var}) <= {MAX_OPTIONS!r}"


def _listed(f, choice) -> list:
    """`moves`, the moves of the one actor `p` at `choice`, as Machine.choice_moves lists them:
    in place for options that list themselves in one generated loop or take no parameter."""
    c, n = f.c, f.name
    if any(params and opt.fill is None for _, _, params, _, _, _, opt, _ in choice.options):
        return [f"moves = {n(c.choice_moves)}(s, {n(choice)}, p)"]
    listing = []
    keeps = True            # whether nothing the listing runs can write a local slot
    for name, avail, params, rest, bounds, label, opt, cov in choice.options:
        one = [f"{n(opt.fill)}(s, moves)"] if params else \
            [f"moves.append(({n(name)},))"] if rest is None else [f"if {f.of(rest)}:", f"    moves.append(({n(name)},))"]
        listing += one if avail is None else [f"if {f.of(avail)}:"] + f.indented(one)
        keeps = keeps and all(getattr(x, "keeps_slots", False) for x in (opt.fill if params else rest, avail) if x is not None)
    # a listing that may use the slots as scratch puts them back as they were
    saved = "L[:]" if keeps else "saved"
    return ([] if keeps else ["saved = L[:]"]) + ["try:", "    moves = []"] + f.indented(listing) + [
        f"except {n(LISTING_ERRORS)} as err:", f"    {n(c.listing_failed)}(s, {n(choice)}, {saved}, err)", "    return -1"] + (
        [] if keeps else ["L[:] = saved"])


def _drawn_in_place(f, choice, everyone, rest) -> list:
    """Random play's draws at a simultaneous choice of a fixed collection of players in seat
    order, each from one collection (`choice.drawn_from`), in place: what RandomPlay.drawn_together
    draws, the moves kept in seat order in the pending slot, each decision shown to `watch` as
    drawn_together shows it. Should one chooser have no move to draw, the lines `rest` (which
    call drawn_together) take over from there. Only `rest` for any other choice."""
    if choice.drawn_from is None or not everyone or list(everyone) != sorted(set(everyone)) \
            or not choice.parts.keeps_slots:
        return rest
    n = f.name
    name, param = choice.drawn_from
    each, pending = choice.each_slot, choice.pending_slot
    # the chooser is the loop's own x, so the collection's code need not read the slot
    domain = [slots_as_locals(x.strip(), {each: "x"})
              for x in f.c.domain_code("d", param, {}, f.src, choice.zone_params)]
    # the watcher sees the slots as the play loop has them: the moves taken so far pending, and
    # the loop's own slot as it was, which is written for the draw only when its code reads it
    held = any(reads_slots(x, (each,)) for x in domain)
    restore_slot, set_chooser = ([f"L[{each!r}] = x0"], [f"L[{each!r}] = x"]) if held else ([], [])
    shown = restore_slot + ["if drawn:", f"    L[{pending!r}] = {n(tuple)}(drawn)",
                            # the move `rng.choice` takes from the collection the moves are listed
                            # from, which are (name, x) for each x in it, in its order
                            ] + _shown(n, f"s, {n(int)}(x), {n(len)}(d) if {_counts(n)} else "
                                          f"{n(list)}({n(zip)}({n(repeat)}({n(name)}), d)), move") + set_chooser
    draw = (set_chooser + ["try:"] + f.indented(domain) + [f"except {n(CARRIED)}:", "    break",
                                                           f"if not ({_offers('d', param, choice, n)}):", "    break",
                                                           f"move = ({n(name)}, rng.choice(d))", "if watch is not None:"]
            + f.indented(shown) + ["if actions is not None:", f"    actions.append([{n(int)}(x), {n(list)}(move)])"]
            + _counted_choice(f, choice, "x", "x", True) + ["drawn.append((x, move))"])
    return ([f"x0 = L[{each!r}]"] if held else []) + ["drawn = []", f"for x in {n(everyone)}:"] + f.indented(draw) + restore_slot + [
        f"L[{pending!r}] = {n(tuple)}(drawn)", f"if {n(len)}(drawn) != {len(everyone)!r}:"] + f.indented(rest)
