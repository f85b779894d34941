"""Tabletop Simulator: the game's pieces as a saved object TTS loads, with the images it shows.

The save is TTS's documented format (a `SaveName` and a list of `ObjectStates`): each deck a
`DeckCustom` whose cards are cells of face sheets (a card's id is its sheet's key × 100 + its
cell), each die a `Die_N`, each token a `Custom_Token`, each board a `Custom_Board`; tokens and
dice wait in a `Bag` a kind and owner. Every object is named as the rulebook names it. The faces
are the card sheets' own (pod.card_pages at the sheets' 63 x 88 mm, no bleed), tiled into
sheets TTS takes: at most 10 x 7 cells and 4096 px a side, RGB with no alpha, 69 cards a sheet
(a sheet's last cell is left empty: TTS may show it for a hidden card), a larger deck over several sheets.
Everything is a function of the rules, the language and the addresses: the same inputs give
the same bytes.

May import: the language, the engine and printing's own modules.
"""
from __future__ import annotations

import hashlib
import io
import json
import math
from dataclasses import dataclass, field
from typing import Optional

from ..engine import compiled
from ..language import syntax as S
from .cards import PRESETS, TOKEN, Card, Preset, cards, tokens
from .pod import by_deck, card_pages, game_title
from .prose import Voice, plain, say

PPI = 150                   # a 63 x 88 mm card is 372 x 520 px: ten across and seven down stay under 4096
MAX_ACROSS, MAX_DOWN, MAX_PX = 10, 7, 4096
PER_SHEET = MAX_ACROSS * MAX_DOWN - 1
STANDARD_DICE = (4, 6, 8, 10, 12, 20)   # the dice TTS has as Die_N, faces 1 to N
BOARD_CELL = 25.0           # a board space, mm
TTS_FACE = Preset(PRESETS["home"].card, 0.0, PRESETS["home"].safe)


@dataclass
class Export:
    save: dict
    images: list = field(default_factory=list)      # (file name, PNG bytes)
    notes: list = field(default_factory=list)       # what could not be made, in the user's words


def grid(n: int) -> tuple[int, int]:
    """Cells across and down for a sheet of n cards: near square, at least 2 x 2 (TTS's least),
    with a cell to spare, since TTS may show a sheet's last cell as the hidden card."""
    cells = n + 1
    across = max(2, min(MAX_ACROSS, math.ceil(math.sqrt(cells))))
    down = max(2, math.ceil(cells / across))
    if down > MAX_DOWN:
        across, down = MAX_ACROSS, math.ceil(cells / MAX_ACROSS)
    return across, down


def _png(image) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=False)
    return out.getvalue()


def _rendered(source: str) -> list:
    """Each page of a Typst source as a Pillow image."""
    import typst
    from PIL import Image
    from .book import font_dir
    pages = typst.compile(source.encode("utf-8"), font_paths=[font_dir()], ignore_system_fonts=True,
                          format="png", ppi=PPI)
    return [Image.open(io.BytesIO(p)) for p in (pages if isinstance(pages, list) else [pages])]


def _rgb(image):
    """On white: TTS shows a sheet's transparent pixels as holes."""
    from PIL import Image
    flat = Image.new("RGB", image.size, "white")
    flat.paste(image, mask=image.getchannel("A") if image.mode == "RGBA" else None)
    return flat


def _sheet(faces: list):
    from PIL import Image
    across, down = grid(len(faces))
    w, h = faces[0].size
    sheet = Image.new("RGB", (across * w, down * h), "white")
    for i, face in enumerate(faces):
        sheet.paste(_rgb(face), ((i % across) * w, (i // across) * h))
    return sheet, across, down


def _guid(*parts) -> str:
    """A GUID TTS accepts (six hex digits), the same for the same object every time."""
    return hashlib.sha256("\0".join(map(str, parts)).encode("utf-8")).hexdigest()[:6]


def _unique_guids(objects: list, taken: set) -> None:
    """TTS keys objects by GUID: a hash that collides with an earlier one is hashed again, in save order."""
    for obj in objects:
        while obj["GUID"] in taken:
            obj["GUID"] = _guid(obj["GUID"], "again")
        taken.add(obj["GUID"])
        _unique_guids(obj.get("ContainedObjects", []), taken)


def _transform(x: float, z: float, y: float = 1.0, flipped: bool = False, scale: float = 1.0) -> dict:
    return {"posX": round(float(x), 3), "posY": float(y), "posZ": round(float(z), 3), "rotX": 0.0, "rotY": 180.0,
            "rotZ": 180.0 if flipped else 0.0, "scaleX": scale, "scaleY": 1.0, "scaleZ": scale}


def _object(name: str, nickname: str, transform: dict, guid: str, description: str = "", **more) -> dict:
    return {"Name": name, "Transform": transform, "Nickname": nickname, "Description": description,
            "GMNotes": "", "ColorDiffuse": {"r": 1.0, "g": 1.0, "b": 1.0}, "Locked": False, "Grid": True,
            "Snap": True, "Autoraise": True, "Sticky": True, "Tooltip": True, "GUID": guid,
            "LuaScript": "", "LuaScriptState": "", "XmlUI": "", **more}


def card_name(c: Card) -> str:
    """A card's name: its own if the rule file names it, else its main value and its suit."""
    if c.name:
        return c.name
    parts = [c.big] + ([c.suit.text] if c.suit else [])
    return " ".join(p for p in parts if p) or c.deck


def _description(c: Card) -> str:
    return "\n".join(f"{k}: {v}" for k, v in c.attrs)


def _decks(rules, lang, players, url, name, out: Export, x0: float) -> None:
    deck, _ = cards(rules, lang, players)
    key = 0
    for d, (kind, group) in enumerate(by_deck(deck).items()):
        faces = [("front", c) for c in group] + [("back", group[0])]
        *fronts, back = _rendered(card_pages(rules, lang, faces, TTS_FACE))
        back_file = f"{name}-{kind}-back.png"
        out.images.append((back_file, _png(_rgb(back))))
        custom, contained, ids = {}, [], []
        for s, first in enumerate(range(0, len(group), PER_SHEET)):
            key += 1
            sheet, across, down = _sheet(fronts[first:first + PER_SHEET])
            face_file = f"{name}-{kind}-{s + 1}.png"
            out.images.append((face_file, _png(sheet)))
            entry = {"FaceURL": url(face_file), "BackURL": url(back_file), "NumWidth": across,
                     "NumHeight": down, "BackIsHidden": True, "UniqueBack": False, "Type": 0}
            custom[str(key)] = entry
            for i, c in enumerate(group[first:first + PER_SHEET]):
                card_id = key * 100 + i
                ids.append(card_id)
                contained.append(_object("Card", card_name(c), _transform(x0 + 3 * d, 0, flipped=True),
                                         _guid(name, kind, card_id), _description(c), CardID=card_id,
                                         SidewaysCard=False, CustomDeck={str(key): entry}))
        title = group[0].deck
        out.save["ObjectStates"].append(_object(
            "DeckCustom", title, _transform(x0 + 3 * d, 0, flipped=True), _guid(name, kind), "",
            SidewaysCard=False, DeckIDs=ids, CustomDeck=custom, ContainedObjects=contained))


def _bag(nickname: str, guid: str, x: float, z: float, contained: list) -> dict:
    return _object("Bag", nickname, _transform(x, z), guid, "", ContainedObjects=contained)


def _owned(title: str, owner: str, lang: str) -> str:
    return f"{title}({owner})" if owner and lang == "ja" else f"{title} ({owner})" if owner else title


def _pieces(rules, lang, n, url, name, out: Export, z: float) -> None:
    """The tokens, dice and boards, each kind and owner of token or die in its own bag."""
    from .book import PAPERS, _env
    v = Voice(rules, lang)
    g = compiled(rules, n)
    groups: dict = {}
    for t in tokens(rules, lang, n):
        groups.setdefault((t.kind, t.owner), []).append(t)
    boards = [dict(kind=b.name, title=v.title(b.name), width=g.board_sizes[b.name][0],
                   height=g.board_sizes[b.name][1], cell=BOARD_CELL) for b in rules.of(S.Board)]
    pages = [("token", ts[0]) for ts in groups.values()] + [("board", b) for b in boards]
    if pages:
        source = _env("typ").get_template("tts-pieces.typ.j2").render(
            game=game_title(rules, lang), lang=lang, page=PAPERS["a4"], stamp="", pages=pages,
            card=PRESETS["home"].card, bleed=0, safe=PRESETS["home"].safe, token=TOKEN)
        images = _rendered(source)
    x = 0.0
    seen: dict = {}
    for i, ((kind, owner), ts) in enumerate(groups.items()):
        # a token is its own shape: the disc is cut from the image's transparent corners
        seen[kind] = seen.get(kind, 0) + 1
        file = f"{name}-{kind}-{seen[kind]}.png" if owner else f"{name}-{kind}.png"
        out.images.append((file, _png(images[i].convert("RGBA"))))
        image = {"ImageURL": url(file), "ImageSecondaryURL": "", "ImageScalar": 1.0, "WidthScale": 0.0,
                 "CustomToken": {"Thickness": 0.2, "MergeDistancePixels": 15.0, "StandUp": False, "Stackable": True}}
        title = _owned(ts[0].title, owner, lang)
        contained = [_object("Custom_Token", ts[0].title, _transform(0, 0, scale=0.4), _guid(name, kind, owner, j),
                             owner, CustomImage=image) for j in range(len(ts))]
        out.save["ObjectStates"].append(_bag(title, _guid(name, kind, owner), x, z, contained))
        x += 3
    dice: dict = {}
    for p, kind in enumerate(g.kind_of):
        if g.piece_faces[p] is not None:
            dice.setdefault((kind, g.piece_owner[p]), []).append(p)
    for (kind, owner), ps in dice.items():
        faces = tuple(g.piece_faces[ps[0]])
        title = v.title(kind)
        if len(faces) not in STANDARD_DICE:
            out.notes.append(say(lang, f"「{title}」は{len(faces)}面で、TTSにその面数のダイスはない: 入れていない",
                                 f"'{title}' has {len(faces)} faces and TTS has no such die: left out"))
            continue
        numbered = faces == tuple(range(1, len(faces) + 1))
        # a die whose faces are not 1..N rolls as a standard die, its description saying what each number means
        meaning = "" if numbered else "\n".join(f"{k}: {plain(v.name(str(f)))}" for k, f in enumerate(faces, 1))
        who = say(lang, f"プレイヤー{int(owner) + 1}", f"player {int(owner) + 1}") if owner is not None else ""
        contained = [_object(f"Die_{len(faces)}", title, _transform(0, 0), _guid(name, kind, owner, j), meaning)
                     for j in range(len(ps))]
        out.save["ObjectStates"].append(_bag(_owned(title, who, lang), _guid(name, kind, owner), x, z, contained))
        x += 3
    for i, b in enumerate(boards):
        file = f"{name}-{b['kind']}.png"
        out.images.append((file, _png(_rgb(images[len(groups) + i]))))
        image = {"ImageURL": url(file), "ImageSecondaryURL": "", "ImageScalar": 1.0, "WidthScale": 0.0}
        out.save["ObjectStates"].append(_object("Custom_Board", b["title"], _transform(0, 12 + 14 * i, scale=1.0),
                                                _guid(name, b["kind"]), "", CustomImage=image))


def export(rules: S.RuleFile, lang: str, url, players: Optional[int] = None) -> Export:
    """The saved object and its images; `url(file name)` is the address TTS loads an image from."""
    n = players or rules.game.max_players
    title = game_title(rules, lang)
    name = f"{rules.game.name}-{lang}"
    out = Export({"SaveName": title, "GameMode": title, "Date": "", "VersionNumber": "", "Gravity": 0.5,
                  "PlayArea": 0.5, "Table": "", "Sky": "", "Note": "", "Rules": "", "XmlUI": "",
                  "LuaScript": "", "LuaScriptState": "", "TabStates": {}, "ObjectStates": []})
    if any(c.kind == "deck" for c in rules.of(S.Component)):
        _decks(rules, lang, n, url, name, out, 0.0)
    _pieces(rules, lang, n, url, name, out, -6.0)
    _unique_guids(out.save["ObjectStates"], set())
    return out


def save_text(save: dict) -> str:
    return json.dumps(save, ensure_ascii=False, indent=2) + "\n"
