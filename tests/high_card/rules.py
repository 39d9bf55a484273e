"""High Card: the small test-only game that proves the framework.

2 to 4 players, three rounds. Each round every player in turn may draw a card
or keep their hand (one decision each, in turn order), then everybody plays a
card face down at the same time. When the last card is down they are revealed:
the highest value played by one player only scores that value. Most points
after three rounds wins. It has everything the framework must carry: secret
hands, a hidden deck, chance, turns and simultaneous decisions.
"""

from __future__ import annotations

import copy

from games.engine import (IllegalMove, Option, Rng, Rules, _, check_legal, places_from_keys,
                          require_move_dict)

ROUNDS = 3
HAND = 3


class HighCardRules(Rules):
    """The rules of High Card."""

    def new_game(self, *, players, seed, options=None):
        self.check_players(players)
        options = self.clean_options(options)
        rng = Rng.from_seed(seed)
        deck = rng.shuffled(list(range(1, 11)) * 2)
        hands = [sorted(deck[i * HAND:(i + 1) * HAND]) for i in range(players)]
        deck = deck[players * HAND:]
        return {
            "players": players, "options": options, "rng": rng.state, "deck": deck,
            "hands": hands, "scores": [0] * players, "round": 1, "phase": "draw",
            "leader": 0, "turn": 0, "played": [None] * players, "out": [],
            "log": [{"kind": "start", "players": players}], "over": False,
        }

    # -- who decides ----------------------------------------------------------
    def _active(self, state):
        return [s for s in range(state["players"]) if s not in state["out"]]

    def to_move(self, state):
        if state["over"]:
            return frozenset()
        if state["phase"] == "draw":
            return frozenset([state["turn"]])
        return frozenset(s for s in self._active(state) if state["played"][s] is None)

    def legal_moves(self, state, seat):
        if seat not in self.to_move(state):
            return []
        if state["phase"] == "draw":
            moves = [{"type": "keep"}]
            if state["deck"]:
                moves.insert(0, {"type": "draw"})
            return moves
        return [{"type": "play", "card": v} for v in sorted(set(state["hands"][seat]))]

    # -- moves -----------------------------------------------------------------
    def apply(self, state, seat, move):
        self.require_seat(state, seat, state["players"])
        require_move_dict(move, ("draw", "keep", "play"))
        move = check_legal(self.legal_moves(state, seat), move)
        s = copy.deepcopy(state)
        if move["type"] == "draw":
            card = s["deck"].pop(0)
            s["hands"][seat] = sorted(s["hands"][seat] + [card])
            s["log"].append({"kind": "draw", "seat": seat, "card": card, "private_to": seat})
            self._next_drawer(s)
        elif move["type"] == "keep":
            s["log"].append({"kind": "keep", "seat": seat})
            self._next_drawer(s)
        else:
            s["hands"][seat].remove(move["card"])
            s["played"][seat] = move["card"]
            s["log"].append({"kind": "play", "seat": seat})
            if all(s["played"][p] is not None for p in self._active(s)):
                self._reveal(s)
        return s

    def _next_drawer(self, s):
        active = self._active(s)
        idx = active.index(s["turn"]) if s["turn"] in active else -1
        nxt = active[(idx + 1) % len(active)]
        if nxt == self._round_leader(s):
            s["phase"] = "play"
        else:
            s["turn"] = nxt

    def _round_leader(self, s):
        active = self._active(s)
        leader = s["leader"]
        while leader not in active:
            leader = (leader + 1) % s["players"]
        return leader

    def _reveal(self, s):
        plays = {p: s["played"][p] for p in self._active(s)}
        counts = {}
        for v in plays.values():
            counts[v] = counts.get(v, 0) + 1
        unique = [v for v, c in counts.items() if c == 1]
        winner = None
        if unique:
            best = max(unique)
            winner = next(p for p, v in plays.items() if v == best)
            double = s["options"]["double_last"] and s["round"] == ROUNDS
            s["scores"][winner] += best * (2 if double else 1)
        s["log"].append({"kind": "reveal", "plays": {str(p): v for p, v in plays.items()},
                         "winner": winner, "round": s["round"]})
        s["played"] = [None] * s["players"]
        if s["round"] == ROUNDS:
            s["over"] = True
            s["log"].append({"kind": "end", "scores": list(s["scores"])})
            return
        s["round"] += 1
        s["phase"] = "draw"
        s["leader"] = (s["leader"] + 1) % s["players"]
        s["leader"] = s["turn"] = self._round_leader(s)

    def resign(self, state, seat):
        """The others play on; a lone survivor wins at once."""
        s = copy.deepcopy(state)
        if s["over"] or seat in s["out"]:
            return s
        s["out"].append(seat)
        s["played"][seat] = None
        s["log"].append({"kind": "resign", "seat": seat})
        active = self._active(s)
        if len(active) <= 1:
            s["over"] = True
            s["log"].append({"kind": "end", "scores": list(s["scores"])})
            return s
        if s["phase"] == "draw":
            if s["leader"] == seat:
                s["leader"] = self._round_leader(s)
            if s["turn"] == seat:
                idx = (seat + 1) % s["players"]
                while idx not in active:
                    idx = (idx + 1) % s["players"]
                s["turn"] = idx
                if idx == s["leader"] and s["log"][-2]["kind"] != "start":
                    s["phase"] = "play"
        elif all(s["played"][p] is not None for p in active):
            self._reveal(s)
        return s

    # -- reading ---------------------------------------------------------------
    def view(self, state, seat):
        players = state["players"]
        log = []
        for entry in state["log"]:
            entry = dict(entry)
            if "private_to" in entry:
                if entry.pop("private_to") != seat:
                    entry.pop("card", None)
            log.append(entry)
        return {
            "players": players, "round": state["round"], "rounds": ROUNDS,
            "phase": state["phase"], "turn": state["turn"] if state["phase"] == "draw" else None,
            "deck_size": len(state["deck"]), "scores": list(state["scores"]),
            "hand_sizes": [len(h) for h in state["hands"]],
            "hand": list(state["hands"][seat]) if seat is not None else None,
            "has_played": [p is not None for p in state["played"]],
            "my_play": state["played"][seat] if seat is not None else None,
            "out": list(state["out"]), "over": state["over"], "log": log,
        }

    def outcome(self, state):
        if not state["over"]:
            return None
        active = self._active(state)
        best = max(state["scores"][p] for p in active)
        return {"winners": [p for p in active if state["scores"][p] == best],
                "scores": {str(p): state["scores"][p] for p in range(state["players"])}}

    def result(self, state):
        """Points decide among those still in; seats that resigned share the last place."""
        if not state["over"]:
            return None
        n = state["players"]
        keys = [(int(p not in state["out"]), state["scores"][p]) for p in range(n)]
        return {"places": places_from_keys(keys), "scores": list(state["scores"]),
                "winners": self.outcome(state)["winners"]}

    def dump(self, state):
        return copy.deepcopy(state)

    def load(self, data):
        return copy.deepcopy(data)


RULES = HighCardRules(
    slug="high-card", name=_("High Card"), min_players=2, max_players=4,
    options=(Option("double_last", _("Last round scores double"), False),),
)
