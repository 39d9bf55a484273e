"""What a move will do, worked out from a seat's view alone (no hidden information).

`preview_view(view, move)` replays the cascade of §8 on the public pyramid. The
result can depend on fall decisions (a player's choice) and on the Fire Die
(chance); the preview then lists every branch instead of guessing, and never
touches the generator, so it cannot reveal a roll. Nothing in a cascade depends
on hands or draw piles, so a view is all it needs.
"""

from __future__ import annotations

from games.engine import _

from . import pyramid as P

MAX_BRANCHES = 64


def board_from_view(view):
    """The pyramid of a view as a board dict."""
    return {(t["r"], t["x"]): t["id"] for t in view["pyramid"]}


def explore(board, *, active, previous, curse_on, die_on, curse_mode=False, placed=None,
            limit=MAX_BRANCHES):
    """Every way the cascade can end from `board`: (leaves, complete).

    A leaf is {"chance": (num, den), "choices": [...], "events": [...], "sent": {seat: n},
    "out": n, "board": final board}.
    """
    leaves = []

    def walk(board, curse_mode, placed, num, den, choices, events, sent, out):
        while True:
            if len(leaves) >= limit:
                return
            event = P.find_event(board, curse=curse_on, die=die_on, placed=placed)
            if event is None:
                leaves.append({"chance": (num, den), "choices": choices, "events": events,
                               "sent": sent, "out": out, "board": board})
                return
            to = previous if curse_mode else active
            kind = event[0]
            if kind == "fall":
                for direction in (P.LEFT, P.RIGHT):
                    b = dict(board)
                    tile = b[event[1]]
                    P.fall(b, event[1], direction)
                    walk(b, curse_mode, placed, num, den,
                         choices + [{"seat": to, "tile": tile, "direction": direction}],
                         events, sent, out)
                return
            if kind == "roll":
                for result, faces in P.DIE_FACES.items():
                    b = dict(board)
                    got, gone, _extra = P.apply_event(b, event, die_value=faces[0])
                    walk(b, curse_mode, None, num * len(faces), den * 6, choices,
                         events + [_event("roll", to, got, gone, result=result)],
                         _add(sent, to, len(got)), out + len(gone))
                return
            if kind == "curse":
                to = previous
                curse_mode = True
            board = dict(board)
            got, gone, _extra = P.apply_event(board, event)
            events = events + [_event(kind, to, got, gone)]
            sent = _add(sent, to, len(got))
            out += len(gone)

    walk(dict(board), curse_mode, placed, 1, 1, [], [], {}, 0)
    return leaves, len(leaves) < limit


def _event(kind, to, got, gone, **extra):
    return dict({"kind": kind, "to": to, "tiles": [t for _c, t in got],
                 "out": [t for _c, t in gone]}, **extra)


def _add(sent, seat, n):
    if not n:
        return sent
    sent = dict(sent)
    sent[seat] = sent.get(seat, 0) + n
    return sent


def preview_view(view, move):
    """The expected result of `move` for the seat whose `view` this is.

    Returns {"sound", "quiet", "outcomes": [...], "depends_on_choice",
    "depends_on_chance", "complete", "back": {"min", "max"}, "message", "params"}
    where "back" counts tiles coming back to the viewing seat.
    """
    board = board_from_view(view)
    options = view["options"]
    seat = view["seat"]
    active, previous = view["active"], view["previous"]
    cascade = view["cascade"] or {}
    curse_mode = bool(cascade.get("curse"))
    placed = cascade.get("placed")
    result = {"move": dict(move)}
    if move["type"] == "place":
        cell = (move["r"], move["x"])
        shape = P.cell_state(board, cell)
        result["sound"] = shape in ("ground", "seated") and P.is_sound(board, cell, move["tile"])
        board[cell] = move["tile"]
        curse_mode = False
        placed = [cell[0], cell[1], move["tile"]] if options.get("fire_die") else None
    else:
        pending = view["pending"]
        P.fall(board, (pending["r"], pending["x"]), move["direction"])
        result["sound"] = None
    leaves, complete = explore(board, active=active, previous=previous,
                               curse_on=bool(options.get("curse")),
                               die_on=bool(options.get("fire_die")),
                               curse_mode=curse_mode, placed=placed)
    outcomes = []
    for leaf in leaves:
        outcomes.append({
            "chance": list(leaf["chance"]), "choices": leaf["choices"], "events": leaf["events"],
            "to_piles": {str(k): v for k, v in sorted(leaf["sent"].items())}, "out": leaf["out"],
            "pyramid_size": len(leaf["board"]),
        })
    back = [leaf["sent"].get(seat, 0) for leaf in leaves] if seat is not None else [0]
    result.update({
        "quiet": all(not leaf["events"] and not leaf["choices"] for leaf in leaves),
        "outcomes": outcomes, "complete": complete,
        "depends_on_choice": any(leaf["choices"] for leaf in leaves),
        "choosers": sorted({c["seat"] for leaf in leaves for c in leaf["choices"]}),
        "depends_on_chance": any(leaf["chance"][0] != leaf["chance"][1] for leaf in leaves),
        "back": {"min": min(back), "max": max(back)},
    })
    result["message"], result["params"] = _message(result)
    return result


def _message(r):
    """An English sentence (a template and its params) for the board to show."""
    lo, hi = r["back"]["min"], r["back"]["max"]
    if r["quiet"]:
        return _("This placement is sound: nothing happens."), {}
    if r["depends_on_chance"]:
        return _("This placement sets off the Fire Die: between {min} and {max} tiles may come "
                 "back to you, depending on the roll."), {"min": lo, "max": hi}
    if r["sound"] is False:
        if lo == hi:
            return _("This placement will collapse: {count} tiles come back to you."), {"count": lo}
        return _("This placement will collapse: {min} to {max} tiles come back to you, "
                 "depending on how tiles fall."), {"min": lo, "max": hi}
    if lo == hi:
        return _("This move causes mayhem: {count} tiles come back to you."), {"count": lo}
    return _("This move causes mayhem: {min} to {max} tiles come back to you, depending on "
             "how tiles fall."), {"min": lo, "max": hi}
