from django.utils.translation import gettext_lazy

from games.tables.plugins import GameAppConfig


class FlamingPyramidsConfig(GameAppConfig):
    """Flaming Pyramids: one shared pyramid, a race to shed every tile (rules in rules/)."""

    name = "games.flaming_pyramids"
    label = "flaming_pyramids"
    game_slug = "flaming-pyramids"
    board_controls = True  # every legal move is a control on the board
    screen_reader_moves = True  # and, for screen readers, in a list of labelled buttons
    pitch = gettext_lazy("Build a pyramid together, then make it collapse, burn and explode to get rid of your tiles first.")
