"""The one guard on every file playtest reads or writes.

Reading takes regular files only (a device such as /dev/zero never ends, a FIFO may never
answer) and never more bytes than a bound. Writing checks an output before any work: its
folder must take a new file, and what stands at the name must be a regular file or nothing,
so a symbolic link, FIFO or device is refused, never replaced. A file is written through a
temporary file in its folder and renamed; a set of files is renamed together with Ctrl-C
and SIGTERM held, so a run leaves all of them or none. A temporary file is removed on every
exit a process can catch; a SIGKILL cannot be caught, so the next write into the folder
removes what a killed writer left.

May import only the standard library: every layer uses it.
"""
from __future__ import annotations

import errno
import glob
import os
import secrets
import signal
import stat
import tempfile
import threading
from contextlib import contextmanager


class Refused(OSError):
    """A path playtest will not read or write; `strerror` says why in a designer's words."""

    def __init__(self, path: str, why: str):
        super().__init__(errno.EINVAL, why, path)

    def __str__(self) -> str:
        return f"{self.filename}: {self.strerror}"


def kind(mode: int) -> str:
    """What a file that is not a regular one is, for a refusal."""
    for test, name in ((stat.S_ISDIR, "a folder"), (stat.S_ISLNK, "a symbolic link"),
                       (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISCHR, "a device"),
                       (stat.S_ISBLK, "a device"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a regular file"


def _mb(n: int) -> str:
    return f"{n / 2**20:g} MB" if n >= 2**20 else f"{n:,} bytes"


def check_input(path: str, limit: int, what: str = "file") -> None:
    """Refuse, without opening it, a path that exists and is not a regular file of at most
    `limit` bytes; a path that does not exist is left to the reader to report."""
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return
    if stat.S_ISDIR(st.st_mode):
        raise Refused(path, f"this is a folder, not a {what}")
    if not stat.S_ISREG(st.st_mode):
        raise Refused(path, f"this is {kind(st.st_mode)}, not a {what}; playtest reads regular files only")
    if st.st_size > limit:
        raise Refused(path, f"the file is {_mb(st.st_size)}, over the {_mb(limit)} a {what} may have")


def read_bytes(path: str, limit: int, what: str = "file") -> bytes:
    """The whole of a regular file of at most `limit` bytes; a Refused (an OSError) otherwise."""
    check_input(path, limit, what)
    # O_NONBLOCK: a FIFO swapped in after the check must not hold the open forever
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise Refused(path, f"this is {kind(st.st_mode)}, not a {what}; playtest reads regular files only")
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:
            raise Refused(path, f"the file is over the {_mb(limit)} a {what} may have")
        return b"".join(chunks)
    finally:
        os.close(fd)


# ---------------------------------------------------------------- writing

def check_output(path: str) -> None:
    """Refuse an output name a symbolic link, FIFO, device or folder stands at, and a folder
    that cannot take a new file; raises Refused or the OSError that says why."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        st = None
    except NotADirectoryError:
        raise Refused(path, "cannot write there (a file stands where a folder is needed)") from None
    if st is not None and not stat.S_ISREG(st.st_mode):
        if stat.S_ISDIR(st.st_mode):
            raise Refused(path, "this is a folder; give a file name")
        raise Refused(path, f"{kind(st.st_mode)} stands there, and playtest never replaces one "
                            "(remove it or choose another name)")
    check_folder(os.path.dirname(os.path.abspath(path)))


def check_folder(folder: str) -> None:
    """Make the folder if need be and prove that a file can be created in it."""
    try:
        os.makedirs(folder, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder, prefix=_tmp_prefix()):
            pass
    except (FileExistsError, NotADirectoryError):
        raise Refused(folder, "cannot write there (a file stands where a folder is needed)") from None


def _tmp_prefix() -> str:
    return f".tmp-{os.getpid()}-"


def _remove_stale(folder: str) -> None:
    """Temporary files left by a writer that was killed (its process is gone)."""
    for tmp in glob.glob(os.path.join(glob.escape(folder), ".tmp-*")):
        pid = os.path.basename(tmp).split("-")[1]
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            try:
                os.unlink(tmp)
            except OSError:
                pass
        except OSError:
            pass                        # alive (another user's): not ours to remove


class _Terminated(BaseException):
    pass


def _raise_terminated(signum, frame):
    raise _Terminated()


@contextmanager
def ended_by_sigterm():
    """The block with SIGTERM raised as an exception where the code is, so that the block's own
    `except` and `finally` clean up; a block it leaves then ends the process by the signal, as
    it would have ended without. Only where SIGTERM has its default action, in the main thread
    (a handler or an ignore someone else set stays in charge); inside another such block, the
    outer one ends the process."""
    before = signal.getsignal(signal.SIGTERM) if threading.current_thread() is threading.main_thread() else None
    if before == signal.SIG_DFL:
        signal.signal(signal.SIGTERM, _raise_terminated)
    try:
        yield
    except _Terminated:
        if before == signal.SIG_DFL:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            os.kill(os.getpid(), signal.SIGTERM)
        raise
    finally:
        if before == signal.SIG_DFL:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)


@contextmanager
def _signals_held():
    """Ctrl-C and SIGTERM wait until the block is done (they arrive right after it)."""
    if not hasattr(signal, "pthread_sigmask"):     # not on every system
        yield
        return
    held = {signal.SIGINT, signal.SIGTERM}
    before = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def _refuse_special(path: str) -> None:
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return
    if not stat.S_ISREG(st.st_mode):
        check_output(path)              # raises with the words for what stands there


def _temporary(path: str, data: str | bytes, made: list) -> str:
    """Write `data` to a new temporary file beside `path`; its name is in `made` before the file
    exists, so an interrupt at any moment leaves nothing the caller cannot remove."""
    folder = os.path.dirname(os.path.abspath(path))
    tmp = os.path.join(folder, _tmp_prefix() + secrets.token_hex(6))
    made.append(tmp)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)     # the umask applies, as to any new file
    with os.fdopen(fd, "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode("utf-8"))
    return tmp


def _discard(made: list) -> None:
    for tmp in made:
        try:
            os.unlink(tmp)
        except OSError:
            pass


def write_atomic(path: str, data: str | bytes, overwrite: bool = True) -> None:
    """Write a whole file or nothing: a temporary file in the same folder, then rename.

    Never over a symbolic link, FIFO, device or folder (Refused). A SIGTERM during the write
    removes the temporary file before the process ends. With overwrite=False an existing file
    is never replaced (FileExistsError)."""
    write_set([(path, data)], overwrite)


def write_set(files: list, overwrite: bool = True) -> None:
    """Write several files as one: every (path, data) or, when one cannot be written, none."""
    for path, _ in files:
        _refuse_special(path)
    for folder in {os.path.dirname(os.path.abspath(p)) for p, _ in files}:
        os.makedirs(folder, exist_ok=True)
        _remove_stale(folder)
    made: list = []
    with ended_by_sigterm():
        try:
            temps = [_temporary(path, data, made) for path, data in files]
            done = []
            with _signals_held():
                try:
                    for (path, _), tmp in zip(files, temps):
                        if overwrite:
                            os.replace(tmp, path)
                        else:
                            os.link(tmp, path)      # fails if the name is taken, even by a racing writer
                        done.append(path)
                except OSError:
                    for path in done:           # what this call put there goes again: all or nothing
                        os.unlink(path)
                    raise
        finally:
            _discard(made)
