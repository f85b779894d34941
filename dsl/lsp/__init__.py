"""`playtest lsp`: a language server for rule files (diagnostics, hover, completion, navigation).

One module a job: `chunks` (incremental parsing), `tokens` (names in the source text and
LSP positions), `walk` (declarations and references in a syntax tree), `index` (a name
index over several files), `resolve` (a document with its base game and variants, checked),
`hover`, `completion`, `actions`, `outline`, and `server` (the pygls wiring, the only
module that imports pygls). Nothing outside `dsl.cli.lsp` imports this package.
"""
