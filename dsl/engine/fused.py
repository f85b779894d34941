"""Fused statements and play-outs: a statement that cannot pause runs as one generated
function instead of one dispatch per instruction, and random play runs a whole game as one.

The instructions stay as they are (the machine can still start at any of them, and a
statement that pauses runs through them); fusing replaces only the first instruction of an
outermost pause-free statement of the turn structure with a function that does what its
instructions do, in the same order, with the same state changes: a loop, a branch or a rule's
parameters become Python control flow and local-slot writes in the generated code, and every
other statement calls its own instruction (or runs its instructions) from there. So a fused
statement changes only speed, and the construct owns what its fused form says: its compile hook
passes `Compiler.fuse` a builder of its lines.

A play-out (`Fuser(pausing=True)`, RandomPlay.play_out) is the whole turn structure as one
function, entered at the pause where setup leaves every game: at each decision or chance
outcome it draws what random play (analyses/simulate.py) would draw through `decision` and
`apply`, and carries on in place instead of returning to the play loop. Choices and chance
outcomes give their builders for it: the common shapes (one actor's decision, a card from each
player's hand at once, a roll) are written in place (choice_playout.py, roll.py),
each mirroring the machine method it stands for; the rest call those methods.

An error keeps its place: the code sets `at` to the instruction it stands for before each
step, and an exception leaving the function carries that number (`ip`), where the machine lays
the dead end. Trigger bodies are not fused: their errors are laid where the machine's own
loop is, and that is kept as it was.

No text of a rule file becomes code: the builders write slot and instruction numbers, and
expressions are the very functions the instructions call, each bound to a name.

May import: engine program parts, errors and the Source of generated code.
"""
from __future__ import annotations

from .errors import CARRIED
from .source import Source

# Python reads at most 100 levels of indentation and 20 nested loops; a statement nested
# deeper than this runs through its instructions instead.
_MAX_DEPTH = 40
_MAX_LOOPS = 15


class Unplayable(Exception):
    """A statement that pauses has no generated form: the game has no play-out code."""


class Fragment:
    """The generated lines of one statement [first, end), as a function body."""
    __slots__ = ("end", "lines", "build", "inner")

    def __init__(self, end, lines, build, inner):
        self.end = end
        self.lines = lines              # Python statements, indented for the function body
        self.build = build              # the construct's builder that made the lines (None: they call its instructions)
        self.inner = inner              # the first statement inside, when it starts where this one does


class Fuser:
    """What the builders of one game share: the fragments, and the names the code uses.

    Fusing (`pausing` False) takes pause-free statements only. Playing out (`pausing` True)
    takes every statement, a decision or chance outcome drawn in place with the random
    generator `rng` (random play's draws, in its order) and recorded in `actions`, each
    decision shown to `watch` as the play loop shows it."""

    def __init__(self, compiler, pausing=False):
        self.c = compiler
        self.pausing = pausing
        self.src = Source(compiler)
        self.fragments: dict[int, Fragment] = {}
        self.closed = False             # set once the turn structure is compiled: triggers' bodies are not taken

    # ------------------------------------------------------------ for builders
    def of(self, fn) -> str:
        """The code computing a function of the state: an expression as its instruction computes
        it (compiling it again would give its comprehensions other local slots), its own code
        run in place when it has some, a constant by its value."""
        return self.src.of(fn)

    def name(self, v) -> str:
        """The code naming a value or a function (a literal for a number, text, truth or nothing)."""
        return self.src.value(v)

    def body(self, first, end) -> list:
        """The lines of the statements compiled at [first, end), one after another."""
        lines = []
        ip = first
        while ip < end:
            frag = self._fragment(ip, end)
            lines += frag.lines
            ip = frag.end
        return lines

    def resume_body(self, first, end, resume) -> list:
        """The statements at [first, end) entered at the pause `resume` inside one of them:
        that one entered there, then the ones after it."""
        ip = first
        while ip < end:
            frag = self._fragment(ip, end)
            if ip <= resume < frag.end:
                lines = frag.build(self, resume) if frag.build is not None else None
                if lines is None:
                    raise Unplayable(ip)
                return lines + self.body(frag.end, end)
            ip = frag.end
        raise Unplayable(resume)

    def _fragment(self, ip, end) -> Fragment:
        """The statement at `ip` that ends by `end`."""
        frag = self.fragments.get(ip)
        while frag is not None and frag.end > end:
            frag = frag.inner
        if frag is None or frag.lines is None:
            raise Unplayable(ip)
        return frag

    def branches(self, tests, otherwise) -> list:
        """Tests tried in turn (`if`, `cases`): each (test instruction, condition, coverage id
        counted when it holds, its body's first instruction, the body's end); `otherwise` the
        lines run when none holds."""
        tail = otherwise
        for test_ip, cond, cov, first, end in reversed(tests):
            tail = ([f"at = {test_ip!r}", f"if {self.of(cond)}:"] + self.indented(self.counted(cov) + self.body(first, end))
                    + ["else:"] + self.indented(tail))
        return tail

    def resume_branch(self, bodies, resume) -> list:
        """Entered at `resume` in the body [first, end) that holds it: its test has passed."""
        return next(self.resume_body(first, end, resume) for first, end in bodies if first <= resume < end)

    def rounds(self, st) -> list:
        """The outermost play loop counts its passes (rounds) as it enters each, as its
        instruction does (Compiler.counting_rounds)."""
        if st is not self.c.round_loop:
            return []
        if self.c.rounds_return:
            from ..constructs.eliminate import back_in
            return ["s.rounds += 1", f"{self.name(back_in)}(s)"]
        return ["s.rounds += 1"]

    def indented(self, lines) -> list:
        return ["    " + x for x in lines] or ["    pass"]

    def counted(self, cov) -> list:
        """Count coverage id `cov` when someone counts."""
        return ["if s.fired is not None:", f"    s.fired[{cov!r}] = s.fired.get({cov!r}, 0) + 1"]

    def entered(self, ip) -> list:
        """Instruction `ip` counts coverage and tells the log, when either is kept."""
        return [f"at = {ip!r}", "if s.fired is not None or s.log is not None:", f"    {self.name(self.c.code[ip])}(s)"]

    def call(self, ip) -> list:
        """Run instruction `ip` for its effect; stop if the game has ended."""
        return [f"at = {ip!r}", f"{self.name(self.c.code[ip])}(s)",
                "if s.outcome is not None or s.dead_end is not None:", "    return -1"]

    def paused(self, ip) -> list:
        """The machine stops at a decision or chance outcome (instruction `ip` returned -1): its
        bound on decisions is checked there (Machine.run)."""
        c = self.c
        return [f"if s.moves > {c.max_moves!r}:", f"    {self.name(c.past_step_limit)}(s)", "    return -1"]

    def stopped(self, ip, resume) -> list:
        """The pause instruction `ip` runs and the machine's stop there is checked, unless the
        play-out is entered there (the machine stopped there already)."""
        return [] if resume == ip else [f"at = {ip!r}", self.of(self.c.code[ip])] + self.paused(ip)

    # ------------------------------------------------------------ while compiling
    def add(self, first, end, build) -> None:
        """Record the fragment of a statement just compiled at [first, end) (if it cannot
        pause, unless playing out)."""
        pauses = self._pauses(first, end)
        if self.closed or first == end or (pauses and not self.pausing):
            return
        if first in self.fragments and self.fragments[first].end >= end:
            return
        lines = None
        if build is not None:
            try:
                lines = build(self)
            except Unplayable:
                pass
        if lines is not None:
            depth, loops = _nesting(lines)
            if depth > _MAX_DEPTH or loops > _MAX_LOOPS:
                lines = None
        if lines is None:
            build = None
            if not pauses:
                lines = self.call(first) if end == first + 1 else self._run(first, end)
        self.fragments[first] = Fragment(end, lines, build, self.fragments.get(first))

    def _pauses(self, first, end) -> bool:
        return any(first <= ip < end for ip in self.c.pauses)

    def _run(self, first, end) -> list:
        """Run the instructions [first, end) through the machine's own loop."""
        return [f"at = {first!r}", f"ip = {self.name(self.c.run_range)}(s, {first!r}, {end!r})",
                f"if ip != {end!r} or s.outcome is not None or s.dead_end is not None:", "    return -1"]

    # ------------------------------------------------------------ after compiling
    def install(self, limit) -> int:
        """Put each outermost built fragment below instruction `limit` in place of its first
        instruction; one inside a statement that runs its instructions is outermost too.
        Returns how many were put in."""
        c = self.c
        covered = -1
        count = 0
        for first in sorted(self.fragments):
            frag = self.fragments[first]
            if first < covered or frag.end > limit or frag.build is None:
                continue            # inside one put in already, or runs its instructions (which may be)
            fn = self._compiled("s", first, frag.lines, frag.end)
            if fn is not None:
                c.code[first] = fn
                covered = frag.end
                count += 1
        return count

    def playout(self, limit, resume):
        """The function (s, rng, actions, watch) playing the turn structure [0, limit) on from
        the pause `resume` to the end of the game; None when a statement has no generated form."""
        try:
            lines = self.resume_body(0, limit, resume)
        except Unplayable:
            return None
        return self._compiled("s, rng, actions, watch", resume, lines, -1)

    def _compiled(self, params, first, lines, end):
        n = self.name
        text = "\n".join(["    L = s.loc_slots", f"    at = {first!r}", "    try:"]
                         + ["        " + x for x in lines]
                         + [f"    except {n(CARRIED)} as err:",
                            f"        if not {n(hasattr)}(err, 'ip'):",
                            "            err.ip = at",
                            "        raise",
                            f"    return {end!r}"]) + "\n"
        try:
            return self.src.function(params, text, statements=True)
        except (SyntaxError, RecursionError, MemoryError, ValueError):
            return None         # code Python cannot read: the instructions run as they are


def _nesting(lines) -> tuple:
    """How deep the lines indent, and how many loops they nest."""
    depth = loops = 0
    open_loops: list = []
    for x in lines:
        indent = (len(x) - len(x.lstrip())) // 4
        depth = max(depth, indent)
        while open_loops and open_loops[-1] >= indent:
            open_loops.pop()
        if x.lstrip().startswith("while "):
            open_loops.append(indent)
            loops = max(loops, len(open_loops))
    return depth, loops
