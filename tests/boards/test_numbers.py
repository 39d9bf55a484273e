"""Numbers for the browser are never localised: every board of every game, in several
positions, for every seat and a spectator, rendered in Spanish, keeps its SVG coordinates,
CSS and data attributes plain (and the same as in English).

The bug this guards against: Powerhouse wrote `y="19,5"` in Spanish, so the colour mark of
every pyramid (the colour-blind aid) was drawn outside its cell."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.utils import translation

from games.engine import get_rules
from tests.boards.positions import GAMES, bot_choice, playout, render_board

NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
PLAIN = re.compile(rf"^{NUMBER}$")
LENGTH = re.compile(rf"^{NUMBER}(?:px|%|em|rem)?$")
# One number per attribute.
SCALARS = {"x", "y", "x1", "x2", "y1", "y2", "cx", "cy", "r", "rx", "ry", "width", "height",
           "stroke-width", "fill-opacity", "stroke-opacity", "opacity", "font-size", "dx", "dy",
           "offset", "tabindex"}
# Lists of numbers, separated by spaces (and commas, in points).
LISTS = {"viewbox", "points", "stroke-dasharray"}
PATH = re.compile(rf"^(?:[MmLlHhVvCcSsQqTtAaZz]|{NUMBER}|[\s,])*$")
TRANSFORM = re.compile(rf"^(?:\s*(?:matrix|translate|scale|rotate|skewX|skewY)\(\s*{NUMBER}"
                       rf"(?:(?:\s*,\s*|\s+){NUMBER})*\s*\))*\s*$")
# A decimal comma between digits: what localisation writes for 19.5.
DECIMAL_COMMA = re.compile(r"\d,\d")


class Attributes(HTMLParser):
    """Every (tag, attribute, value) of a document, and the text of its <style> elements."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[str, str, str]] = []
        self.styles: list[str] = []
        self._in_style = False

    def handle_starttag(self, tag, attrs):
        self._in_style = tag == "style"
        for name, value in attrs:
            self.found.append((tag, name.lower(), value or ""))

    handle_startendtag = handle_starttag

    def handle_endtag(self, tag):
        if tag == "style":
            self._in_style = False

    def handle_data(self, data):
        if self._in_style:
            self.styles.append(data)


def numeric_attributes(html: str) -> tuple[list[tuple[str, str, str]], list[str]]:
    """The attributes whose values are numbers for the browser, and the CSS text."""
    parser = Attributes()
    parser.feed(html)
    wanted = [(tag, name, value) for tag, name, value in parser.found
              if name in SCALARS or name in LISTS or name in ("d", "transform", "style")
              or name.startswith("data-")]
    return wanted, parser.styles


def problems(html: str) -> list[str]:
    """Every numeric attribute that does not parse as plain numbers."""
    found, styles = numeric_attributes(html)
    bad = []
    for tag, name, value in found:
        ok = True
        if name in SCALARS:
            ok = bool(LENGTH.match(value.strip()))
        elif name == "viewbox":
            parts = value.split()
            ok = len(parts) == 4 and all(PLAIN.match(p) for p in parts)
        elif name in ("points", "stroke-dasharray"):
            ok = all(PLAIN.match(p) for p in re.split(r"[\s,]+", value.strip()) if p)
        elif name == "d":
            ok = bool(PATH.match(value))
        elif name == "transform":
            ok = bool(TRANSFORM.match(value))
        elif name == "style":
            ok = not DECIMAL_COMMA.search(value) and _css_numbers_plain(value)
        elif name.startswith("data-"):
            # data attributes hold ids, keys and numbers: none may carry a decimal comma
            # or a thousands separator; a purely numeric one must parse.
            ok = not DECIMAL_COMMA.search(value) and not re.search(r"\d\.\d{3}\b", value)
            if re.fullmatch(r"[\d\s.,]+", value):
                ok = ok and all(PLAIN.match(p) for p in value.split())
        if not ok:
            bad.append(f"<{tag} {name}={value!r}>")
    for css in styles:
        if DECIMAL_COMMA.search(re.sub(r"[^{};]*\{", "{", css)) or not _css_numbers_plain(css):
            bad.append(f"<style> {css[:80]!r}")
    return bad


def _css_numbers_plain(css: str) -> bool:
    """Every number in CSS declarations parses (no "1,5rem", no "1.234px")."""
    for decl in re.split(r"[;{}]", css):
        if ":" not in decl:
            continue
        value = decl.split(":", 1)[1]
        if re.search(r"\d,\d", re.sub(r"\([^)]*\)", "", value)):
            return False
        for token in re.findall(rf"{NUMBER}[a-z%]*", value):
            number = re.match(NUMBER, token).group(0)
            float(number)
    return True


def positions(game: str) -> list[tuple[str, dict]]:
    """Early, middle and finished positions of a few seeded games of `game`."""
    out = []
    for players, seed in ((2, 3), (3, 5), (4, 11)):
        out += playout(game, players=players, seed=seed, steps=(0, 7, 25, 60))
        out += playout(game, players=players, seed=seed + 100, steps=(40, 120),
                       choose=bot_choice(game))[-1:]
    return out


@pytest.mark.parametrize("game", GAMES)
def test_every_board_keeps_its_numbers_plain_in_spanish(game):
    rules = get_rules(game)
    seen_over = False
    checked = 0
    for label, state in positions(game):
        players = _players(rules, state)
        seen_over |= not rules.to_move(state)
        for viewer in [*range(players), None]:
            with translation.override("es"):
                es = render_board(game, state, viewer)
            with translation.override("en"):
                en = render_board(game, state, viewer)
            bad = problems(es)
            assert not bad, f"{label}, viewer {viewer}: localised numbers {bad[:5]}"
            # The same numbers in both languages: nothing for the browser is translated.
            es_nums, es_css = numeric_attributes(es)
            en_nums, en_css = numeric_attributes(en)
            assert es_nums == en_nums, (
                f"{label}, viewer {viewer}: numeric attributes differ between English and Spanish")
            assert es_css == en_css
            checked += 1
    assert seen_over, "no finished game among the positions"
    assert checked >= 40


def _players(rules, state) -> int:
    return int(rules.view(state, None).get("players") or len(rules.view(state, None)["seats"]))


def test_the_problem_finder_catches_a_localised_coordinate():
    assert problems('<svg viewBox="0 0 52 30"><use href="#m" x="26" y="19,5"/></svg>')
    assert problems('<svg viewBox="0 0 52 30,5"></svg>')
    assert problems('<div style="--w: 1,5rem"></div>')
    assert problems('<div data-x="1.234,5"></div>')
    assert problems('<g transform="rotate(-14; 6,5)"></g>')
    assert not problems('<svg viewBox="0 0 52 30"><use href="#m" x="26" y="19.5"/>'
                        '<path d="M0,-22L-7.5,0L7.5,0Z"/></svg>')


def test_spanish_powerhouse_draws_every_colour_mark_inside_its_cell():
    """Each small pyramid's colour mark lies within its cell's drawing (the viewBox)."""
    cell = re.compile(r'<svg class="ph-pyrs" viewBox="0 0 52 ([^"]+)"[^>]*>(.*?)</svg>', re.S)
    mark = re.compile(r'<use href="#ph-m-[a-z]+" x="([^"]+)" y="([^"]+)"')
    for label, state in positions("powerhouse")[:6]:
        with translation.override("es"):
            html = render_board("powerhouse", state, 0)
        marks = 0
        for height, body in cell.findall(html):
            for x, y in mark.findall(body):
                assert 0 <= float(x) <= 52 and 0 < float(y) < float(height), (label, x, y, height)
                marks += 1
        assert marks >= 3, label
