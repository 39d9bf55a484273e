"""View secrecy (RULES.md §13): no deck order, no removed Level III card, no other player's
research draws, in any view or log entry."""

from __future__ import annotations

import json
import re

from games.engine import Rng
from games.gizmos.rules import CARDS

from .helpers import RULES

CARD_ID = re.compile(r"L[0-3]-[0-9]{2}")


def _strings(obj, out: set) -> set:
    if isinstance(obj, str):
        out.add(obj)
    elif isinstance(obj, dict):
        for k, v in obj.items():
            out.add(k)
            _strings(v, out)
    elif isinstance(obj, list):
        for v in obj:
            _strings(v, out)
    return out


def _check_views(s: dict, seen_by: list[set]) -> None:
    hidden = set(s["removed"])
    for deck in s["decks"].values():
        hidden |= set(deck)
    researching = set(s["research"]["cards"]) if s["research"] else set()
    if s["phase"] == "pay":
        # The card chosen to be built is public from the choice on (its payment always completes).
        researching.discard(s["pending"]["card"])
        hidden.discard(s["pending"]["card"])
    for seat in [None, *range(s["players"])]:
        view = RULES.view(s, seat)
        text = json.dumps(view)
        ids = set(CARD_ID.findall(text)) & set(CARDS)
        allowed = seen_by[seat] if seat is not None else set()
        leak = (ids & hidden) - allowed
        assert not leak, f"seat {seat} sees hidden cards {sorted(leak)}"
        if seat != s["current"]:
            assert not (ids & researching) - allowed, f"seat {seat} sees another's research draws"
        assert all(isinstance(n, int) for n in view["decks"].values())
        assert "removed" not in view and '"rng"' not in text


def test_views_keep_secrets_over_random_games():
    for game in range(6):
        players = 2 + game % 3
        s = RULES.new_game(players=players, seed=500 + game)
        chooser = Rng.from_seed(game)
        seen_by = [set() for _ in range(players)]
        steps = 0
        while not s["over"]:
            if steps % 10 == 0 or s["phase"] in ("research", "return") or (
                    s["phase"] == "pay" and s["pending"]["source"] == "research"):
                _check_views(s, seen_by)
            seat = s["current"]
            move = chooser.choice(RULES.legal_moves(s, seat))
            s = RULES.apply(s, seat, move)
            if s["research"]:
                seen_by[seat] |= set(s["research"]["cards"])
            steps += 1
        _check_views(s, seen_by)


def test_research_draws_only_in_own_view_and_log():
    s = RULES.new_game(players=3, seed=77)
    seat = s["current"]
    top = s["decks"]["2"][:3]
    s = RULES.apply(s, seat, {"type": "research", "level": 2})
    for other in range(3):
        text = json.dumps(RULES.view(s, other))
        for cid in top:
            assert (cid in text) == (other == seat)
    assert all(cid not in json.dumps(RULES.view(s, None)) for cid in top)
    s = RULES.apply(s, seat, {"type": "decline"})
    s = RULES.apply(s, seat, {"type": "bottom", "card": top[1]})
    s = RULES.apply(s, seat, {"type": "bottom", "card": top[0]})
    assert s["decks"]["2"][-3:] == [top[1], top[0], top[2]]
    for other in range(3):
        if other != seat:
            text = json.dumps(RULES.view(s, other))
            assert all(cid not in text for cid in top)
            assert any(e["kind"] == "research_end" and e["returned"] == 3 for e in RULES.view(s, other)["log"])
