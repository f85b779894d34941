"""lsp: the language server for editors (diagnostics, hover, completion, navigation), over stdio."""
from __future__ import annotations

from .common import main


@main.command(help="""Run the language server for rule files on standard input and output.

\b
Editors start it themselves; see docs/editors.md (VS Code, Neovim, Emacs, Helix, Zed).""")
def lsp():
    from ..lsp.server import main as serve     # pygls loads only for this command
    serve()
