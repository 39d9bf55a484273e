"""The rules-engine contract (docs/engine.md). Pure Python: no Django here."""

from .base import (Move, Option, Rules, canonical_move, check_legal, places_from_keys,
                   require_move_dict)
from .errors import IllegalMove
from .i18n import _
from .registry import get_rules, register, registered_slugs
from .rng import Rng

__all__ = [
    "IllegalMove", "Move", "Option", "Rng", "Rules", "_", "get_rules", "register",
    "registered_slugs", "require_move_dict", "canonical_move", "check_legal", "places_from_keys",
]
