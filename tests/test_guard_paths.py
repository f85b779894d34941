"""Every path playtest reads or writes goes through one guard (issue 40, findings 3, 4, 5 and 8):
regular files only, reads bounded, outputs checked before any work, sets written whole,
and a replay that plays from the rules it carries, wherever it is."""
from __future__ import annotations

import json
import os
import resource
import shutil
import signal
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from _util import BLUFF, LIFE, ROOT, playtest as run

from dsl import io_guard

def _two_gigabytes():
    # a read that never stops ends in a MemoryError here instead of filling the machine
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))


def in_its_own_process(*args, cwd=ROOT):
    """The command in its own process, its memory bounded: a read of /dev/zero fails, not hangs."""
    return subprocess.run([sys.executable, "-m", "dsl.cli", *map(str, args)], cwd=cwd, capture_output=True,
                          text=True, preexec_fn=_two_gigabytes, env={**os.environ, "PYTHONPATH": str(ROOT)})


# ---------------------------------------------------------------- finding 3: reading never stops on a device

def test_check_refuses_a_device_and_a_fifo_without_reading_them(tmp_path):
    fifo = tmp_path / "game.rules"
    os.mkfifo(fifo)
    for path, what in (("/dev/zero", "this is a device"), (fifo, "this is a FIFO (named pipe)")):
        p = in_its_own_process("check", path)
        assert p.returncode == 2, p.stderr
        assert f"{path}: {what}, not a rule file; playtest reads regular files only" in p.stderr
        assert "Traceback" not in p.stderr


def test_a_variant_on_a_device_is_refused_too():
    p = in_its_own_process("simulate", BLUFF, "-p", "2", "-n", "1", "-v", "/dev/zero")
    assert p.returncode == 2 and "/dev/zero: this is a device" in p.stderr


def test_a_rule_file_over_the_size_bound_is_refused_before_it_is_read(tmp_path):
    from dsl.cli.common import MAX_RULE_BYTES
    big = tmp_path / "big.rules"
    with open(big, "wb") as f:
        f.truncate(MAX_RULE_BYTES + 1)          # sparse: no disk used
    r = run("check", big)
    assert r.exit_code == 2
    assert f"over the {MAX_RULE_BYTES / 2**20:g} MB a rule file may have" in r.output


def test_read_bytes_stops_at_its_bound_and_takes_regular_files_only(tmp_path):
    f = tmp_path / "x"
    f.write_bytes(b"a" * 100)
    assert io_guard.read_bytes(str(f), 100) == b"a" * 100
    with pytest.raises(io_guard.Refused, match="over the 99 bytes"):
        io_guard.read_bytes(str(f), 99)
    with pytest.raises(io_guard.Refused, match="this is a device"):
        io_guard.read_bytes("/dev/zero", 10)
    with pytest.raises(io_guard.Refused, match="this is a folder"):
        io_guard.read_bytes(str(tmp_path), 10)


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    """A dead end of Bluff + the life variant, saved from the repository root with relative paths."""
    out = tmp_path_factory.mktemp("saved")
    r = subprocess.run([sys.executable, "-m", "dsl.cli", "simulate", "games/bluff.rules", "-v", "variants/bluff-life.rules",
                        "-p", "3", "-n", "60", "--save-dead-ends", str(out), "--json"], cwd=ROOT, capture_output=True,
                       text=True)
    assert r.returncode == 0, r.stderr
    path = json.loads(r.stdout)["saved"][0]
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    assert (data["rules"], data["variants"]) == ("games/bluff.rules", ["variants/bluff-life.rules"])
    return data, run("replay", path).output


def _rewritten(saved, tmp_path, **change):
    data = {**saved[0], **change}
    path = tmp_path / "moved" / "r.json"
    path.parent.mkdir()
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.mark.parametrize("named", ["/dev/zero", "/etc/passwd", "../../../../../../../../etc/passwd"])
def test_a_replay_naming_another_file_as_its_rules_never_opens_it(saved, tmp_path, named):
    path = _rewritten(saved, tmp_path, rules=named, variants=[named])
    p = in_its_own_process("replay", path, cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert p.stdout == saved[1]                 # the same narration as from where it was saved
    assert "root:" not in p.stdout + p.stderr


def test_an_old_replay_naming_a_file_is_refused_without_reading_it(saved, tmp_path):
    data = {k: v for k, v in saved[0].items() if k not in ("fingerprint", "final_state", "sources")}
    path = _rewritten((data,), tmp_path, rules="/etc/passwd")
    p = in_its_own_process("replay", path, cwd=tmp_path)
    assert p.returncode == 1
    assert "saved by an older playtest, without the texts of its rules: give the rule file with --rules FILE" in p.stderr
    assert "root:" not in p.stdout + p.stderr


# ---------------------------------------------------------------- finding 8: a replay is self-contained

def test_a_replay_moved_elsewhere_replays_from_its_own_texts(saved, tmp_path):
    path = _rewritten(saved, tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    p = in_its_own_process("replay", path, cwd=elsewhere)
    assert p.returncode == 0, p.stderr
    assert p.stdout == saved[1]
    assert "DEAD END" in p.stdout


def test_a_replay_whose_texts_do_not_check_shows_their_own_lines(saved, tmp_path):
    sources = [list(s) for s in saved[0]["sources"]]
    sources[0][1] = sources[0][1].replace("game bluff", "game bluff\nthis line is wrong", 1)
    path = _rewritten(saved, tmp_path, rules="/etc/passwd", sources=sources)
    r = run("replay", path)
    assert r.exit_code == 1
    assert "this line is wrong" in r.output and "(the rules it carries)" in r.output
    assert "root:" not in r.output


# ---------------------------------------------------------------- finding 4: report and sweep check -o first

@pytest.fixture
def no_games(monkeypatch):
    """Fail the test if any game is played."""
    from dsl.analyses import batches

    def played(*a, **k):
        raise AssertionError("a game was played before -o was checked")
    monkeypatch.setattr(batches.Pool, "__enter__", played)


@pytest.mark.parametrize("command", [["report", BLUFF, "-p", "2", "-n", "5"],
                                     ["sweep", BLUFF, "-p", "2", "-n", "5", "--param", "start_dice=4,5"]])
def test_report_and_sweep_check_the_output_before_any_game(tmp_path, no_games, command):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    r = run(*command, "-o", blocker / "out")
    assert r.exit_code == 2
    assert "cannot write there (a file stands where a folder is needed)" in r.output
    (tmp_path / "out.html").mkdir()             # one of the set cannot be written: none is
    r = run(*command, "-o", tmp_path / "out")
    assert r.exit_code == 2
    assert f"-o {tmp_path / 'out.html'}: this is a folder; give a file name" in r.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-file", "out.html"]


def test_a_set_is_written_whole_or_not_at_all(tmp_path, monkeypatch):
    real = os.replace

    def replace(src, dst):
        if str(dst).endswith(".html"):
            raise OSError(28, "No space left on device")
        real(src, dst)
    monkeypatch.setattr(os, "replace", replace)
    files = [(str(tmp_path / f"r{s}"), "x" * 10) for s in (".json", ".csv", ".html")]
    with pytest.raises(OSError, match="No space left"):
        io_guard.write_set(files)
    assert list(tmp_path.iterdir()) == []
    monkeypatch.setattr(os, "replace", real)
    io_guard.write_set(files)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.csv", "r.html", "r.json"]


def test_ctrl_c_right_after_the_temporary_file_is_made_leaves_nothing(tmp_path, monkeypatch):
    real = os.open

    def interrupted(path, flags, *a, **k):
        fd = real(path, flags, *a, **k)
        if flags & os.O_CREAT:
            os.close(fd)
            raise KeyboardInterrupt         # as a Ctrl-C landing between the open and its result
        return fd
    monkeypatch.setattr(os, "open", interrupted)
    with pytest.raises(KeyboardInterrupt):
        io_guard.write_atomic(str(tmp_path / "out.json"), "data")
    assert list(tmp_path.iterdir()) == []


# ---------------------------------------------------------------- finding 5: -o never replaces a special file

def _specials(tmp_path):
    target = tmp_path / "target.html"
    target.write_text("keep me")
    link = tmp_path / "link.html"
    link.symlink_to(target)
    fifo = tmp_path / "fifo.html"
    os.mkfifo(fifo)
    yield link, "a symbolic link"
    yield fifo, "a FIFO (named pipe)"
    device = tmp_path / "null.html"
    try:
        os.mknod(device, stat.S_IFCHR | 0o666, os.makedev(1, 3))     # the same device as /dev/null
    except (PermissionError, OSError):
        return                                  # not allowed to make one here
    yield device, "a device"


@pytest.mark.parametrize("command", [["diff", BLUFF, LIFE], ["book", BLUFF], ["report", BLUFF, "-p", "2", "-n", "3"]])
def test_an_output_at_a_symlink_fifo_or_device_is_refused_and_left_as_it_is(tmp_path, command):
    for path, what in _specials(tmp_path):
        before = os.lstat(path)
        out = str(path)[: -len(".html")] if command[0] == "report" else path
        r = run(*command, "-o", out)
        assert r.exit_code == 2, r.output
        assert f"{path}: {what} stands there, and playtest never replaces one" in r.output
        after = os.lstat(path)
        assert (after.st_mode, after.st_ino) == (before.st_mode, before.st_ino)
    assert (tmp_path / "target.html").read_text() == "keep me"
    assert not list(tmp_path.glob(".tmp-*"))


def test_write_atomic_refuses_a_symlink_for_every_caller(tmp_path):
    (tmp_path / "target").write_text("keep me")
    (tmp_path / "link").symlink_to(tmp_path / "target")
    with pytest.raises(io_guard.Refused, match="a symbolic link stands there"):
        io_guard.write_atomic(str(tmp_path / "link"), "new")
    assert os.path.islink(tmp_path / "link") and (tmp_path / "target").read_text() == "keep me"
    shutil.rmtree(tmp_path)


def _interrupted_set(tmp_path, patch: str) -> subprocess.CompletedProcess:
    base = str(tmp_path / "r")
    code = f"""
import os, signal, sys
sys.path.insert(0, {str(ROOT)!r})
from dsl import io_guard
{patch}
io_guard.write_set([({base!r} + s, s) for s in (".json", ".csv", ".html")])
# Python raises a signal's exception at its next check (a call, a loop), which a script that
# ends right after write_set may not reach: the program goes on, as a command always does
for _ in range(1000):
    pass
"""
    # Ctrl-C as a terminal gives it: a test process may be running with SIGINT ignored (an
    # ignored signal passes to a child), and then Python in the child would never see it
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def test_ctrl_c_during_the_renames_of_a_set_comes_after_all_of_them(tmp_path):
    p = _interrupted_set(tmp_path, """
real = os.replace
def replace(a, b):
    real(a, b)
    os.kill(os.getpid(), signal.SIGINT)     # Ctrl-C right after the first file is in place
os.replace = replace""")
    assert p.returncode == -signal.SIGINT and "KeyboardInterrupt" in p.stderr
    assert sorted(f.name for f in tmp_path.iterdir()) == ["r.csv", "r.html", "r.json"]


def test_sigterm_while_a_set_is_written_leaves_none_of_it(tmp_path):
    p = _interrupted_set(tmp_path, """
real, calls = os.fdopen, []
def fdopen(*a, **k):
    calls.append(1)
    if len(calls) == 2:
        os.kill(os.getpid(), signal.SIGTERM)    # while the second file is being written
    return real(*a, **k)
os.fdopen = fdopen""")
    assert p.returncode == -signal.SIGTERM, p.stderr
    assert list(tmp_path.iterdir()) == []
