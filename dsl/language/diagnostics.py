"""Diagnostics: what is wrong, where, and a hint, printed like a compiler."""
from __future__ import annotations

import difflib
import functools
import re
from dataclasses import dataclass
from typing import Iterable, Optional

from .syntax import Span


@dataclass(frozen=True)
class Diagnostic:
    severity: str               # 'error' | 'warning' | 'note'
    path: str
    span: Span
    message: str
    hint: Optional[str] = None

    def format(self, source: Optional[str] = None) -> str:
        head = f"{self.path}:{self.span.line}:{self.span.column}: {self.severity}: {shown(self.message)}"
        lines = [head]
        if source is not None and self.span.line > 0:
            text_lines = _lines(source)
            if self.span.line <= len(text_lines):
                line = shown(text_lines[self.span.line - 1].expandtabs(1))
                width = 1
                if self.span.end_line == self.span.line and self.span.end_column > self.span.column:
                    width = self.span.end_column - self.span.column
                lines.append("    " + line)
                lines.append("    " + " " * (self.span.column - 1) + "^" + "~" * (width - 1))
        if self.hint:
            lines.append(f"    hint: {shown(self.hint)}")
        return "\n".join(lines)

    def to_json(self) -> dict:
        return {"severity": self.severity, "path": self.path, "line": self.span.line,
                "column": self.span.column, "message": self.message, "hint": self.hint}


@functools.lru_cache(maxsize=8)
def _lines(source: str) -> list:
    # one split per file, not one per diagnostic: a file with many mistakes stays linear
    return source.splitlines()


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def shown(text: str) -> str:
    """Text safe to print on a terminal: a control character (the start of an escape sequence
    that could rewrite the screen) is shown as \\xNN instead."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


class RuleFileError(Exception):
    """Raised when a rule file cannot be used at all; carries its diagnostics."""

    def __init__(self, diagnostics: list[Diagnostic], source: "Optional[str] | dict[str, str]" = None):
        self.diagnostics = diagnostics
        self.sources = source if isinstance(source, dict) else {}
        self.source = source if not isinstance(source, dict) else None
        super().__init__("\n".join(d.format(self.source_for(d.path)) for d in diagnostics))

    def source_for(self, path: str) -> Optional[str]:
        """The text a diagnostic points into (errors in a stack of variants span several files)."""
        return self.sources.get(path, self.source)


def did_you_mean(name: str, candidates: Iterable[str]) -> Optional[str]:
    close = difflib.get_close_matches(name, sorted(set(candidates)), n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else None
