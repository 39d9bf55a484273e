"""Draw the landing page's picture of each game: its real board template, rendered for a
spectator from a seeded position after some random play, photographed with Chromium, once
per language (the board's words, "Ana is placing a tile.", are in it).

    .venv/bin/python scripts/game_pictures.py [--languages es,...]
        # writes static/img/games/<slug>.png (the site's default language, English) and
        # static/img/games/<slug>.<language>.png for each other language

Run it again when a board's look or its words change; the pictures are committed.
"""

from __future__ import annotations

import os
import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.staticfiles import finders  # noqa: E402
from django.template.loader import render_to_string  # noqa: E402
from django.utils import translation  # noqa: E402

from games.engine import Rng  # noqa: E402
from games.tables.models import Table  # noqa: E402
from games.tables.plugins import listed_games  # noqa: E402
from games.tables.selectors import TableView, Viewer  # noqa: E402
from games.tables.templatetags.showcase import picture_path  # noqa: E402

OUT = ROOT / "static" / "img" / "games"
# (players, seed, random decisions played before the picture)
POSITIONS = {"gizmos": (2, 12, 90), "powerhouse": (3, 7, 14), "flaming-pyramids": (2, 3, 18)}
NAMES = ["Ana", "Bo", "Cy", "Dee"]


def position(config, players: int, seed: int, steps: int):
    rules = config.rules
    state = rules.new_game(players=players, seed=seed)
    rng = Rng.from_seed(seed)
    for _ in range(steps):
        owing = sorted(rules.to_move(state))
        if not owing or rules.outcome(state) is not None:
            break
        seat = owing[0]
        legal = rules.legal_moves(state, seat)
        builds = [m for m in legal if m.get("type") in ("build", "pay", "use_all")]
        state = rules.apply(state, seat, rng.choice(builds) if builds else rng.choice(legal))
    return state


def board_html(config, state, players: int, language: str) -> str:
    table = Table(pk=1, game=config.game_slug, players=players, status=Table.Status.RUNNING)
    seats = [{"position": i, "name": NAMES[i], "to_move": False, "is_you": False, "taken_over": False,
              "muted": False, "resigned": False} for i in range(players)]
    view = config.rules.view(state, None)
    tv = TableView(table=table, viewer=Viewer(user=None, seat=None), view=view, seats=seats,
                   board_template=config.template, game_name=config.rules.name)
    body = render_to_string(config.template, {"tv": tv, "table": table, "based_on": 0})
    css = finders.find("css/site.css")
    html = (f'<!doctype html><html lang="{language}"><head><meta charset="utf-8"><link rel="stylesheet" '
            f'href="file://{css}"><style>.howto {{ display: none; }}</style></head><body><main><section id="board" class="board">{body}'
            "</section></main></body></html>")

    def local(match):
        path = finders.find(match.group(2))
        return f'{match.group(1)}="file://{path}"' if path else match.group(0)
    return re.sub(r'(href|src)="/static/([^"]+)"', local, html)


def main(languages: list[str]) -> None:
    from playwright.sync_api import sync_playwright

    OUT.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as pw, tempfile.TemporaryDirectory() as tmp:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium")
        page = browser.new_page(viewport={"width": 720, "height": 540}, device_scale_factor=1)
        for language in languages:
            for config in listed_games():
                players, seed, steps = POSITIONS.get(config.game_slug, (2, 1, 10))
                state = position(config, players, seed, steps)
                with translation.override(language):
                    html = board_html(config, state, players, language)
                path = Path(tmp) / f"{config.game_slug}.{language}.html"
                path.write_text(html, encoding="utf-8")
                page.goto(path.as_uri())
                page.wait_for_timeout(200)
                out = ROOT / "static" / picture_path(config.game_slug, language)
                page.screenshot(path=str(out), clip={"x": 0, "y": 0, "width": 720, "height": 540})
                print(f"{out.relative_to(ROOT)}: {out.stat().st_size // 1024} KiB")
        browser.close()


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser()
    parser.add_argument("--languages", default=",".join(code for code, _name in settings.LANGUAGES),
                        help="comma-separated language codes (default: every language the site ships)")
    main(parser.parse_args().languages.split(","))
