"""The game author's kit (issue 17): startgame, checkgame, entry-point discovery, the harness.

Games outside the tree are written with `startgame` into tmp_path and run in a
subprocess with the project's own settings (config.settings), as a site with the
game installed would. An entry point is declared the way pip declares one: a
``*.dist-info`` folder with ``entry_points.txt`` on the path (the fresh-venv,
pip-installed version of all this is tests/browser/test_outside_game.py).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

ROOT = Path(__file__).resolve().parents[2]


def env_for(*paths, **extra) -> dict:
    env = {k: v for k, v in os.environ.items()
           if k not in {"DJANGO_SETTINGS_MODULE", "ENABLE_TEST_GAME", "GAME_APPS", "PYTHONPATH"}}
    env["PYTHONPATH"] = os.pathsep.join([*map(str, paths), str(ROOT)])
    env["DJANGO_SETTINGS_MODULE"] = "config.settings"
    env.update(extra)
    return env


def manage(*args, paths=(), **extra) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "manage.py"), *map(str, args)],
                          cwd=ROOT, env=env_for(*paths, **extra), capture_output=True,
                          text=True, timeout=600)


def declare(where: Path, dist: str, entry_points: dict[str, str]) -> None:
    """An installed distribution's metadata with `boardgames.games` entry points."""
    info = where / f"{dist}-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 0.1\n")
    lines = "".join(f"{name} = {value}\n" for name, value in entry_points.items())
    (info / "entry_points.txt").write_text(f"[boardgames.games]\n{lines}")


@pytest.fixture
def new_game(tmp_path):
    """startgame NAME into tmp_path: the project folder (the package is inside it)."""
    def make(name: str) -> Path:
        call_command("startgame", name, directory=str(tmp_path), verbosity=0)
        return tmp_path / name
    return make


def test_startgame_writes_a_complete_package(new_game):
    project = new_game("pebbles")
    files = {str(p.relative_to(project)) for p in project.rglob("*") if p.is_file()}
    assert files == {
        "pyproject.toml", "README.md", "tests/test_rules.py", "tests/test_site.py",
        "pebbles/__init__.py", "pebbles/apps.py", "pebbles/rules.py", "pebbles/bot.py",
        "pebbles/display.py", "pebbles/templates/pebbles/board.html",
        "pebbles/templates/pebbles/rules_en.html", "pebbles/templates/pebbles/rules_es.html",
        "pebbles/locale/es/LC_MESSAGES/django.po", "pebbles/locale/es/LC_MESSAGES/django.mo"}
    pyproject = tomllib.loads((project / "pyproject.toml").read_text())
    assert pyproject["project"]["entry-points"]["boardgames.games"] == {"pebbles": "pebbles"}
    rules = (project / "pebbles" / "rules.py").read_text()
    assert "class PebblesRules(Rules)" in rules and 'slug="pebbles"' in rules
    for method in ("new_game", "to_move", "legal_moves", "apply", "view", "outcome", "result",
                   "dump", "load"):
        assert f"def {method}(" in rules
    assert "{{" not in rules and "{%" in (project / "pebbles/templates/pebbles/board.html").read_text()
    po = project / "pebbles" / "locale" / "es" / "LC_MESSAGES" / "django.po"
    assert subprocess.run(["msgfmt", "--check", "-o", os.devnull, str(po)]).returncode == 0


@pytest.mark.parametrize("name,message", [
    ("Bad Name", "is not a game name"), ("high_card", "already installed"),
    ("9lives", "is not a game name"), ("os", "conflicts with the name of an existing"),
])
def test_startgame_refuses_bad_names(tmp_path, name, message):
    with pytest.raises(CommandError, match=message):
        call_command("startgame", name, directory=str(tmp_path), verbosity=0)


def test_startgame_refuses_an_existing_folder(new_game):
    new_game("pebbles")
    with pytest.raises(CommandError, match="already exists"):
        new_game("pebbles")


def test_an_entry_point_alone_lists_the_game_and_installs_its_app(new_game):
    project = new_game("pebbles")
    declare(project, "pebbles", {"pebbles": "pebbles"})
    code = ("import django; django.setup()\n"
            "from django.conf import settings\n"
            "from django.template.loader import get_template\n"
            "from django.utils import translation\n"
            "from games.tables.plugins import listed_games, game_config\n"
            "print([g.game_slug for g in listed_games()])\n"
            "print('pebbles' in settings.INSTALLED_APPS)\n"
            "print(get_template('pebbles/board.html').origin.name)\n"
            "with translation.override('es'): print(game_config('pebbles').move_label("
            "{'type': 'take', 'count': 2}, {}))\n")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env_for(project),
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    slugs, installed, template, label = result.stdout.strip().splitlines()
    assert "'pebbles'" in slugs and "'powerhouse'" in slugs
    assert installed == "True"
    assert template == str(project / "pebbles" / "templates" / "pebbles" / "board.html")
    assert label == "Tomar 2 piedras"


def test_check_reports_a_game_entry_point_that_does_not_load(tmp_path):
    broken = tmp_path / "broken_game"
    broken.mkdir()
    (broken / "__init__.py").write_text("raise RuntimeError('the rules file is missing a comma')\n")
    (tmp_path / "norules_game").mkdir()
    (tmp_path / "norules_game" / "__init__.py").write_text("")
    declare(tmp_path, "somegames", {"no-such": "no_such_package", "broken": "broken_game",
                                    "norules": "norules_game"})
    result = manage("check", paths=[tmp_path])
    assert result.returncode == 1, result.stdout + result.stderr
    assert re.search(r"tables\.E010.*'broken = broken_game' \(distribution somegames\) does not "
                     r"load: RuntimeError: the rules file is missing a comma", result.stderr)
    assert re.search(r"tables\.E010.*'no-such = no_such_package'.*ModuleNotFoundError",
                     result.stderr)
    assert ("'norules = norules_game' (distribution somegames) does not load: LookupError: no "
            "rules for 'norules': norules_game needs a rules module with RULES "
            "(norules_game.rules), or register() in its __init__.py") in result.stderr
    # The site itself still starts without them: the other games are unaffected.
    assert "System check identified 3 issues" in result.stderr


def test_checkgame_passes_on_the_scaffold_and_names_the_file_of_an_illegal_bot_move(new_game):
    project = new_game("pebbles")
    passed = manage("checkgame", "pebbles", "--games", "10", paths=[project],
                    GAME_APPS="pebbles", GAME_ENTRY_POINTS="0")
    assert passed.returncode == 0, passed.stderr
    assert "pebbles: no problems" in passed.stdout

    bot = project / "pebbles" / "bot.py"
    bot.write_text(bot.read_text().replace(
        "    return rng.choice(legal)", "    return {'type': 'take', 'count': 99}"))
    failed = manage("checkgame", "pebbles", "--games", "10", paths=[project],
                    GAME_APPS="pebbles", GAME_ENTRY_POINTS="0")
    assert failed.returncode == 1
    assert re.search(rf"{re.escape(str(bot))}: \[bots\] level 'random' chose an illegal move "
                     r"\{\"type\": \"take\", \"count\": 99\} at decision 0", failed.stderr)
    assert "problem(s)" in failed.stderr


def test_checkgame_reports_a_broken_board_impure_rules_and_a_failing_harness(new_game):
    project = new_game("pebbles")
    package = project / "pebbles"
    board = package / "templates" / "pebbles" / "board.html"
    board.write_text(board.read_text().replace('<h2 id="board-title">',
                                               '{% no_such_tag %}<h2 id="board-title">'))
    rules = package / "rules.py"
    rules.write_text(rules.read_text().replace("import copy\n", "import copy\nimport random\n")
                     .replace('new["stones"] -= move["count"]',
                              'new["stones"] -= move["count"]\n        state["turn"] = 0'))
    result = manage("checkgame", "pebbles", "--games", "4", paths=[project],
                    GAME_APPS="pebbles", GAME_ENTRY_POINTS="0")
    assert result.returncode == 1
    assert f"{rules}:12: [purity] imports random" in result.stderr
    # apply() now changes its input: the harness sees the next seat refused its legal move.
    assert re.search(rf"{re.escape(str(rules))}: \[harness\] pebbles p=2 seed=\d+ step=\d+: ",
                     result.stderr)
    assert re.search(rf"{re.escape(str(board))}: \[boards\] the board template 'pebbles/board.html' "
                     r"does not load: TemplateSyntaxError", result.stderr)


def test_checkgame_refuses_a_game_that_is_not_installed():
    with pytest.raises(CommandError, match="no installed game 'nope'"):
        call_command("checkgame", "nope")


def test_the_harness_replays_a_game_registered_only_in_its_init_in_a_fresh_process(
        new_game, monkeypatch):
    """The guide's call, check_rules(get_rules(slug)), with no fresh_process_imports: the
    fresh process gets the rules object itself (it used to KeyError on the slug)."""
    from games.engine import get_rules
    from games.engine.testing import check_rules

    project = new_game("pebbles")
    monkeypatch.syspath_prepend(str(project))
    __import__("pebbles")
    report = check_rules(get_rules("pebbles"), games=4, fresh_process_games=2)
    assert report.games == report.finished == 4


def test_the_package_pins_agree_with_the_requirements():
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert pyproject["tool"]["setuptools"]["dynamic"]["dependencies"] == {
        "file": ["requirements.txt"]}
    pins = {}
    for line in (ROOT / "requirements-test.txt").read_text().splitlines():
        line = line.split("#")[0].strip()
        if line and not line.startswith("-r"):
            name, version = line.split("==")
            pins[name] = version
    for requirement in pyproject["project"]["optional-dependencies"]["test"]:
        name, version = requirement.split("==")
        assert pins[name] == version, requirement


def test_check_bots_reports_a_bot_that_thinks_too_long(monkeypatch):
    import time

    from games.tables.kit import check_bots
    from games.tables.plugins import game_config

    bot = game_config("high-card").bot

    def slow(view, legal, *, level, rng, **kwargs):
        started = time.process_time()
        while time.process_time() - started < 0.05:
            pass
        return legal[0]

    monkeypatch.setattr(bot, "choose", slow)
    problems = check_bots("high-card", games_per_pair=1, move_seconds=0.02)
    assert problems and all(p.file == bot.__file__ for p in problems)
    assert re.match(r"level '\w+' took 0\.\d CPU s at decision 0 \(", problems[0].message)
