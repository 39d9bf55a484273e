"""Playouts in which players leave: the shared checks of every game's `resign`.

A game's tests call `leaving_playouts(RULES, ...)`; each playout plays random legal
moves, lets a random seat leave at a random moment (as a resignation or a drop on
timeout would), plays on to the end and checks what any player expects:

- with two players the game ends at once and the other wins;
- with more, the game goes on, the leaver never owes a decision again, cannot be
  the winner and ranks below everyone still in;
- resigning again, or after the end, changes nothing;
- the state stays a JSON-able value that `dump`/`load` round-trip, and the views of
  every seat can still be built.
"""

from __future__ import annotations

import json

from games.engine import Rng


def rank_of(outcome: dict, seat: int) -> list[int]:
    """Seats best first: the outcome's ranking if it has one, else by score."""
    if outcome.get("ranking"):
        return list(outcome["ranking"])
    scores = outcome.get("scores") or {}
    return sorted((int(s) for s in scores), key=lambda s: -scores[str(s)])


def leaving_playout(rules, *, players: int, seed: int, options: dict | None = None,
                    leavers: int = 1, max_decisions: int = 4000) -> dict:
    """One playout with `leavers` seats leaving; returns what happened, for more checks."""
    options = rules.clean_options(options)
    chooser = Rng.from_seed(seed * 31 + 7)
    state = rules.new_game(players=players, seed=seed, options=options)
    left: list[int] = []
    plan = sorted(chooser.randbelow(60) for _ in range(leavers))
    where = f"{rules.slug} {players}p seed {seed}"
    for step in range(max_decisions):
        owing = sorted(rules.to_move(state))
        if not owing:
            break
        while plan and step >= plan[0] and len(left) < leavers:
            plan.pop(0)
            # Half the time the player who owes leaves (a drop on timeout), else anyone.
            candidates = [p for p in (owing if chooser.randbelow(2) else range(players))
                          if p not in left]
            if not candidates:
                continue
            seat = chooser.choice(candidates)
            after = rules.resign(state, seat)
            assert after is not None, f"{where}: resign ended the table with no result"
            left.append(seat)
            state = after
            data = rules.dump(state)
            assert rules.dump(rules.load(json.loads(json.dumps(data)))) == data, where
            for viewer in [None, *range(players)]:
                rules.view(state, viewer)
            assert seat not in rules.to_move(state), f"{where}: the leaver still owes"
            assert rules.dump(rules.resign(state, seat)) == rules.dump(state), \
                f"{where}: resigning twice changed the state"
            if players - len(left) == 1:
                outcome = rules.outcome(state)
                assert outcome is not None, f"{where}: one player left, the game goes on"
                [winner] = [p for p in range(players) if p not in left]
                assert outcome["winners"] == [winner], f"{where}: {outcome}"
            owing = sorted(rules.to_move(state))
            if not owing:
                break
        if not owing:
            break
        for seat in left:
            assert seat not in owing, f"{where}: a seat that left owes a decision"
        seat = chooser.choice(owing)
        state = rules.apply(state, seat, chooser.choice(rules.legal_moves(state, seat)))
    outcome = rules.outcome(state)
    if outcome is not None:
        for seat in left:
            assert seat not in outcome["winners"], f"{where}: a seat that left won"
        order = rank_of(outcome, 0)
        still = [p for p in order if p not in left]
        assert order[:len(still)] == still, f"{where}: a leaver ranks above a player still in"
        assert [p for p in order if p in left] == list(reversed(left)), \
            f"{where}: earlier leavers must rank lower: {order}, left {left}"
        assert rules.dump(rules.resign(state, still[0])) == rules.dump(state), \
            f"{where}: a resignation after the end changed the state"
    return {"state": state, "left": left, "outcome": outcome}


def leaving_playouts(rules, *, players_counts, seeds, options: dict | None = None) -> int:
    """Run `leaving_playout` over player counts and seeds; returns how many ended."""
    ended = 0
    for players in players_counts:
        for seed in seeds:
            for leavers in range(1, players):
                result = leaving_playout(rules, players=players, seed=seed, options=options,
                                         leavers=leavers)
                ended += result["outcome"] is not None
    return ended
