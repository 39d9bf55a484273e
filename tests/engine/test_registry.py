"""The registry finds rules without Django; broken or unknown games fail clearly."""

import os
import subprocess
import sys

import pytest

from games.engine import Rules, get_rules, register


def run_clean(code: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    env["PYTHONPATH"] = "."
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)


def test_get_rules_imports_without_django_settings():
    result = run_clean(
        "import sys\n"
        "from games.engine import get_rules\n"
        "import tests.high_card\n"
        "r = get_rules('high-card')\n"
        "assert 'django' not in sys.modules, 'django was imported'\n"
        "print(r.slug, r.min_players, r.max_players)\n")
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["high-card", "2", "4"]


def test_unknown_slug_is_a_key_error():
    with pytest.raises(KeyError):
        get_rules("no-such-game")
    with pytest.raises(KeyError):
        get_rules("../etc")


def test_register_refuses_a_second_module_for_a_slug():
    register("high-card", "tests.high_card.rules")  # same module again is fine
    with pytest.raises(ValueError):
        register("high-card", "somewhere.else")
    with pytest.raises(ValueError):
        register("Bad Slug", "x")


def test_every_installed_game_loads_and_is_a_rules_instance():
    from games.tables.plugins import installed_games

    games = installed_games()
    assert "high-card" in games
    for slug, config in games.items():
        rules = get_rules(slug)
        assert isinstance(rules, Rules) and rules.slug == slug
