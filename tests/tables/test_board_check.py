"""`manage.py check` draws every game's board: a broken board template, template tag or
display module is reported with the file to look at, not found as a 500 on a page view."""

from __future__ import annotations

import copy
import sys
import textwrap

import pytest
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import SystemCheckError
from django.test import override_settings

from games.tables.boards import board_problems
from games.tables.plugins import game_config, installed_games

BOARD = "tests/high_card/templates/high_card/board.html"


def check_output() -> str:
    """The check command's report; SystemCheckError carries it when something is wrong."""
    with pytest.raises(SystemCheckError) as failed:
        call_command("check")
    return str(failed.value)


def templates_with(folder) -> list[dict]:
    """The project's templates with `folder` searched first (its files win)."""
    templates = copy.deepcopy(settings.TEMPLATES)
    templates[0]["DIRS"] = [str(folder), *templates[0]["DIRS"]]
    return templates


@pytest.fixture
def high_card():
    return game_config("high-card")


def test_every_installed_board_draws_and_the_check_passes():
    assert {"powerhouse", "gizmos", "flaming-pyramids", "high-card"} <= set(installed_games())
    for slug, config in installed_games().items():
        assert board_problems(config) == [], slug
    call_command("check")  # raises SystemCheckError on any error


def test_a_board_template_with_a_syntax_error_is_reported_with_its_file_and_line(tmp_path):
    broken = tmp_path / "high_card" / "board.html"
    broken.parent.mkdir()
    broken.write_text("{% load i18n %}\n<p>Round {{ tv.view.round }}</p>\n{% if tv.view.hand %}\n"
                      "<p>no endif</p>\n")
    with override_settings(TEMPLATES=templates_with(tmp_path)):
        out = check_output()
    assert "tables.E003" in out
    assert "game 'high-card': its board template high_card/board.html does not compile" in out
    assert "TemplateSyntaxError" in out and "endif" in out
    assert f"Look at {broken}, line 3" in out


def test_a_tag_that_fails_while_drawing_names_the_template_line(tmp_path):
    broken = tmp_path / "high_card" / "board.html"
    broken.parent.mkdir()
    broken.write_text("{% load i18n %}\n<p>{{ tv.view.round }}</p>\n"
                      "<a href=\"{% url 'tables:no-such-page' table.pk %}\">x</a>\n")
    with override_settings(TEMPLATES=templates_with(tmp_path)):
        out = check_output()
    for seat in ("seat 0", "seat 1"):
        assert f"game 'high-card': the board of {seat} does not draw: NoReverseMatch" in out
    assert "game 'high-card': the spectator's board does not draw: NoReverseMatch" in out
    assert f"Look at {broken}, line 3" in out


def test_a_missing_board_template_is_reported(high_card, monkeypatch):
    monkeypatch.setattr(high_card, "board_template", "high_card/no_such_board.html")
    out = check_output()
    assert "game 'high-card': its board template high_card/no_such_board.html does not exist" in out
    assert "tests/high_card/templates/high_card/no_such_board.html" in out  # where it looked


@pytest.fixture
def module_file(tmp_path, monkeypatch):
    """Write a module in a folder on sys.path; returns its name and file."""
    monkeypatch.syspath_prepend(str(tmp_path))

    def write(name: str, source: str):
        path = tmp_path / f"{name}.py"
        path.write_text(textwrap.dedent(source))
        monkeypatch.delitem(sys.modules, name, raising=False)
        return path

    return write


def test_a_display_module_that_does_not_import_is_reported(high_card, module_file, monkeypatch):
    path = module_file("broken_display_i17", """\
        from django.utils.translation import gettext as _

        LABELS = {"draw": _("Draw a card")
    """)
    monkeypatch.setattr(high_card, "display_module", "broken_display_i17")
    out = check_output()
    assert "game 'high-card': its display module broken_display_i17 does not import: SyntaxError" in out
    assert str(path) in out


def test_a_display_function_that_fails_is_reported_with_its_line(high_card, module_file,
                                                                 monkeypatch):
    path = module_file("failing_display_i17", """\
        from tests.high_card.display import log_line  # noqa: F401


        def move_label(move, view):
            return {"draw": "Draw", "keep": "Keep"}[move["kind"]]
    """)
    monkeypatch.setattr(high_card, "display_module", "failing_display_i17")
    out = check_output()
    # Seat 0 owes the first decision: its moves get labels; seat 1 and spectators have none.
    assert "game 'high-card': the board of seat 0 does not draw: KeyError: 'kind'" in out
    assert f"Look at {path}, line 5" in out
    assert "seat 1 does not draw" not in out and "spectator" not in out
