"""Games are plugins: a Django app whose AppConfig subclasses `GameAppConfig`.

Adding a game is adding its app to INSTALLED_APPS; nothing here changes.
See docs/adding-a-game.md.
"""

from __future__ import annotations

import importlib
import inspect
import json
from dataclasses import dataclass
from types import ModuleType

from django.apps import AppConfig, apps
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.engine import Rng, Rules, get_rules, register


class GameAppConfig(AppConfig):
    """Base AppConfig of a game app.

    Set `game_slug`; the rest has defaults:
    - rules: `<app module>.rules` (registered with the engine's registry),
    - display: `<app module>.display` with `move_label(move, view)` and
      `log_line(entry, view, names)` returning translated text; optionally
      `move_spoken(move, view)` (what a screen reader says for a button whose text is a
      sign), `LEVEL_LABELS` and `LEVEL_DESCRIPTIONS` (the bots' names in the game's terms),
    - bot: `<app module>.bot` with `LEVELS` and `choose(view, legal, *, level, rng)`,
    - board template: `<app label>/board.html`, drawn from the view only.
    """

    game_slug: str = ""
    rules_module: str | None = None
    display_module: str | None = None
    bot_module: str | None = None
    board_template: str | None = None
    listed: bool = True  # shown in the lobby's game list
    # The board draws a control for every legal move (tests/boards/test_board_owns_moves.py
    # holds the in-tree games to it): the generic "Your moves" list is not drawn.
    board_controls: bool = False
    # With board_controls: the list is still drawn for screen readers, as labelled buttons,
    # visually hidden until the keyboard focus enters it.
    screen_reader_moves: bool = False
    pitch: str = ""  # one translated line for the landing page
    # Django picks an apps.py's AppConfig automatically only if exactly one
    # candidate has default=True: the imported base must not count.
    default = False

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "default" not in cls.__dict__:
            cls.default = True

    def ready(self):
        register(self.game_slug, self.rules_module or f"{self.name}.rules")
        # A broken game must fail at startup, not on the first page view.
        get_rules(self.game_slug)

    @property
    def rules(self) -> Rules:
        return get_rules(self.game_slug)

    def _module(self, attr: str, suffix: str) -> ModuleType | None:
        name = getattr(self, attr) or f"{self.name}.{suffix}"
        try:
            return importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:
                return None
            raise

    @property
    def display(self) -> ModuleType | None:
        return self._module("display_module", "display")

    @property
    def bot(self) -> ModuleType | None:
        return self._module("bot_module", "bot")

    @property
    def template(self) -> str:
        return self.board_template or f"{self.label}/board.html"

    @property
    def takeover_level(self) -> str:
        """The level of the bot that plays a seat whose player ran out of time."""
        levels = self.bot_levels
        return "fast" if "fast" in levels else levels[-1]

    @property
    def bot_levels(self) -> tuple[str, ...]:
        bot = self.bot
        return tuple(getattr(bot, "LEVELS", ("random",))) if bot else ("random",)

    def move_label(self, move: dict, view: dict, names: list[str] | None = None) -> str:
        """A button text for `move`; `names` go to a display that takes them."""
        display = self.display
        if display and hasattr(display, "move_label"):
            if names is not None and "names" in inspect.signature(display.move_label).parameters:
                return display.move_label(move, view, names=names)
            return display.move_label(move, view)
        return json.dumps(move)

    def move_spoken(self, move: dict, view: dict, names: list[str] | None = None) -> str:
        """What a screen reader says for `move`'s button instead of its text ('' for the text).

        A game whose button texts are signs (a token "●", an arrow) gives the words in
        `display.move_spoken(move, view)` (optionally `names=`)."""
        display = self.display
        if display and hasattr(display, "move_spoken"):
            if names is not None and "names" in inspect.signature(display.move_spoken).parameters:
                return str(display.move_spoken(move, view, names=names) or "")
            return str(display.move_spoken(move, view) or "")
        return ""

    def move_entry(self, move: dict, view: dict, names: list[str] | None = None) -> dict:
        """A legal move as the page draws it: its JSON, its button text, its spoken words."""
        return {"move": move, "json": json.dumps(move, sort_keys=True),
                "label": self.move_label(move, view, names),
                "spoken": self.move_spoken(move, view, names)}

    def log_line(self, entry: dict, view: dict, names: list[str]) -> str:
        """One log entry in words."""
        display = self.display
        if display and hasattr(display, "log_line"):
            text = display.log_line(entry, view, names)
            if text:
                return text
        return _("Event: %(kind)s") % {"kind": entry.get("kind", "?")}

    def choose_bot_move(self, view: dict, legal: list[dict], *, level: str, rng: Rng) -> dict:
        """The bot's decision from a seat's view; uniformly random if the game has no bot."""
        bot = self.bot
        if bot and hasattr(bot, "choose"):
            return bot.choose(view, legal, level=level, rng=rng, **_expert_budget(bot, level))
        return rng.choice(legal)


def _expert_budget(bot: ModuleType, level: str) -> dict:
    """`iterations=` for an expert bot when settings.BOT_EXPERT_BUDGET scales its budget."""
    from django.conf import settings

    scale = getattr(settings, "BOT_EXPERT_BUDGET", 1.0)
    if level != "expert" or scale == 1.0:
        return {}
    expert = importlib.import_module(bot.__name__.rsplit(".", 1)[0] + ".expert")
    return {"iterations": max(1, round(expert.ITERATIONS * scale))}


# Names of the usual bot levels; a game may add its own in display.LEVEL_LABELS.
LEVEL_LABELS = {
    "random": gettext_lazy("random"), "fast": gettext_lazy("fast"),
    "strong": gettext_lazy("strong"), "greedy": gettext_lazy("greedy"),
    "expert": gettext_lazy("expert"),
}
# What each level does, shown in the new-table form; a game may add or override
# them in display.LEVEL_DESCRIPTIONS.
LEVEL_DESCRIPTIONS = {
    "random": gettext_lazy("Plays any legal move, at random."),
    "fast": gettext_lazy("Plays the move that looks best right now; answers at once."),
    "strong": gettext_lazy("Looks ahead over a few guesses of what it cannot see."),
    "expert": gettext_lazy("Searches for up to about a second per move, trying its best moves "
                           "on many guesses of the hidden pieces, each played some way ahead."),
    "greedy": gettext_lazy("Plays its highest card."),
}


def bot_level_description(level: str, config: "GameAppConfig | None" = None) -> str:
    """A bot level's translated one-line description ('' if there is none)."""
    display = config.display if config is not None else None
    texts = {**LEVEL_DESCRIPTIONS, **getattr(display, "LEVEL_DESCRIPTIONS", {})}
    return str(texts.get(level, ""))


def bot_level_label(level: str, config: "GameAppConfig | None" = None) -> str:
    """A bot level's translated name."""
    display = config.display if config is not None else None
    labels = {**LEVEL_LABELS, **getattr(display, "LEVEL_LABELS", {})}
    return str(labels.get(level, level))


@dataclass(frozen=True)
class GameInfo:
    slug: str
    name: str
    min_players: int
    max_players: int


def installed_games() -> dict[str, GameAppConfig]:
    """slug → app config of every installed game."""
    return {c.game_slug: c for c in apps.get_app_configs() if isinstance(c, GameAppConfig)}


def game_config(slug: str) -> GameAppConfig:
    """The app config of an installed game; KeyError if there is none."""
    return installed_games()[slug]


def listed_games() -> list[GameAppConfig]:
    """Games offered in the lobby, by name."""
    return sorted((c for c in installed_games().values() if c.listed), key=lambda c: c.rules.name)
