"""`playtest tts`: a Tabletop Simulator saved object in the documented save format, its decks
holding every card the rules make, on face sheets TTS takes, every piece named as the rulebook
names it, the same bytes every time."""
from __future__ import annotations

import json
import os
from collections import Counter
from urllib.parse import unquote, urlparse

import pytest
from click.testing import CliRunner
from PIL import Image

from dsl.cli import main
from dsl.engine import compiled
from dsl.language import syntax as S
from dsl.loader import load

from _util import DEMOCRACY, GAMES

SEEDS = sorted(p.stem for p in GAMES.glob("*.rules"))


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


# ---------------------------------------------------------------- the documented save format
# The fields TTS's knowledge base documents for a save (kb.tabletopsimulator.com, "Save File
# Format"), each with its type: what a file must have for TTS to load its objects.
SAVE = {"SaveName": str, "ObjectStates": list}
OBJECT = {"Name": str, "Transform": dict, "Nickname": str, "GUID": str}
TRANSFORM = ("posX", "posY", "posZ", "rotX", "rotY", "rotZ", "scaleX", "scaleY", "scaleZ")
DECK = {"DeckIDs": list, "CustomDeck": dict, "ContainedObjects": list}
CUSTOM_DECK = {"FaceURL": str, "BackURL": str, "NumWidth": int, "NumHeight": int, "BackIsHidden": bool,
               "UniqueBack": bool, "Type": int}
CARD = {"CardID": int}
IMAGE = {"ImageURL": str}
CUSTOM_TOKEN = {"Thickness": float, "MergeDistancePixels": float, "StandUp": bool, "Stackable": bool}
NAMES = {"DeckCustom", "Card", "Bag", "Custom_Token", "Custom_Board", "Custom_Dice",
         "Die_4", "Die_6", "Die_8", "Die_10", "Die_12", "Die_20", "BlockSquare", "Chip_10"}


def _keys(what: str, d: dict, fields: dict):
    for k, t in fields.items():
        assert k in d, f"{what} has no {k}"
        assert isinstance(d[k], t) and not (t is int and isinstance(d[k], bool)), f"{what}.{k} is {d[k]!r}"


def validate(obj: dict, where: str = "object") -> None:
    """Raise AssertionError where `obj` (an object state) leaves the documented format."""
    _keys(where, obj, OBJECT)
    assert obj["Name"] in NAMES, f"{where}: unknown object {obj['Name']}"
    assert len(obj["GUID"]) == 6 and all(c in "0123456789abcdef" for c in obj["GUID"])
    for k in TRANSFORM:
        assert isinstance(obj["Transform"].get(k), float), f"{where}.Transform.{k}"
    if obj["Name"] == "DeckCustom":
        _keys(where, obj, DECK)
        for key, deck in obj["CustomDeck"].items():
            assert key.isdigit() and int(key) >= 1
            _keys(f"{where}.CustomDeck[{key}]", deck, CUSTOM_DECK)
            assert 2 <= deck["NumWidth"] <= 10 and 2 <= deck["NumHeight"] <= 7
        assert [c["CardID"] for c in obj["ContainedObjects"]] == obj["DeckIDs"]
        for card in obj["ContainedObjects"]:
            assert card["Name"] == "Card"
            _keys(f"{where}.Card", card, CARD)
            key, index = divmod(card["CardID"], 100)
            sheet = obj["CustomDeck"][str(key)]
            assert index < sheet["NumWidth"] * sheet["NumHeight"] - 1        # the last cell is TTS's hidden card
            assert card["CustomDeck"] == {str(key): sheet}
    if obj["Name"] in ("Custom_Token", "Custom_Board", "Custom_Dice"):
        _keys(f"{where}.CustomImage", obj["CustomImage"], IMAGE)
    if obj["Name"] == "Custom_Token":
        _keys(f"{where}.CustomImage.CustomToken", obj["CustomImage"].get("CustomToken", {}), CUSTOM_TOKEN)
    if obj["Name"] == "Bag":
        assert isinstance(obj.get("ContainedObjects"), list) and obj["ContainedObjects"], f"{where}: an empty bag"
    for i, inner in enumerate(obj.get("ContainedObjects", [])):
        validate(inner, f"{where}.ContainedObjects[{i}]")


def validate_save(save: dict) -> None:
    _keys("save", save, SAVE)
    for i, obj in enumerate(save["ObjectStates"]):
        validate(obj, f"ObjectStates[{i}]")
    guids = []

    def walk(objs):
        for o in objs:
            guids.append(o["GUID"])
            walk(o.get("ContainedObjects", []))
    walk(save["ObjectStates"])
    assert len(set(guids)) == len(guids), "two objects share a GUID"


def export(tmp_path, game: str, *more):
    out = tmp_path / "tts"
    r = run("tts", GAMES / f"{game}.rules", "-o", out, *more)
    assert r.exit_code == 0, r.output
    lang = more[more.index("--lang") + 1] if "--lang" in more else "en"
    name = load(str(GAMES / f"{game}.rules"))[0].game.name
    return json.loads((out / f"{name}-{lang}.json").read_text(encoding="utf-8")), out


def local(url: str) -> str:
    assert url.startswith("file:///"), url
    return unquote(urlparse(url).path)


def objects(save: dict, name: str) -> list:
    found = []
    for obj in save["ObjectStates"]:
        found += [obj] if obj["Name"] == name else []
        found += [o for o in obj.get("ContainedObjects", []) if o["Name"] == name and obj["Name"] == "Bag"]
    return found


def test_the_validator_refuses_what_the_format_does_not_allow():
    good = {"Name": "Die_6", "Transform": {k: 0.0 for k in TRANSFORM}, "Nickname": "die", "GUID": "a1b2c3"}
    validate(good)
    for bad in ({**good, "Name": "Dice"}, {**good, "GUID": "x"}, {k: v for k, v in good.items() if k != "Nickname"},
                {**good, "Transform": {"posX": 0.0}}):
        with pytest.raises(AssertionError):
            validate(bad)
    with pytest.raises(AssertionError):
        validate_save({"ObjectStates": [good]})


# ---------------------------------------------------------------- democracy, as the brief's example

def test_democracy_exports_one_deck_of_every_card_on_sheets_tts_takes(tmp_path):
    save, out = export(tmp_path, "democracy", "--lang", "ja")
    validate_save(save)
    rules, _ = load(str(DEMOCRACY))
    g = compiled(rules, rules.game.max_players)
    decks = objects(save, "DeckCustom")
    assert len(decks) == 1 and decks[0]["Nickname"] == "カード" and save["SaveName"] == "デモクラシー"
    assert len(decks[0]["DeckIDs"]) == Counter(g.kind_of)["card"] == 49
    names = [c["Nickname"] for c in decks[0]["ContainedObjects"]]
    assert names[0] == "5 スペード" and names.count("ジョーカー") == 1
    for sheet in decks[0]["CustomDeck"].values():
        face = Image.open(local(sheet["FaceURL"]))
        back = Image.open(local(sheet["BackURL"]))
        assert face.format == back.format == "PNG" and face.mode == back.mode == "RGB"
        assert max(face.size) <= 4096
        w, h = face.width / sheet["NumWidth"], face.height / sheet["NumHeight"]
        assert w == int(w) and h == int(h) and (w, h) == back.size
        assert (sheet["NumWidth"], sheet["NumHeight"]) == (8, 7)
        # the first cell is the 5 of spades' face (white), the back its deck's colour
        assert face.getpixel((int(w) // 2, 5)) == (255, 255, 255)
        assert back.getpixel((back.width // 2, 5)) != (255, 255, 255)


def test_the_same_rules_give_the_same_bytes_and_a_base_url_names_the_hosted_images(tmp_path):
    first, out = export(tmp_path, "democracy", "--base-url", "https://example.org/democracy/")
    before = {f: (out / f).read_bytes() for f in sorted(os.listdir(out))}
    again, _ = export(tmp_path, "democracy", "--base-url", "https://example.org/democracy")
    assert {f: (out / f).read_bytes() for f in sorted(os.listdir(out))} == before
    sheet = next(iter(objects(first, "DeckCustom")[0]["CustomDeck"].values()))
    assert sheet["FaceURL"] == "https://example.org/democracy/democracy-en-card-1.png"
    assert sorted(before) == ["democracy-en-card-1.png", "democracy-en-card-back.png", "democracy-en.json"]


def test_a_deck_of_more_than_69_cards_is_split_over_sheets(tmp_path):
    save, out = export(tmp_path, "populus", "--players", 5)
    validate_save(save)
    rules, _ = load(str(GAMES / "populus.rules"))
    counts = Counter(compiled(rules, 5).kind_of)
    space = next(d for d in objects(save, "DeckCustom") if d["Nickname"] == "space")
    assert counts["space"] == 105 and len(space["DeckIDs"]) == 105
    assert sorted(space["CustomDeck"]) == ["2", "3"]            # the tile deck, declared first, is 1
    per_key = Counter(i // 100 for i in space["DeckIDs"])
    assert per_key == {2: 69, 3: 36}
    big = Image.open(local(space["CustomDeck"]["2"]["FaceURL"]))
    assert (space["CustomDeck"]["2"]["NumWidth"], space["CustomDeck"]["2"]["NumHeight"]) == (10, 7)
    assert big.size[0] <= 4096 and big.size[1] <= 4096


# ---------------------------------------------------------------- every seed game

@pytest.mark.parametrize("game", SEEDS)
def test_every_seed_game_exports_its_decks_dice_tokens_and_boards(tmp_path, game):
    save, out = export(tmp_path, game)
    validate_save(save)
    rules, _ = load(str(GAMES / f"{game}.rules"))
    g = compiled(rules, rules.game.max_players)
    counts = Counter(g.kind_of)
    kinds = {c.name: c.kind for c in rules.of(S.Component)}
    decks = objects(save, "DeckCustom")
    assert sorted(len(d["DeckIDs"]) for d in decks) == sorted(counts[k] for k, kind in kinds.items() if kind == "deck")
    dice = [o for o in objects(save, "Die_6")]
    assert len(dice) == sum(counts[k] for k, kind in kinds.items() if kind == "dice")
    assert len(objects(save, "Custom_Token")) == sum(counts[k] for k, kind in kinds.items() if kind == "token")
    assert len(objects(save, "Custom_Board")) == len(rules.of(S.Board))
    for obj in save["ObjectStates"]:
        boards = [obj["CustomImage"]["ImageURL"]] if obj["Name"] == "Custom_Board" else []
        for url in [s["FaceURL"] for s in obj.get("CustomDeck", {}).values()] + boards:
            image = Image.open(local(url))
            assert image.mode == "RGB" and max(image.size) <= 4096
        assert obj["Nickname"]


@pytest.mark.parametrize("game", SEEDS)
def test_every_die_has_its_faces_and_every_token_its_image_each_named_by_its_title(tmp_path, game):
    save, out = export(tmp_path, game)
    rules, _ = load(str(GAMES / f"{game}.rules"))
    titles = {c.kind: {} for c in rules.of(S.Component)}
    for c in rules.of(S.Component):
        titles[c.kind][S.text_of(c.texts, "title", "en") or c.name] = c
    bags = [o for o in save["ObjectStates"] if o["Name"] == "Bag"]
    for die in (d for b in bags for d in b["ContainedObjects"] if d["Name"].startswith("Die_")):
        c = titles["dice"][die["Nickname"]]
        assert die["Name"] == f"Die_{len(c.faces)}"
    for token in (t for b in bags for t in b["ContainedObjects"] if t["Name"] == "Custom_Token"):
        assert token["Nickname"] in titles["token"]
        image = Image.open(local(token["CustomImage"]["ImageURL"]))
        # TTS cuts a token's shape from its image's transparency: a round token's corners are clear
        assert image.format == "PNG" and image.mode == "RGBA" and max(image.size) <= 4096
        assert image.getpixel((0, 0))[3] == 0 and image.getpixel((image.width // 2, image.height // 2))[3] == 255


def test_pieces_are_named_as_the_rulebook_names_them_in_either_language(tmp_path):
    ja, _ = export(tmp_path, "bluff", "--lang", "ja")
    bags = [o for o in ja["ObjectStates"] if o["Name"] == "Bag"]
    assert [b["Nickname"] for b in bags] == [f"さいころ(プレイヤー{i})" for i in range(1, 7)]
    assert {d["Nickname"] for b in bags for d in b["ContainedObjects"]} == {"さいころ"}
    en, _ = export(tmp_path, "tictactoe", "--lang", "en")
    assert [o["Nickname"] for o in en["ObjectStates"]] == ["mark (player 1)", "mark (player 2)", "grid"]


def test_a_bad_option_is_refused_before_anything_is_written(tmp_path):
    r = run("tts", DEMOCRACY, "-o", tmp_path / "out", "--base-url", " ")
    assert r.exit_code == 2 and "--base-url is empty" in r.output
    assert not os.listdir(tmp_path / "out")            # the folder was proved writable, and nothing written
    (tmp_path / "file").write_text("x")
    r = run("tts", DEMOCRACY, "-o", tmp_path / "file")
    assert r.exit_code == 2 and "error: -o" in r.output and "Traceback" not in r.output
    r = run("tts", DEMOCRACY, "-o", tmp_path / "out", "--players", 9)
    assert r.exit_code == 2 and "2 to 6 players" in r.output


ODD_DICE = '''game d
  players 2 to 2

dice elem
  title ja "属性ダイス" en "element die"
  faces fire, water, wood, fire, water, wood
  count 2
  in box

dice coin
  title ja "コイン" en "coin"
  faces 1, 2
  count 1
  in box

zone box is supply, shared, seen by everyone
  title ja "箱" en "box"

symbol fire
  title ja "火" en "fire"

play
  end game
'''


def test_a_die_not_numbered_says_what_its_numbers_stand_for_and_one_tts_lacks_is_left_out_saying_so(tmp_path):
    path = tmp_path / "d.rules"
    path.write_text(ODD_DICE, encoding="utf-8")
    r = run("tts", path, "-o", tmp_path / "out", "--lang", "ja")
    assert r.exit_code == 0, r.output
    assert "note: 「コイン」は2面で" in r.output
    save = json.loads((tmp_path / "out" / "d-ja.json").read_text(encoding="utf-8"))
    validate_save(save)
    [bag] = save["ObjectStates"]
    assert bag["Nickname"] == "属性ダイス" and [d["Name"] for d in bag["ContainedObjects"]] == ["Die_6"] * 2
    assert bag["ContainedObjects"][0]["Description"].splitlines()[:2] == ["1: 火", "2: water"]
