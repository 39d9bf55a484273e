"""Every kind of decision of every game, and a way to reach each one.

Pure (the rules only, no Django): `find_path` searches seeds and seeded move sequences
until one seat owes a decision of the wanted kind, and returns the seed and the moves,
so that a test can create a table with that seed and record exactly those moves through
the site before it looks at the page. The search runs at test time, so it follows the
rules as they are now (no sequence copied from an earlier version of the rules).

Most kinds come up in seeded random play within a few dozen moves (Powerhouse's Major
Dump once the players draw no die, which would throw pyramids away). Gizmos' gizmo
effects (file a card, research, free build) need a Level III gizmo built and then
triggered, which random play hardly ever does: for those the deciding seat follows a
plan (collect the gizmo's colour, raise the storage with upgrades, build the gizmo,
then build a card of a triggering colour and use it), the other seat picks spheres.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engine import Rng, get_rules
from games.gizmos.rules.cards import CARDS, limits

# Every kind of decision, from each game's legal_moves (the phases and pending stages).
KINDS = {
    "powerhouse": (
        "draw",        # draw a pyramid of a size, or a die
        "reaction",    # fire a reactor, use a battery, start a Major Dump, or end
        "give",        # a reactor (or battery) fired: whom to give the piece
        "take",        # what to take back from them (or vapor)
        "discard",     # battery, first step: which size goes back to the bag
        "transform",   # battery, second step: which of the other sizes is given
        "major-dump",  # Major Dump under way: the next colour to dump, or stop
        "meltdown",    # a meltdown: which piece to discard (also off turn)
    ),
    "gizmos": (
        "main",            # file, pick, build or research
        "pay",             # a build under way: a proposed payment, sphere by sphere, or call off
        "research",        # the drawn cards: build, file or decline
        "return",          # which drawn card goes under the deck
        "triggers",        # armed gizmos: use one, fire all, automatic on/off, end the turn
        "pick",            # a Pick gizmo: the next sphere, or stop
        "file",            # a gizmo's "file a card": which card, or stop
        "research_level",  # a gizmo's "research": which level, or stop
        "free_build",      # a gizmo's free Level I build: which card, or stop
    ),
    "flaming-pyramids": (
        "place",  # a tile and the spot for it
        "fall",   # a tile fell: which way it falls on
    ),
}

# The Level III gizmos whose effect asks for each gizmo-effect kind (from cards.json).
EFFECT_GIZMOS = {
    kind: sorted(cid for cid, c in CARDS.items()
                 if c["effect"].get("perform_action") == action
                 or (action == "free_build" and "free_build" in c["effect"]))
    for kind, action in (("file", "file"), ("research_level", "research"),
                         ("free_build", "free_build"))
}


def decision_kind(game: str, state: dict, seat: int) -> str:
    """The kind of decision `seat` faces, in the terms of KINDS."""
    if game == "powerhouse":
        if state["phase"] in ("draw", "meltdown"):
            return state["phase"]
        pending = state.get("pending") or {}
        if pending.get("action") == "dump":
            return "major-dump"
        return pending.get("stage") or "reaction"
    if game == "gizmos":
        return state["phase"]
    return "fall" if state.get("pending") else "place"


@dataclass
class Path:
    game: str
    players: int
    seed: int
    moves: list[tuple[int, dict]]  # (seat, move), in order
    seat: int                      # who then owes a decision of the wanted kind
    kind: str


def find_path(game: str, kind: str, *, players: int = 2, seeds=range(200),
              max_moves: int = 600) -> Path:
    """The first seed (and its moves) of `seeds` whose seeded play reaches `kind`."""
    rules = get_rules(game)
    for seed in seeds:
        target = None
        if game == "gizmos":
            target = _target_gizmo(rules.new_game(players=players, seed=seed), kind)
            if kind in EFFECT_GIZMOS and target is None:
                continue  # none of the gizmos asking for it is on show at the start
        for thrifty in ((True, False) if target else (False,)):
            state = rules.new_game(players=players, seed=seed)
            rng = Rng.from_seed(seed * 7919 + 17)
            moves = []
            for _ in range(max_moves):
                deciding = sorted(rules.to_move(state))
                if not deciding:
                    break
                for seat in deciding:
                    if decision_kind(game, state, seat) == kind:
                        return Path(game, players, seed, moves, seat, kind)
                seat = deciding[0]
                legal = rules.legal_moves(state, seat)
                move = _choose(game, rules, state, seat, legal, rng, kind, target, thrifty)
                moves.append((seat, move))
                state = rules.apply(state, seat, move)
    raise LookupError(f"no seed in {seeds} reaches {game} {kind}")


def _choose(game, rules, state, seat, legal, rng, kind, target, thrifty):
    # One step ahead: a move that leads straight to the wanted kind is taken.
    for move in legal:
        after = rules.apply(state, seat, move)
        if any(decision_kind(game, after, s) == kind for s in rules.to_move(after)):
            return move
    if target is not None:
        return _gizmos_plan(state, seat, legal, rng, target, thrifty)
    if kind == "major-dump":
        # Two powerhouses take many pyramids: no die (a meltdown throws pyramids away).
        return rng.choice([m for m in legal if m.get("kind") != "die"] or legal)
    return rng.choice(legal)


def _target_gizmo(state: dict, kind: str) -> str | None:
    shown = state["display"]["3"]
    return next((cid for cid in EFFECT_GIZMOS.get(kind, ()) if cid in shown), None)


def _gizmos_plan(state, seat, legal, rng, target, thrifty):
    """Seat 0 builds `target`, then a card that triggers it; the others pick spheres.
    A thrifty seat builds cheap cards of other colours rather than pick unwanted energy."""
    card = CARDS[target]
    me = state["seats"][seat]
    types = {m["type"] for m in legal}
    if seat != 0:
        picks = [m for m in legal if m["type"] == "pick" and m["color"] != card["color"]]
        return rng.choice(picks or [m for m in legal if m["type"] != "build"] or legal)
    built = target in me["gizmos"]
    if state["phase"] == "pay":
        whole = [m for m in legal if m["type"] == "pay"]
        return whole[0] if whole else rng.choice(legal)
    if state["phase"] == "triggers":
        return next((m for m in legal if m["type"] == "end_turn"), legal[0])
    if state["phase"] != "main":
        return rng.choice(legal)
    builds = [m for m in legal if m["type"] == "build" and "spend" in m]
    if not built:
        mine = [m for m in builds if m["card"] == target]
        if mine:
            return mine[0]
        if limits(me["gizmos"])["energy_limit"] < card["cost"]:
            ups = [m for m in builds if "upgrade" in CARDS[m["card"]]["effect"]
                   and CARDS[m["card"]]["effect"]["upgrade"]["energy_limit"]]
            if ups:
                return ups[0]
        wanted = _wanted_colors(state, me, card)
    else:
        trig = card["trigger"]["colors"]
        ok = [m for m in builds if CARDS[m["card"]]["color"] in trig]
        if ok:
            return min(ok, key=lambda m: CARDS[m["card"]]["cost"])
        wanted = list(trig)
    picks = [m for m in legal if m["type"] == "pick"]
    good = [m for m in picks if m["color"] in wanted]
    if good:
        return rng.choice(good)
    if thrifty and builds:
        # Spend what is not wanted rather than fill the storage with more of it.
        other = [m for m in builds if CARDS[m["card"]]["color"] not in wanted]
        return rng.choice(other or builds)
    if picks:
        return rng.choice(picks)
    if builds:
        return rng.choice(builds)
    return rng.choice([m for m in legal if m["type"] not in ("research",)] or legal)


def _wanted_colors(state, me, card) -> list[str]:
    """The gizmo's own colour until there is enough of it, and the colour of an upgrade
    on show while the storage is too small for the gizmo's cost."""
    wanted = []
    if me["energy"][card["color"]] < card["cost"]:
        wanted.append(card["color"])
    if limits(me["gizmos"])["energy_limit"] < card["cost"]:
        for cid in state["display"]["1"] + state["display"]["2"]:
            if cid and "upgrade" in CARDS[cid]["effect"]:
                if CARDS[cid]["effect"]["upgrade"]["energy_limit"]:
                    wanted.append(CARDS[cid]["color"])
    return wanted
