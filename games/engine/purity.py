"""The purity scan: a game's rules and bots import no Django, clock or global random.

Reads the source (it never imports it), so it works on any game package, in this
tree or installed elsewhere:

    from games.engine.purity import impure_imports
    for problem in impure_imports("/path/to/nim"):
        print(problem)          # nim/rules.py:3: imports django.conf

`manage.py checkgame` runs it on a game's package; `tests/engine/test_purity.py`
runs it on the engine and on every game of this tree.
"""

from __future__ import annotations

import ast
import importlib.util
from dataclasses import dataclass
from pathlib import Path

# Frameworks and impure standard modules a rules engine or a bot must not import.
FORBIDDEN = frozenset({"django", "channels", "celery", "random", "time", "datetime"})


@dataclass(frozen=True)
class Impurity:
    """One forbidden import: the file, its line and the imported name."""

    path: Path
    line: int
    name: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: imports {self.name}"


def pure_files(package_dir: str | Path) -> list[Path]:
    """The files of a game package that must be pure.

    The package's ``__init__.py`` (imported without Django to register the rules),
    ``rules.py`` or the ``rules/`` package, ``bot.py`` or ``bot/``, and ``expert.py``
    (a searching bot).
    """
    root = Path(package_dir)
    files = [root / "__init__.py"] if (root / "__init__.py").exists() else []
    files += list(root.glob("rules*.py")) + list(root.glob("rules/**/*.py"))
    files += list(root.glob("bot.py")) + list(root.glob("bot/**/*.py"))
    files += list(root.glob("expert*.py"))
    return sorted(set(files))


def allowed_for(path: Path) -> frozenset[str]:
    """Forbidden modules a file may still import: a bot may watch its time budget."""
    if path.name in {"bot.py", "expert.py"} or "bot" in path.parts[-2:-1]:
        return frozenset({"time"})
    if path.name == "testing.py" and path.parent.name == "engine":
        return frozenset({"subprocess"})
    return frozenset()


def scan_file(path: str | Path) -> list[Impurity]:
    """Every forbidden absolute import in one file (imports inside functions too)."""
    path = Path(path)
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    forbidden = FORBIDDEN - allowed_for(path)
    found = []
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
        elif (isinstance(node, ast.Call) and isinstance(node.func, (ast.Name, ast.Attribute))
              and getattr(node.func, "id", getattr(node.func, "attr", "")) in {
                  "__import__", "import_module"}
              and node.args and isinstance(node.args[0], ast.Constant)
              and isinstance(node.args[0].value, str)):
            names = [node.args[0].value]
        for name in names:
            if name.split(".")[0] in forbidden:
                found.append(Impurity(path, node.lineno, name))
    return found


def package_dir(module_name: str) -> Path:
    """The directory of an importable package, found without importing it."""
    spec = importlib.util.find_spec(module_name)
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError(f"{module_name} is not an importable package")
    return Path(next(iter(spec.submodule_search_locations)))


def impure_imports(package: str | Path) -> list[Impurity]:
    """Every forbidden import in a game package (a directory or a dotted package name)."""
    root = Path(package) if isinstance(package, Path) or "/" in str(package) else package_dir(package)
    return [problem for path in pure_files(root) for problem in scan_file(path)]
