"""A game's board drawn without a request or the database, from a state alone.

The same TableView the table page builds (`selectors.table_view_for`), from
`rules.view` and `rules.legal_moves` only: used by the system check that every
installed board renders (games/tables/checks.py) and by board tests.
"""

from __future__ import annotations

import os
import traceback
import types
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import django
from django.template import Context, Engine, TemplateDoesNotExist, engines

from games.engine import get_rules

from .models import Table
from .plugins import GameAppConfig, game_config
from .selectors import TableView, Viewer

NAMES = ("Ana", "Bruno", "Carmen", "David", "Elena", "Fátima", "Gabriel", "Hugo")


def preview_view(game: str, state: Any, viewer: int | None, *, players: int,
                 names: tuple[str, ...] = NAMES, seq: int = 1) -> TableView:
    """The TableView the table page would build for `viewer` (None: a spectator)."""
    rules = get_rules(game)
    config = game_config(game)
    to_move = rules.to_move(state)
    over = not to_move
    table = Table(pk=1, game=game, players=players, seq=seq,
                  status=Table.Status.FINISHED if over else Table.Status.RUNNING,
                  outcome=rules.outcome(state), to_move=sorted(to_move))
    view = rules.view(state, viewer)
    seats = [{"position": p, "name": names[p % len(names)], "is_bot": False, "is_free": False,
              "is_you": p == viewer, "to_move": p in to_move, "resigned": False,
              "owes_since": None, "user": None, "on_vacation": False, "taken_over": False,
              "muted": False, "paused": False, "deadline": None} for p in range(players)]
    shown = [row["name"] for row in seats]
    tv = TableView(table=table, viewer=Viewer(seat=viewer), view=view, seats=seats,
                   board_template=config.template, game_name=str(rules.name),
                   outcome=table.outcome, board_controls=config.board_controls,
                   screen_reader_moves=config.screen_reader_moves)
    entries = view.get("log", []) if isinstance(view, dict) else []
    tv.log_total = len(entries)
    tv.log = [{"text": config.log_line(e, view, shown), "entry": e, "n": n}
              for n, e in enumerate(entries, 1)]
    if viewer is not None and not over:
        tv.moves = [config.move_entry(m, view, shown) for m in rules.legal_moves(state, viewer)]
    return tv


def debug_engine() -> Engine:
    """The project's template engine with debug on: a failure names its file and line."""
    engine = engines["django"].engine
    # app_dirs is already in `loaders` (Django refuses both).
    return Engine(dirs=engine.dirs, app_dirs=False, context_processors=[],
                  debug=True, loaders=engine.loaders, string_if_invalid=engine.string_if_invalid,
                  file_charset=engine.file_charset, libraries=engine.libraries,
                  builtins=[b for b in engine.builtins if b not in Engine.default_builtins],
                  autoescape=engine.autoescape)


def render_board(tv: TableView, *, engine: Engine | None = None) -> str:
    """The board's HTML for `tv`, with the context the table page gives it (no request)."""
    engine = engine or engines["django"].engine
    context = Context({"tv": tv, "table": tv.table, "based_on": tv.table.seq,
                       "csrf_token": "board-check", "results_shown": None})
    return engine.get_template(tv.board_template).render(context)


@dataclass(frozen=True)
class BoardProblem:
    """What went wrong drawing a board, and the file to look at."""

    what: str          # e.g. "the board of seat 2 does not draw"
    error: str         # the exception, in one line
    where: str         # "path/to/file.html, line 12" (or a Python file and line)


def _where(exc: BaseException, config: GameAppConfig) -> str:
    """The file to look at: the template's file and line and, when Python code called
    from it raised (a template tag, a display function), that code's file and line."""
    if isinstance(exc, SyntaxError) and exc.filename:
        return f"{exc.filename}, line {exc.lineno}"
    frames = [f for f in traceback.extract_tb(exc.__traceback__)
              if not f.filename.startswith("<")]  # importlib's frozen frames
    django_root = os.path.dirname(os.path.realpath(django.__file__)) + os.sep
    root = os.path.realpath(config.path) + os.sep
    own = [f for f in frames if os.path.realpath(f.filename).startswith(root)]
    debug = getattr(exc, "template_debug", None)
    if debug and debug.get("name"):
        where = f"{debug['name']}, line {debug.get('line')}"
        # Raised by Python code the template called (a tag library, a display function)?
        code = frames[-1] if frames else None
        if code is not None and not os.path.realpath(code.filename).startswith(django_root):
            where += f" (raised at {code.filename}, line {code.lineno})"
        return where
    frame = (own or frames or [None])[-1]
    if frame is None:
        return config.path
    return f"{frame.filename}, line {frame.lineno}"


def board_problems(config: GameAppConfig) -> list[BoardProblem]:
    """Import the game's display module and draw its board at the start of a new game
    for every seat and a spectator. Empty when all of it works."""
    display = config.display_module or f"{config.name}.display"
    try:
        config.display  # noqa: B018 - importing it is the check
    except Exception as exc:  # noqa: BLE001 - reported, with the file to look at
        return [BoardProblem(f"its display module {display} does not import",
                             f"{type(exc).__name__}: {exc}", _where(exc, config))]
    engine = engines["django"].engine  # its cached templates serve the first page view too
    try:
        engine.get_template(config.template)
    except TemplateDoesNotExist as exc:
        tried = ", ".join(sorted({origin.name for origin, _ in exc.tried})) or "no template folder"
        return [BoardProblem(f"its board template {config.template} does not exist",
                             f"looked for {tried}", config.path)]
    except Exception as exc:  # noqa: BLE001 - a syntax error: the debug engine names the line
        return [BoardProblem(f"its board template {config.template} does not compile",
                             f"{type(exc).__name__}: {exc}",
                             _where(_compile_with_debug(config.template, exc), config))]
    rules = config.rules
    players = rules.min_players
    try:
        state = rules.new_game(players=players, seed=1)
    except Exception as exc:  # noqa: BLE001
        return [BoardProblem("a new game does not start", f"{type(exc).__name__}: {exc}",
                             _where(exc, config))]
    problems = []
    with _static_without_manifest():
        for viewer in [*range(players), None]:
            problems.extend(_draw_problems(config, engine, state, viewer, players))
    return problems


@contextmanager
def _static_without_manifest():
    """`{% static %}` answers the plain file name while the check draws: before
    collectstatic (a deploy check, a fresh checkout) a manifest storage has no entries
    and no collected files yet, which is not the board's fault. Only this check's
    renders, at start-up, see it; the pages keep the hashed names."""
    from django.contrib.staticfiles.storage import staticfiles_storage
    from django.core.files.storage import FileSystemStorage

    staticfiles_storage.url  # noqa: B018 - makes the lazy storage real
    storage = getattr(staticfiles_storage, "_wrapped", staticfiles_storage)
    if not isinstance(storage, FileSystemStorage) or not hasattr(storage, "hashed_files"):
        yield
        return
    storage.url = types.MethodType(FileSystemStorage.url, storage)
    try:
        yield
    finally:
        del storage.url


def _draw_problems(config, engine, state, viewer, players) -> list[BoardProblem]:
    """One viewer's board: its view built the page's way, then drawn."""
    what = "the spectator's board" if viewer is None else f"the board of seat {viewer}"
    try:
        tv = preview_view(config.game_slug, state, viewer, players=players)
    except Exception as exc:  # noqa: BLE001 - the display's labels or log lines
        return [BoardProblem(f"{what} does not draw", f"{type(exc).__name__}: {exc}",
                             _where(exc, config))]
    try:
        render_board(tv, engine=engine)
    except Exception as exc:  # noqa: BLE001
        return [BoardProblem(f"{what} does not draw", f"{type(exc).__name__}: {exc}",
                             _where(_render_with_debug(tv, exc), config))]
    return []


def _compile_with_debug(name: str, exc: Exception) -> BaseException:
    try:
        debug_engine().get_template(name)
    except Exception as again:  # noqa: BLE001
        return again
    return exc


def _render_with_debug(tv: TableView, exc: Exception) -> BaseException:
    """The same failure drawn by a debug engine, which names the template file and line."""
    try:
        render_board(tv, engine=debug_engine())
    except Exception as again:  # noqa: BLE001
        return again
    return exc
