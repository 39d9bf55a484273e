"""How a player clicks through Gizmos: the fast bot's decisions, carried out with the
controls of the page before or after whole payments existed (see test_clicks.py)."""

from __future__ import annotations

import copy

from games.gizmos import bot
from games.gizmos.rules import COLORS, RULES, payment

MODES = ("before", "after", "auto")


def expand(state: dict, me: int, intent: dict, mode: str) -> list[dict]:
    """The clicks that carry out `intent` with the controls of `mode`."""
    if mode != "before":
        return [intent]
    s = copy.deepcopy(state)
    clicks = []

    def click(move):
        nonlocal s
        clicks.append(move)
        s = RULES.apply(s, me, move)

    if intent["type"] == "build" and "spend" in intent:
        click({"type": "build", "card": intent["card"]})
        intent = {"type": "pay", "spend": intent["spend"]}
    if intent["type"] == "pay":
        pend = s["pending"]
        p = s["seats"][me]
        plan = payment.witness(target=pend["target"], need=pend["need"], pool=pend["pool"],
                               storage={c: p["energy"][c] - pend["spent"][c] for c in COLORS},
                               slots=RULES.free_slots(s, me), only=intent["spend"])
        for step in plan["moves"]:
            click(step)
        return clicks
    if intent["type"] == "use" and "color" in intent:
        click({"type": "use", "gizmo": intent["gizmo"]})
        click({"type": "pick", "color": intent["color"]})
        return clicks
    if intent["type"] == "use_all":
        while s["current"] == me and s["phase"] == "triggers" and RULES.automatic(s, me):
            click({"type": "use", "gizmo": RULES.automatic(s, me)[0]})
        return clicks
    click(intent)
    return clicks


def intent(state: dict, me: int, mode: str) -> dict:
    view = RULES.view(state, me)
    legal = RULES.legal_moves(state, me)
    if mode == "auto" and {"type": "auto", "on": True} in legal:
        return {"type": "auto", "on": True}
    if len(legal) == 1:
        return legal[0]
    return bot.fast_move(view, legal)




def engine_clicks(seed: int, mode: str, players: int = 2) -> tuple[int, dict]:
    """(clicks of seat 0, outcome) of a game against fast bots, played on the engine alone."""
    s = RULES.new_game(players=players, seed=seed)
    clicks = 0
    while not s["over"]:
        seat = s["current"]
        if seat != 0:
            s = RULES.apply(s, seat, bot.fast_move(RULES.view(s, seat), RULES.legal_moves(s, seat))
                            if len(RULES.legal_moves(s, seat)) > 1 else RULES.legal_moves(s, seat)[0])
            continue
        for move in expand(s, 0, intent(s, 0, mode), mode):
            s = RULES.apply(s, 0, move)
            clicks += 1
    return clicks, RULES.outcome(s)
