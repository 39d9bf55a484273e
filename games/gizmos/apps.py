from django.utils.translation import gettext_lazy

from games.tables.plugins import GameAppConfig


class GizmosConfig(GameAppConfig):
    """Gizmos: build gizmos, chain their effects (rules in games/gizmos/rules/)."""

    name = "games.gizmos"
    label = "gizmos"
    game_slug = "gizmos"
    board_controls = True  # every legal move is a control on the board
    screen_reader_moves = True  # and, for screen readers, in a list of labelled buttons
    pitch = gettext_lazy("Build machines that set each other off in chain reactions, with energy of four colours.")
