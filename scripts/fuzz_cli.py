"""Command lines and paths into playtest (make fuzz-cli): for a bounded time, command lines drawn
at random from every command, with hostile numbers (huge, negative, not numbers), hostile
input paths (a device, a FIFO, a folder, a symbolic link to a device, a sparse file past
the size bound, a binary file) and outputs (a symbolic link, a FIFO, a device node, a folder,
a file where a folder should be), replays whose rule names point at other files, files of
strategies (whole, broken, for no game, too costly for their board), agents from packages that
call sys.exit (as they move, as they are made, as they are imported), `play` answered with
numbers of thousands of digits, and `new` given names it must refuse. Each
runs in a process of its own under a memory bound; it must end with exit 0, 1 or 2, print
no traceback and no line of another file, leave every special file as it was and no
temporary file behind. Prints the tally; exits 1 on the first failure, writing the command
line to out/fuzz-cli/failure.txt.

    python scripts/fuzz_cli.py [--seconds 60] [--seed 1]
"""
from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shlex
import shutil
import stat
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

MEMORY = 3 << 30            # bytes a command may map: a read that never stops fails here
ENDS_WITHIN = 120           # seconds: far past what the drawn command lines need, short of a hang
SECRET = "fuzz-cli-secret-line-7f3a"      # a line only the decoy file holds: it must never be printed


def _bounded():
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


class Ground:
    """The files the command lines name, made once in a temporary folder."""

    def __init__(self, top: str):
        self.top = top
        p = lambda *parts: os.path.join(top, *parts)
        shutil.copy(os.path.join(ROOT, "games", "tictactoe.rules"), p("game.rules"))
        self.game = p("game.rules")
        self.decoy = p("decoy.rules")
        with open(self.decoy, "w", encoding="utf-8") as f:
            f.write(f"{SECRET}\n")
        os.mkfifo(p("fifo.rules"))
        os.symlink("/dev/zero", p("zero-link.rules"))
        os.mkdir(p("folder.rules"))
        with open(p("sparse.rules"), "wb") as f:
            f.truncate(64 << 20)
        with open(p("binary.rules"), "wb") as f:
            f.write(bytes(range(256)) * 40)
        open(p("a-file"), "w").close()
        self.inputs = [self.game, self.game, self.game, "/dev/zero", p("fifo.rules"), p("zero-link.rules"),
                       p("folder.rules"), p("sparse.rules"), p("binary.rules"), p("nowhere.rules"), self.decoy,
                       os.path.join(ROOT, "variants", "bluff-life.rules")]
        # outputs: what stands there must still stand there, as it was, after every command
        os.mkdir(p("out"))
        target = p("out", "target.html")
        with open(target, "w") as f:
            f.write("keep")
        os.symlink(target, p("out", "link.html"))
        os.mkfifo(p("out", "fifo.html"))
        self.specials = [p("out", "link.html"), p("out", "fifo.html"), target]
        try:
            os.mknod(p("out", "null.html"), stat.S_IFCHR | 0o666, os.makedev(1, 3))
            self.specials.append(p("out", "null.html"))
        except OSError:
            pass
        # the link's target is watched (a write through the link changes it), never named itself
        self.outputs = [s for s in self.specials if s != target] + [p("out", "new.html"), p("out", "folder"), p("a-file", "x.html"),
                                        p("out", "sub", "r.html")]
        os.mkdir(p("out", "folder"))
        self.before = {s: _identity(s) for s in self.specials}
        self.replays = self._replays()
        self._strategies()
        self._plugins()

    def _strategies(self) -> None:
        """games/ and strategies/ as a designer keeps them: tic-tac-toe's own strategies, a file of
        them that does not parse, one for a game that is nowhere, and a board so large that a
        preference reading every space is refused at its first decision."""
        p = lambda *parts: os.path.join(self.top, *parts)
        os.mkdir(p("games"))
        os.mkdir(p("strategies"))
        text = open(os.path.join(ROOT, "games", "tictactoe.rules"), encoding="utf-8").read()
        with open(p("games", "tictactoe.rules"), "w", encoding="utf-8") as f:
            f.write(text)
        with open(p("games", "wide.rules"), "w", encoding="utf-8") as f:
            f.write(text.replace("game tictactoe", "game wide").replace("grid 3 by 3", "grid 400 by 3")
                    .replace("count 5 per player", "count 800 per player"))
        own = open(os.path.join(ROOT, "strategies", "tictactoe.rules"), encoding="utf-8").read()
        for name, body in (("tictactoe.rules", own), ("wide.rules", own.replace("strategies for tictactoe",
                                                                                 "strategies for wide")),
                           ("broken.rules", "strategies for tictactoe\n\nstrategy odd\n  prefer take where (((\n"),
                           ("orphan.rules", "strategies for nosuchgame\n\nstrategy odd\n  prefer take\n")):
            with open(p("strategies", name), "w", encoding="utf-8") as f:
                f.write(body)
        self.strategy_files = [p("strategies", n) for n in ("tictactoe.rules", "broken.rules", "orphan.rules")]

    def _plugins(self) -> None:
        """An installed package (a dist-info folder on the path) declaring agents that end the
        process: as they move, as they are made, as their module is imported."""
        site = self.site = os.path.join(self.top, "site")
        info = os.path.join(site, "quitters-0.dist-info")
        os.makedirs(info)
        with open(os.path.join(info, "METADATA"), "w") as f:
            f.write("Metadata-Version: 2.1\nName: quitters\nVersion: 0\n")
        with open(os.path.join(info, "entry_points.txt"), "w") as f:
            f.write("[playtest.agents]\nquits = quitters:Quits\nquits-when-made = quitters:QuitsWhenMade\n"
                    "quits-on-import = quitters_import:Agent\n")
        with open(os.path.join(site, "quitters.py"), "w") as f:
            f.write("import os, sys\n\nclass Quits:\n    def act(self, observation, options, rng):\n"
                    "        sys.exit(0)\n\nclass QuitsWhenMade:\n    def __init__(self):\n"
                    "        raise SystemExit(3)\n")
        with open(os.path.join(site, "quitters_import.py"), "w") as f:
            f.write("import sys\nsys.exit(0)\n")
        self.plugins = ["plugin:quits", "plugin:quits-when-made", "plugin:quits-on-import", "quits", "plugin:nobody"]

    def _replays(self) -> list:
        from dsl.analyses import replay as replay_mod
        from dsl.analyses.simulate import game_rng, play_random
        from dsl.engine import Game
        from dsl.loader import load
        rules, _ = load(self.game)
        game = Game(rules, 2)
        played = play_random(game, game_rng(1, 0), 0)
        saved = replay_mod.stamped(replay_mod.Replay(self.game, [], 2, 1, 0, played.actions), game)
        out = []
        for i, (name, keep_sources) in enumerate([(self.game, True), ("/dev/zero", True), (self.decoy, True),
                                                  ("/dev/zero", False), (self.decoy, False), ("../" * 12 + "etc/passwd", True)]):
            data = saved.to_json()
            data["rules"] = name
            if not keep_sources:
                for key in ("fingerprint", "final_state", "sources"):
                    data.pop(key)
            path = os.path.join(self.top, f"replay-{i}.json")
            with open(path, "w", encoding="utf-8") as f:
                json.dump(data, f)
            out.append(path)
        return out + ["/dev/zero", os.path.join(self.top, "fifo.rules"), self.top]

    def changed(self) -> list[str]:
        """The special files a command replaced or changed, and temporary files left behind."""
        bad = [s for s in self.specials if _identity(s) != self.before[s]]
        for folder, _, names in os.walk(self.top):
            bad += [os.path.join(folder, n) for n in names if n.startswith(".tmp-")]
        return bad


def _identity(path: str):
    st = os.lstat(path)
    content = open(path, "rb").read() if stat.S_ISREG(st.st_mode) else None
    return st.st_ino, st.st_mode, st.st_rdev, content


NUMBERS = ["1", "2", "3", "0", "-1", str(10**20), "nan", "inf", "1e3", "", "x", "٣", str(2**63), "-" + str(10**30)]


def command_line(g: Ground, rng: random.Random) -> list[str]:
    """One command line: a command, its inputs and a few options, some of them hostile."""
    num = lambda: rng.choice(NUMBERS) if rng.random() < 0.5 else rng.choice(["1", "2", "3"])
    out = lambda: rng.choice(g.outputs)
    rule = lambda: rng.choice(g.inputs)
    games = lambda: ["-n", rng.choice(["2", "3", "5"]) if rng.random() < 0.6 else rng.choice(NUMBERS)]
    command = rng.choice(["check", "simulate", "replay", "report", "sweep", "diff", "book", "sheet", "explore",
                          "fuzz", "match", "variants", "restrict"])
    args = [command]
    if command == "replay":
        args += [rng.choice(g.replays)] + (["--rules", rule()] if rng.random() < 0.2 else [])
    elif command == "diff":
        args += [rule(), rule()] + (["--simulate", num(), "-p", "2"] if rng.random() < 0.3 else [])
    elif command == "match":
        args += [rule(), rng.choice(["random", "flat:2", "flat:" + str(10**20)]), "random", "-p", "2"] + games()
    else:
        args.append(rule())
    if command in ("simulate", "report", "sweep", "restrict"):
        args += games() + ["-p", rng.choice(["2", "2", num()])]
    if command == "sweep":
        args += ["--param", rng.choice(["A=1..3", "A=1..1000000000", "A=0..99999999999999999999..1", "A=", "=1"])]
    if command == "fuzz":
        args += ["-p", "2", "--max-examples", rng.choice(["5", "20", num()])]
    if command == "explore":
        args += ["-p", "2", "--max-states", rng.choice(["50", "500", num()])]
    if command in ("simulate", "report", "sweep", "restrict", "diff", "match", "fuzz", "explore") and rng.random() < 0.3:
        args += ["--workers", rng.choice(["1", "2", "999", "auto", num()])] + (["--force-workers"] if rng.random() < 0.2 else [])
    if command in ("report", "sweep", "diff", "book", "sheet") and rng.random() < 0.7:
        target = out()
        args += ["-o", target[: -len(".html")] if command in ("report", "sweep") and target.endswith(".html") else target]
    if rng.random() < 0.15:
        args += ["-v", rule()]
    if rng.random() < 0.1:
        args += ["--seed", num()]
    return args


HUGE = ["9" * 4301, "1" + "0" * 5000, "0" * 5000 + "1", "-" + "9" * 4301, "²", "٣", "３", "1e4301", " " + "9" * 20]
BAD_NAMES = ["/dev/null", "/dev/zero", "/proc/self/game", "/sys/game", "fifo.rules", "fifo", "my\ngame", "my\tgame",
             "a\x1b[2Jb", "x\u202ey", "\r", "", "2048", "-", "folder.rules", "a-file/x", "out/fifo.html"]


def special_line(g: Ground, rng: random.Random) -> tuple[list[str], str | None, str | None]:
    """One of the cases beside the hostile numbers and paths: strategies, agents from packages
    that exit, `play` answered with huge numbers, `new` with names it must refuse. The command
    line, what its standard input holds (None: nothing), and what it must say as it fails (None:
    it may succeed): an agent that exits must not pass for a finished run, a name `new` must refuse
    must be refused."""
    case = rng.choice(["strategies", "plugin", "play", "new"])
    if case == "strategies":
        file = rng.choice(g.strategy_files)
        if rng.random() < 0.25:
            return ["simulate", "games/wide.rules", "-n", "1", "--agents", "strategy:careful,random"], None, "would read"
        return rng.choice([["check", file], ["strategies", file, "-n", rng.choice(["2", "5"])],
                           ["simulate", "games/tictactoe.rules", "-n", "3", "--agents",
                            rng.choice(["strategy:careful", "strategy:nosuch", "ismcts:5/careful"]) + ",random"]]), None, None
    if case == "plugin":
        agent = rng.choice(g.plugins)
        command = rng.choice([["simulate", g.game, "-n", "3", "--agents", agent + ",random"],
                              ["match", g.game, agent, "random", "-n", "3"], ["solve", g.game, "--samples", "1", "--agents", agent]])
        if command[0] != "solve":
            command += ["--workers", rng.choice(["1", "2"])]
        return command, None, "agent"
    if case == "play":
        answers = [rng.choice(HUGE + ["1", "u", "?"]) for _ in range(rng.randint(1, 6))] + ["q"]
        return ["play", g.game, "--seats", "human,random", "--seed", "1"], "\n".join(answers) + "\n", None
    return ["new", rng.choice(BAD_NAMES)], None, "error:"


def verdict(g: Ground, args: list[str], exits: dict, given: str | None = None, fails: str | None = None) -> str | None:
    """What is wrong with how the command ended, or None; its exit is counted in `exits`.
    `given`: what the command reads on its standard input (None: nothing); `fails`: what it must
    say as it fails (None: it may succeed)."""
    try:
        p = subprocess.run([sys.executable, "-m", "dsl.cli", *args], cwd=g.top, capture_output=True, text=True,
                           errors="replace", preexec_fn=_bounded, timeout=ENDS_WITHIN,
                           **({"input": given} if given is not None else {"stdin": subprocess.DEVNULL}),
                           env={**os.environ, "PYTHONPATH": os.pathsep.join([ROOT, g.site])})
    except subprocess.TimeoutExpired:
        return f"still running after {ENDS_WITHIN} s"
    said = p.stdout + p.stderr
    exits[p.returncode] = exits.get(p.returncode, 0) + 1
    if p.returncode not in (0, 1, 2):
        return f"exit {p.returncode}: {said[-500:]}"
    if fails is not None and (p.returncode == 0 or fails not in said):
        return f"exit {p.returncode} without saying '{fails}': {said[-500:]}"
    if "Traceback" in said:
        return "a traceback: " + said[said.index("Traceback"):][:1500]
    if (SECRET in said and g.decoy not in args) or "root:x:0:0" in said:      # named itself, it may be shown
        return "printed the lines of another file"
    changed = g.changed()
    if changed:
        return "changed or left: " + ", ".join(changed)
    return None


def campaign(seconds: float, seed: int = 1, out: str | None = None) -> dict:
    rng = random.Random(seed)
    tally = {"commands": 0, "by_exit": {}, "failure": None}
    with tempfile.TemporaryDirectory(prefix="fuzz-cli-") as top:
        g = Ground(top)
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            args, given, fails = special_line(g, rng) if rng.random() < 0.25 else (command_line(g, rng), None, None)
            wrong = verdict(g, args, tally["by_exit"], given, fails)
            tally["commands"] += 1
            if wrong:
                tally["failure"] = f"playtest {shlex.join(args)}\n  {wrong}"
                break
    if tally["failure"] and out:
        os.makedirs(out, exist_ok=True)
        with open(os.path.join(out, "failure.txt"), "w", encoding="utf-8") as f:
            f.write(tally["failure"] + "\n")
    return tally


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=60.0, help="how long to run (default 60)")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    tally = campaign(a.seconds, a.seed, os.path.join(ROOT, "out", "fuzz-cli"))
    print(f"{tally['commands']} command lines, by exit: "
          + ", ".join(f"{code}: {n}" for code, n in sorted(tally["by_exit"].items())))
    if tally["failure"]:
        print(f"FAILED: {tally['failure']}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
