"""The 112 Gizmos cards, loaded from data/cards.json (a copy of the spec's file).

Effects are interpreted from their structured form (RULES.md §7.6): nothing in
the engine is written per card. This module only reads the data and answers
small questions about it (limits, discounts, trigger matching).
"""

from __future__ import annotations

import json
from pathlib import Path

COLORS = ("red", "yellow", "blue", "black")
SPHERES_PER_COLOR = 13
START_LIMITS = {"energy_limit": 5, "file_limit": 1, "research": 3}
DISPLAY_SIZE = {1: 4, 2: 3, 3: 2}
LEVEL3_USED = 16
TYPES = ("upgrade", "converter", "file", "pick", "build")

_DATA = Path(__file__).resolve().parent.parent / "data" / "cards.json"


def _load() -> dict[str, dict]:
    with open(_DATA, encoding="utf-8") as handle:
        raw = json.load(handle)
    cards = {}
    for card in raw["cards"]:
        cards[card["id"]] = {
            key: card[key] for key in (
                "id", "level", "color", "cost", "vp", "type", "kind", "trigger", "effect",
                "design", "text")
        }
        cards[card["id"]]["vp_printed"] = card.get("vp_printed", card["vp"])
        cards[card["id"]]["starter"] = bool(card.get("is_starter"))
    return cards


CARDS: dict[str, dict] = _load()
STARTERS = sorted(cid for cid, c in CARDS.items() if c["starter"])
BY_LEVEL = {lvl: sorted(cid for cid, c in CARDS.items() if c["level"] == lvl) for lvl in (1, 2, 3)}
SLOTS = {cid: tuple((sl["from"], sl["to"], sl["to_count"]) for sl in c["effect"]["converter"]["slots"])
         for cid, c in CARDS.items() if "converter" in c["effect"]}
DESIGNS: dict[str, list[str]] = {}
for _cid in sorted(CARDS):
    DESIGNS.setdefault(CARDS[_cid]["design"] + ("" if CARDS[_cid]["design"].startswith(("L0", "L3_generic"))
                                                  else ":" + _cid), []).append(_cid)
del _cid


def public_card(cid: str) -> dict:
    """A card's printed facts, for views."""
    c = CARDS[cid]
    return {k: c[k] for k in ("level", "color", "cost", "vp", "type", "kind", "trigger", "effect")}


# The cards with each kind of effect the questions below add up (looked up per gizmo).
_UPGRADES = {cid: c["effect"]["upgrade"] for cid, c in CARDS.items() if c["effect"].get("upgrade")}
_FORBIDS = {cid: c["effect"]["forbid_action"] for cid, c in CARDS.items() if "forbid_action" in c["effect"]}
_DISCOUNTS = {cid: c["effect"]["discount"] for cid, c in CARDS.items() if c["effect"].get("discount")}


def limits(gizmos: list[str]) -> dict:
    """Storage limit, file limit and research amount given the built gizmos (§7.1)."""
    out = dict(START_LIMITS)
    for cid in gizmos:
        up = _UPGRADES.get(cid)
        if up:
            for key in out:
                out[key] += up.get(key, 0)
    return out


def forbidden(gizmos: list[str]) -> set[str]:
    """The actions a negator forbids this player (§7.1)."""
    return {_FORBIDS[cid] for cid in gizmos if cid in _FORBIDS}


def discount(gizmos: list[str], *, source: str, level: int) -> int:
    """Energy taken off the cost of a build from `source` (§7.1; all discounts add up)."""
    total = 0
    for cid in gizmos:
        d = _DISCOUNTS.get(cid)
        if not d:
            continue
        when = d["when"]
        if ((when == "build_from_archive" and source == "archive")
                or (when == "build_from_research" and source == "research")
                or (when == "build_level_2" and level == 2)):
            total += d["amount"]
    return total


def converter_slots(cid: str) -> list[dict]:
    """The converter slots of a card (empty for non-converters)."""
    conv = CARDS[cid]["effect"].get("converter")
    return conv["slots"] if conv else []


def trigger_matches(cid: str, event: dict) -> bool:
    """Whether gizmo `cid`'s trigger is met by an action `event` (§8 rule 1)."""
    trig = CARDS[cid]["trigger"]
    if not trig or trig["action"] != event["action"]:
        return False
    if event["action"] == "file":
        return True
    if event["action"] == "pick":
        return event["color"] in trig["colors"]
    built = CARDS[event["card"]]
    if "colors" in trig:
        # A generic gizmo counts as every colour (§7.5).
        return built["color"] == "any" or built["color"] in trig["colors"]
    if trig.get("from") == "archive":
        return event["source"] == "archive"
    if "level" in trig:
        return built["level"] == trig["level"]
    return False
