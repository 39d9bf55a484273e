"""The 45 tiles of Flaming Pyramids, read once from data/tiles.json."""

from __future__ import annotations

import json
import os
from typing import NamedTuple

_DATA = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "tiles.json")


class Tile(NamedTuple):
    """One tile's fixed facts."""

    id: str
    index: int
    kind: str            # regular | coal | blowtorch | millstone
    material: str        # straw | wood | stone | coal | blowtorch
    colour: str          # yellow | red | green | blue | all
    colours: frozenset   # colours it matches (the Millstone: all four)
    weight: int
    incendiary: bool
    ignites: frozenset   # materials an incendiary sets on fire
    symbol: str


def _load() -> dict[str, Tile]:
    with open(_DATA, encoding="utf-8") as fh:
        data = json.load(fh)
    tiles = {}
    for raw in data["tiles"]:
        tiles[raw["id"]] = Tile(
            id=raw["id"], index=raw["index"], kind=raw["kind"], material=raw["material"],
            colour=raw["colour"], colours=frozenset(raw["matches_colours"]), weight=raw["weight"],
            incendiary=raw["incendiary"], ignites=frozenset(raw["ignites"]), symbol=raw["symbol"],
        )
    return tiles


TILES: dict[str, Tile] = _load()
TILE_IDS: tuple[str, ...] = tuple(sorted(TILES, key=lambda t: TILES[t].index))
assert len(TILE_IDS) == 45, "Flaming Pyramids has 45 tiles"


def tile_info(tile_id: str) -> dict:
    """The public facts of a tile, for views and logs."""
    t = TILES[tile_id]
    return {"id": t.id, "kind": t.kind, "material": t.material, "colour": t.colour,
            "weight": t.weight, "symbol": t.symbol, "incendiary": t.incendiary}
