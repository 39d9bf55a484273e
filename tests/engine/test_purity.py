"""Rules engines and bots are pure: no Django, Channels or Celery, no clock, no global random.

The scan itself is `games.engine.purity` (also run by `manage.py checkgame` on a game
outside this tree); here it covers the engine and every game package of this tree.
"""

from pathlib import Path

import pytest

from games.engine.purity import impure_imports, pure_files, scan_file

ROOT = Path(__file__).resolve().parents[2]


def files_of_this_tree():
    files = [p for p in (ROOT / "games" / "engine").glob("*.py")]
    for game in (ROOT / "games").iterdir():
        if not game.is_dir() or game.name in {"engine", "tables", "__pycache__"}:
            continue
        files += pure_files(game)
    files += pure_files(ROOT / "tests" / "high_card")
    return sorted(set(files))


@pytest.mark.parametrize("path", files_of_this_tree(), ids=lambda p: str(p.relative_to(ROOT)))
def test_pure_modules_import_nothing_impure(path):
    assert scan_file(path) == []


def test_the_scan_finds_impure_imports_in_a_package_anywhere(tmp_path):
    game = tmp_path / "somegame"
    (game / "rules").mkdir(parents=True)
    (game / "__init__.py").write_text("from games.engine import register\n")
    (game / "rules" / "__init__.py").write_text("import random\nfrom django.conf import settings\n")
    (game / "bot.py").write_text("import time\n\ndef choose():\n    import datetime\n")
    (game / "display.py").write_text("from django.utils.translation import gettext\n")
    found = sorted(str(p) for p in impure_imports(game))
    assert found == [f"{game}/bot.py:4: imports datetime",
                     f"{game}/rules/__init__.py:1: imports random",
                     f"{game}/rules/__init__.py:2: imports django.conf"]
