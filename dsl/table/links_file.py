"""A game's links, kept beside its replay: the room id, every seat's token, the lobby's key and
the address served on, so `playtest serve --resume` after a crash serves the game at the very
links the players already have open, and their pages rejoin by themselves.

The file is readable by its owner only (mode 0600): its tokens sit at the seats. The replay
itself holds no token.

May import: the standard library.
"""
from __future__ import annotations

import json
import os
import secrets
from typing import Optional

FORMAT = "playtest-table-links/1"
MAX_BYTES = 64 * 1024


def path_of(replay_path: str) -> str:
    stem = replay_path[:-5] if replay_path.endswith(".json") else replay_path
    return stem + ".links"


def write(replay_path: str, room: str, tokens: dict, lobby: str, address: Optional[tuple] = None) -> None:
    """Written whole or not at all, never readable by anyone but the owner, not even for a moment."""
    path = path_of(replay_path)
    data = {"format": FORMAT, "room": room, "lobby": lobby, "tokens": [[seat, tok] for tok, seat in tokens.items()]}
    if address is not None:
        data.update(host=address[0], port=address[1])
    data = json.dumps(data, indent=1) + "\n"
    tmp = os.path.join(os.path.dirname(os.path.abspath(path)), f".{os.path.basename(path)}.{secrets.token_hex(4)}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o600)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def read(replay_path: str, seats: list) -> tuple[Optional[dict], str]:
    """(room id, tokens, lobby key, address) as the game had them, or (None, why they cannot be used).
    The tokens must be one for each human seat of `seats` and one for the designer."""
    path = path_of(replay_path)
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_BYTES + 1)
    except FileNotFoundError:
        return None, f"{path} is not there"
    except OSError as e:
        return None, f"{path}: {e.strerror or e}"
    try:
        data = json.loads(raw.decode("utf-8")) if len(raw) <= MAX_BYTES else None
    except (ValueError, UnicodeDecodeError):
        data = None
    humans = {s for s, kind in enumerate(seats) if kind == "human"} | {None}
    ok = (isinstance(data, dict) and data.get("format") == FORMAT and _word(data.get("room"))
          and _word(data.get("lobby")) and isinstance(data.get("tokens"), list)
          and all(isinstance(p, list) and len(p) == 2 and _word(p[1]) and (p[0] is None or type(p[0]) is int)
                  for p in data["tokens"]))
    if not ok:
        return None, f"{path} is not a links file playtest wrote"
    tokens = {tok: seat for seat, tok in data["tokens"]}
    if set(tokens.values()) != humans or len(tokens) != len(humans):
        return None, f"{path} has not one token for each person's seat and the designer"
    host, port = data.get("host"), data.get("port")
    address = (host, port) if isinstance(host, str) and type(port) is int and 0 < port < 65536 else None
    return {"room": data["room"], "tokens": tokens, "lobby": data["lobby"], "address": address}, ""


def _word(v) -> bool:
    return isinstance(v, str) and 6 <= len(v) <= 64 and all(c.isalnum() or c in "-_" for c in v)
