"""Rules engines and bots are pure: no Django, Channels or Celery, no clock, no global random."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FORBIDDEN = {"django", "channels", "celery", "random", "time", "datetime"}


def pure_files():
    files = list((ROOT / "games" / "engine").glob("*.py"))
    for game in (ROOT / "games").iterdir():
        if not game.is_dir() or game.name in {"engine", "tables", "__pycache__"}:
            continue
        files += [p for p in game.glob("rules*.py")] + list(game.glob("rules/**/*.py"))
        files += list(game.glob("bot.py")) + list(game.glob("bot/**/*.py"))
    files += [ROOT / "tests" / "high_card" / "rules.py", ROOT / "tests" / "high_card" / "bot.py"]
    return sorted(set(files))


@pytest.mark.parametrize("path", pure_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_pure_modules_import_nothing_impure(path):
    tree = ast.parse(path.read_text(), filename=str(path))
    allowed_here = {"time"} if path.name == "bot.py" else set()  # a bot may watch its time budget
    if path.parent.name == "engine" and path.name == "testing.py":
        allowed_here = {"subprocess"}
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
        for name in names:
            top = name.split(".")[0]
            assert top not in FORBIDDEN - allowed_here, f"{path.name} imports {name}"
