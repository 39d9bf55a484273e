"""Flaming Pyramids rules (RULES.md). Pure Python: stdlib and games.engine only."""

from games.engine import Option, _

from .game import HAND_SIZE, FlamingPyramidsRules, previous_seat
from .preview import preview_view
from .tiles import TILE_IDS, TILES, tile_info

RULES = FlamingPyramidsRules(
    slug="flaming-pyramids", name=_("Flaming Pyramids"), min_players=2, max_players=6,
    options=(
        Option("curse", _("The Curse"), False,
               help=_("Three equal numbers in a mini-pyramid go under the previous player's pile.")),
        Option("fire_die", _("The Fire Die"), False,
               help=_("Only the tile played from the hand can start a fire, and a die decides how.")),
    ),
)

__all__ = ["RULES", "FlamingPyramidsRules", "HAND_SIZE", "TILES", "TILE_IDS", "tile_info",
           "preview_view", "previous_seat"]
