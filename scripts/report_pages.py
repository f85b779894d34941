"""The balance report of every seed game in English and Japanese, as a designer sees it: each
page written with the command lines of `make reports`, opened in headless Chromium and
photographed whole (to look at) and at its top (docs/report/GAME-LANG.png, the README's picture).

    python scripts/report_pages.py                 every game, en and ja
    python scripts/report_pages.py bluff populus   only these
    python scripts/report_pages.py --out DIR       where the pages and whole-page pictures go

Needs Playwright and a Chromium (PLAYTEST_CHROMIUM names its executable; default
/usr/bin/chromium where it exists, else Playwright's own).
"""
from __future__ import annotations

import argparse
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "scripts"))

from click.testing import CliRunner  # noqa: E402

from dsl.cli import main  # noqa: E402
from reports import JOBS  # noqa: E402

DOCS = os.path.join(ROOT, "docs", "report")
VIEW = {"width": 1200, "height": 900}


def chromium_path():
    path = os.environ.get("PLAYTEST_CHROMIUM") or "/usr/bin/chromium"
    return path if os.path.exists(path) else None


def write_pages(names, out: str) -> list:
    """(name, lang, page path) of each report written."""
    done = []
    for name, _, args in JOBS:
        if args[0] != "report" or (names and name not in names):
            continue
        for lang in ("en", "ja"):
            base = os.path.join(out, f"{name}-{lang}")
            r = CliRunner().invoke(main, [*args, "--seed", "1", "--lang", lang, "-o", base])
            if r.exit_code != 0:
                raise SystemExit(f"playtest {' '.join(args)} --lang {lang}: {r.output}")
            done.append((name, lang, base + ".html"))
            print(f"wrote {base}.html", flush=True)
    return done


def fonts_conf(folder: str) -> str:
    """A fontconfig file that adds the Noto Sans JP the PDFs use to the system's fonts, so that a
    machine without a Japanese font shows the ja pages as a designer's browser does, not as boxes."""
    from dsl.printing.book import font_dir
    path = os.path.join(folder, "fonts.conf")
    with open(path, "w") as f:
        f.write('<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n'
                '  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>\n'
                f'  <dir>{font_dir()}</dir>\n  <cachedir>{os.path.join(folder, "fontconfig")}</cachedir>\n'
                '</fontconfig>\n')
    return path


def photograph(pages: list, out: str):
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(),
                                    env={**os.environ, "FONTCONFIG_FILE": fonts_conf(out)})
        try:
            for name, lang, path in pages:
                page = browser.new_page(viewport=VIEW)
                page.goto("file://" + os.path.abspath(path))
                page.screenshot(path=os.path.join(DOCS, f"{name}-{lang}.png"))
                page.screenshot(path=os.path.join(out, f"{name}-{lang}-whole.png"), full_page=True)
                page.close()
                print(f"photographed {name}-{lang}", flush=True)
        finally:
            browser.close()


def main_():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("games", nargs="*", help="names of the report jobs (default: every one)")
    ap.add_argument("--out", default="out/report-pages", help="folder for the pages and whole-page pictures")
    ap.add_argument("--written", action="store_true", help="photograph the pages already in --out")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    if args.written:
        pages = [(name, lang, os.path.join(args.out, f"{name}-{lang}.html")) for name, _, job in JOBS
                 if job[0] == "report" and (not args.games or name in args.games) for lang in ("en", "ja")]
    else:
        pages = write_pages(set(args.games), args.out)
    photograph(pages, args.out)


if __name__ == "__main__":
    main_()
