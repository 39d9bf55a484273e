from django.utils.translation import gettext_lazy

from games.tables.plugins import GameAppConfig


class PowerhouseConfig(GameAppConfig):
    """Powerhouse: pyramids from a bag, reactors and meltdowns (rules in games/powerhouse/rules/)."""

    name = "games.powerhouse"
    label = "powerhouse"
    game_slug = "powerhouse"
    board_controls = True  # every legal move is a control on the board
    screen_reader_moves = True  # and, for screen readers, in a list of labelled buttons
    pitch = gettext_lazy("Draw crystal pyramids from a bag, trade them away in chain reactions and build a clean powerhouse.")
