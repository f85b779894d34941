"""serve: the play table in the browser, and a replay shown step by step there."""
from __future__ import annotations

import errno
import os
import secrets
import socket
import sys
import time

import click

from .options import lang_option

from .common import RULE_FILE
from .play import resumed_or_exit
from .common import _fail, _game_or_exit, _load_or_exit, _variant_option, main, players_option, writable_or_exit

MAX_WS_BYTES = 2 ** 20      # the socket's own cap; the server refuses anything over 4 KB before reading it


def _address_options(f):
    f = click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
                     help="Port to serve on (0: any free port).")(f)
    return click.option("--host", default="127.0.0.1", show_default=True,
                        help="Address to serve on: 127.0.0.1 is this machine only; 0.0.0.0 opens the "
                             "table to the local network (every link still needs its token).")(f)


@main.command(help="""Play a game in the browser: people and bots at one table, each seeing only their own seat.

\b
  playtest serve games/GAME.rules --seats human,human,random
  playtest serve games/GAME.rules --seats human,human --host 0.0.0.0    (friends on the LAN)
  playtest serve --resume out/tables/GAME-table-seed7.json              (after a crash or a restart)

\b
Prints one link per human seat (each with a token nobody can guess: send each player theirs),
a designer link that sees everything and may undo, and a lobby link that lists the games and
starts more. The game is written to its replay file after every move (--save DIR).""")
@click.argument("game", required=False, type=RULE_FILE)
@click.option("--seats", default=None, metavar="KIND[,KIND...]",
              help="Who sits where: 'human' or an agent (random, flat:N, ismcts:N; ismcts:1s thinks a second a move), one a seat, comma-separated; "
                   "one kind for every seat. Default: human at every seat.")
@players_option
@click.option("--seed", type=int, default=None, help="Seed of the deal and the dice, to play a known game again "
              "(default: 256 fresh random bits each game, kept on the server, that no seat can work out).")
@lang_option("The pages' language at first (each page can switch).")
@_variant_option
@click.option("--save", "save_dir", type=click.Path(), default=os.path.join("out", "tables"), show_default=True,
              help="Folder the game's replay is written to as it goes.")
@click.option("--resume", type=click.Path(), default=None, help="Continue the game saved in this replay file.")
@_address_options
def serve(game, seats, players, seed, lang, variants, save_dir, resume, host, port):
    from ..analyses import replay as replay_mod
    from ..table import links_file
    from ..table.server import Host
    from ..table.game_table import Table
    if resume:
        if game:
            _fail("give either a GAME to start or --resume FILE, not both", 2)
        if seats or players or seed is not None or variants:
            _fail("--resume continues the saved game with its own seats, players, seed and variants: "
                  "leave out --seats, -p, --seed and -v", 2)
        first = resumed_or_exit(resume)
        rules, variants, players, kinds = first.game.rules, first.variants, first.game.n, list(first.seats)
    else:
        if not game:
            _fail("which game? playtest serve games/GAME.rules (or --resume FILE)", 2)
        rules, _ = _load_or_exit(game, variants)
        kinds = _seats_or_exit(seats, players)
        players = players or (len(kinds) if len(kinds) > 1 else None)
        players = _game_or_exit(rules, players).n
        kinds = kinds * players if len(kinds) == 1 else kinds
        if len(kinds) != players:
            _fail(f"--seats names {len(kinds)} seats for {players} players: name one a seat", 2)
        first = None

    def new_table(spec=None, seed=seed):
        """A fresh game of the same rules: the first one, or one the lobby starts (spec: its seats)."""
        chosen = kinds if spec is None else _seats(spec, players)
        # the file's name says a designer's seed; fresh seed material it must not
        tag = time.strftime("%Y%m%d-%H%M%S") if seed is None else f"seed{seed}"
        seed = secrets.token_bytes(32) if seed is None else seed
        path = _fresh_path(save_dir, replay_mod.file_name(rules.path, variants, "table", tag))
        t = Table(rules, players, chosen, seed, path, variants)
        t.advance()
        return t

    kept = None
    if first is not None:
        kept, why = links_file.read(resume, first.seats)
        if kept is None:
            click.echo(f"the game's links are not kept ({why}): it gets new ones; send them again", err=True)
        elif kept["address"]:       # the links name the address: served there again unless told otherwise
            given = click.get_current_context().get_parameter_source
            host = host if given("host") is not click.core.ParameterSource.DEFAULT else kept["address"][0]
            port = port if given("port") is not click.core.ParameterSource.DEFAULT else kept["address"][1]
    sock = _bind_or_exit(host, port)
    if first is None:
        writable_or_exit(save_dir, "--save", folder=True)
        first = new_table()
    else:
        first.advance()
    server = Host(lambda spec: new_table(spec, None), lang, kept and kept["lobby"], _limits())
    server.address = (host, sock.getsockname()[1])
    room = server.add(first, kept=kept)
    base = f"http://{_shown_host(host)}:{sock.getsockname()[1]}"
    _print_links(server, room, base, first.replay_path)
    _run(server, sock)


def _seats(spec, players):
    """Seat kinds from a --seats text; ValueError saying what is wrong."""
    from ..agents.spec import parse_agent
    if spec is None:
        return ["human"] * players
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError("name the seats: human or an agent, comma-separated")
    kinds = [k.strip() for k in spec.split(",")]
    for k in kinds:
        if k.lower() != "human":
            parse_agent(k)
    kinds = ["human" if k.lower() == "human" else k for k in kinds]
    if len(kinds) == 1:
        kinds = kinds * players
    if len(kinds) != players:
        raise ValueError(f"{len(kinds)} seats named for {players} players: name one a seat")
    return kinds


def _seats_or_exit(spec, players):
    if spec is None:
        return ["human"]
    try:
        return _seats(spec, len(spec.split(",")))
    except ValueError as e:
        _fail(f"--seats: {e}", 2)


def _fresh_path(folder: str, name: str) -> str:
    """A replay path in `folder` no other game has taken (a game never overwrites another)."""
    stem = name[:-5]
    for n in range(1, 10_000):
        path = os.path.join(folder, stem + (f"-{n}" if n > 1 else "") + ".json")
        if not os.path.exists(path):
            return path
    _fail(f"{folder}: too many games named {stem}")


def _bind_or_exit(host: str, port: int) -> socket.socket:
    """The listening socket, bound before anything is printed, so a taken port is a clear error."""
    try:
        info = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        sock = socket.socket(info[0], socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(info[4])
    except socket.gaierror:
        _fail(f"--host {host}: no such address on this machine", 2)
    except OSError as e:
        hint = ("another program uses the port; try --port 0 (any free port)" if e.errno == errno.EADDRINUSE
                else "is it an address of this machine? 0.0.0.0 serves on all of them")
        _fail(f"cannot serve on {host}:{port} ({e.strerror or e}): {hint}", 2)
    sock.listen(64)
    return sock


def _shown_host(host: str) -> str:
    """The address the links carry: for 0.0.0.0, this machine's address on the local network."""
    if host not in ("0.0.0.0", "::", ""):
        return f"[{host}]" if ":" in host else host
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("10.255.255.255", 1))       # picks the outgoing interface; sends nothing
            return s.getsockname()[0]
        except OSError:
            return socket.gethostname()


def _print_links(server, room, base: str, saved) -> None:
    from ..language.diagnostics import shown
    view = room.table.view(None, room.lang)
    click.echo(f"{shown(view['game'])}, {view['players']} players: {base}")
    for link in server.links(room, base):
        who = "designer" if link["seat"] is None else f"P{link['seat'] + 1} ({link['kind']})"
        click.echo(f"  {who:<16} {link['url'] or 'plays itself'}")
    click.echo(f"  {'lobby':<16} {base}/lobby#{server.key}")
    click.echo(f"saved after every move to {saved}; continue it with: playtest serve --resume {saved}")
    click.echo("Ctrl-C stops the server.")


def _limits():
    from ..table.limits import Limits
    return Limits.for_descriptors()


STOP_SECONDS = 2    # Ctrl-C lets a move being made finish this long, then drops it


def _quiet_stop(record) -> bool:
    """A logging filter. Ctrl-C while a move is being made (a bot thinking in its thread): the
    move is cancelled (after STOP_SECONDS, or at once on a second Ctrl-C), and the server would
    log the cancelled handler with a traceback, and the cancelling itself as an error. Stopping the server is no
    error of a page's: those records are dropped, every other kept (the move dropped is said in
    one line, `_end_moves_being_made`)."""
    import asyncio
    error = record.exc_info[1] if record.exc_info else None
    if isinstance(error, (asyncio.CancelledError, KeyboardInterrupt)):
        return False
    return "graceful shutdown exceeded" not in record.getMessage()


def _run(server, sock) -> None:
    import logging
    import uvicorn
    from ..table.limits import quiet_repeats, uvicorn_config
    quiet_repeats()
    config = uvicorn_config(server.app(), server.limits, MAX_WS_BYTES)
    config.timeout_graceful_shutdown = STOP_SECONDS
    logging.getLogger("uvicorn.error").addFilter(_quiet_stop)     # after the Config has set the logging up
    try:
        uvicorn.Server(config).run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    _end_moves_being_made()


def _end_moves_being_made() -> None:
    """A bot still thinking in its thread would keep the stopped server's process alive until it
    has moved, minutes maybe; its move would reach no page. The process ends now instead. The
    game is saved as it was before that move (each save is whole: a file half written is a
    temporary one, removed by the next save in the folder)."""
    import threading
    if any(t.is_alive() and not t.daemon for t in threading.enumerate() if t is not threading.main_thread()):
        click.echo("stopped: the move a bot was making is dropped; the game is saved up to the move before it",
                   err=True)
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(0)


def serve_replay(path, rules, rep, lang, host, port, step=None) -> None:
    """`playtest replay FILE --serve`: the replay's steps in the browser."""
    import json
    from ..table.serve_replay import ReplayBook
    from ..table.server import Host
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        seats = data.get("seats")
    except (OSError, ValueError, AttributeError):
        data, seats = {}, None
    seats = seats if isinstance(seats, list) and len(seats) == rep.players and all(isinstance(s, str) for s in seats) else None
    book = ReplayBook(rules, rep, seats)        # `replay` has checked every action plays under these rules
    if step is not None:
        book.start = step
    from ..table.notes import kept_notes
    book.notes = kept_notes(data, book.steps)
    sock = _bind_or_exit(host, port)
    server = Host(None, lang, limits=_limits())
    room = server.add_replay(book)
    base = f"http://{_shown_host(host)}:{sock.getsockname()[1]}"
    where = f"step {book.start} of {book.steps}" + (" (the dead end)" if book.dead_end else "")
    click.echo(f"{path}: {book.steps} actions, opening at {where}")
    url = server.links(room, base)[-1]["url"]
    if step is not None:        # the page opens there too when the link is opened again later
        url = url.replace("#", f"?step={step}#", 1)
    click.echo(f"  {url}")
    click.echo("Ctrl-C stops the server.")
    _run(server, sock)
