"""`ask NAME is scale | yes or no | text`: a question of the designer's own for the questionnaire
each person may answer after the game, beside the common playtest questions.

Play never reads it. The table shows it, in the table's language, after the common questions
(dsl/table/notes.py), the replay keeps the answers under the question's name, and `table-stats`
sums them up per version of the rules: a scale's mean with an interval, the yes and no counts,
the written answers listed.

May import: the syntax base classes and the leaf helpers of the language, engine and printing.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..language import syntax as S
from ..language.building import span
from ..language.syntax import Decl
from ..printing.runs import Runs, say
from .registry import register

# The written answers of one questionnaire travel in one message from the page: more questions
# leave each answer fewer characters (notes.answer_cap), and a long questionnaire gets skipped.
MAX_ASKED = 6
KINDS = ("scale", "yes_no", "text")


@dataclass(frozen=True)
class Ask(Decl):
    keyword = "ask"
    kind: str = "scale"         # one of KINDS: 1 to 5, yes or no, a few words


# ---------------------------------------------------------------- grammar
def _ask(meta, c):
    return Ask(str(c[0]), c[2], span(meta), c[1])


def _ask_kind(meta, c):
    return "yes_no" if len(c) > 1 else str(c[0])


GRAMMAR = {"ask": _ask, "ask_kind": _ask_kind}


# ---------------------------------------------------------------- checks
def check(ck, d):
    ck.used.add(d.name)
    asked = ck.of(Ask)
    if d in asked[MAX_ASKED:]:
        ck.error(d.span, f"the questionnaire takes at most {MAX_ASKED} questions of the designer's; "
                         f"this is question {asked.index(d) + 1}",
                 "keep the questions that tell you most: people skip a long questionnaire")
    ja, en = S.text_of(d.texts, "title", "ja"), S.text_of(d.texts, "title", "en")
    if not (ja or "").strip() and not (en or "").strip():
        ck.error(d.span, f"ask '{d.name}' has no question to show: its title is what people read",
                 f'indent a line under it: title ja "…" en "…"')
    elif not (ja or "").strip() or not (en or "").strip():
        missing = "Japanese" if not (ja or "").strip() else "English"
        ck.warning(d.span, f"ask '{d.name}' has no {missing} title: a table in {missing} shows the other one",
                   f"add {'ja' if missing == 'Japanese' else 'en'} \"…\" to its title line")


# ---------------------------------------------------------------- reading
_ANSWERS = {"scale": ("1〜5で答える", "answered from 1 to 5"), "yes_no": ("はい・いいえで答える", "answered yes or no"),
            "text": ("言葉で答える", "answered in words")}


def question_text(d: Ask, lang: str) -> str:
    """What the table shows: the title in `lang`, else the other language's, else the name."""
    other = "en" if lang == "ja" else "ja"
    return (S.text_of(d.texts, "title", lang) or S.text_of(d.texts, "title", other) or d.name).strip()


def read(v, d, counts=()) -> Runs:
    ja, en = _ANSWERS[d.kind]
    return [("", say(v.lang, f"ゲーム後の質問「{question_text(d, 'ja')}」({ja})",
                     f"asked after the game: “{question_text(d, 'en')}” ({en})"))]


register(Ask, "declaration", grammar=GRAMMAR, check=check, read=read)
