"""The Flaming Pyramids board, worked out from the viewer's view and legal moves only.

`fp_board(tv)` turns `tv.view` into what the template draws: the pyramid on a grid of
half-tile columns, the spots and landing cells (with the viewer's move forms), the hand
with a preview of every placement (from the rules' `preview_view`, never guessed here),
the players' counts and known tiles, and the latest turns' mayhem step by step.
"""

from __future__ import annotations

import re

from django import template
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext_lazy

from games.flaming_pyramids import display, layout_css
from games.flaming_pyramids.rules import preview_view, tile_info

register = template.Library()

RECAP_TURNS = 6           # at most this many turns in "what just happened"
MIN_COLUMNS = 12          # half-tile columns: a small pyramid is not drawn huge
STEP_KINDS = ("place", "fall", "collapse", "explosion", "fire", "roll", "curse", "draw", "win")
MAYHEM_KINDS = ("collapse", "explosion", "fire", "roll", "curse")
_SAFE_ID = re.compile(r"^[a-z0-9-]+$")
STATE_WORDS = {"overhang": pgettext_lazy("tile in the pyramid", "overhanging on one tile"),
               "free": pgettext_lazy("tile in the pyramid", "in free air, about to fall")}


def spot_key(r: int, x: int) -> str:
    """A spot's id fragment: "1-3", "0-m2" (no minus sign inside ids)."""
    return f"{r}-{'m' if x < 0 else ''}{abs(x)}"


def tile_data(tile, **extra) -> dict:
    """A tile as the template draws it: facts, name, description and symbol key."""
    t = tile_info(tile) if isinstance(tile, str) else tile_info(tile.get("id") or tile["tile"])
    return dict(t, name=display.tile_name(t["id"]), desc=display.tile_description(t["id"]),
                sym=t["colour"], material_word=display.material_word(t["material"]), **extra)


@register.simple_tag
def fp_tile(tile_id: str) -> dict:
    """One tile by id, for the legend: drawn as an example, without its name."""
    return dict(tile_data(tile_id), desc="")


def _groups(log: list[dict]) -> list[dict]:
    """The log cut into turns: each group starts at a "turn" entry."""
    groups: list[dict] = []
    for i, entry in enumerate(log):
        if entry.get("kind") == "turn" or not groups:
            groups.append({"turn": entry.get("turn"), "seat": entry.get("seat"), "entries": []})
        groups[-1]["entries"].append((i, entry))
    return groups


def _has_place(group) -> bool:
    return any(e.get("kind") == "place" for _i, e in group["entries"])


def _recap(view: dict, names: list[str], me: int | None) -> list[dict]:
    """The turns since the viewer's own last placement (or the last turn), in words."""
    groups = [g for g in _groups(view.get("log", [])) if _has_place(g)]
    if not groups:
        return []
    start = len(groups) - 1
    if me is not None:
        mine = [k for k, g in enumerate(groups) if g["seat"] == me]
        start = mine[-1] if mine else 0
    chosen = groups[max(start, len(groups) - RECAP_TURNS):]
    out = []
    for k, g in enumerate(chosen):
        last = k == len(chosen) - 1
        lines = [{"i": i, "kind": e["kind"], "text": display.log_line(e, view, names),
                  "mayhem": e["kind"] in MAYHEM_KINDS}
                 for i, e in g["entries"] if e.get("kind") in STEP_KINDS]
        out.append({"turn": g["turn"], "name": names[g["seat"]] if g["seat"] is not None
                    and g["seat"] < len(names) else "", "lines": lines, "animated": last,
                    "mayhem": any(line["mayhem"] for line in lines),
                    "entries": g["entries"]})
    return out


def _motion(group: dict | None) -> tuple[list[dict], dict, dict]:
    """From the animated turn: ghosts of the tiles that left (cell, step), the placed
    tile's step, and each fallen tile's falls [(step, from cell)]."""
    if group is None:
        return [], {}, {}
    ghosts, placed, falls = [], {}, {}
    for i, e in group["entries"]:
        kind = e.get("kind")
        if kind == "place":
            placed[e["tile"]] = i
        elif kind == "fall":
            falls.setdefault(e["tile"], []).append((i, tuple(e["from"])))
        elif kind in MAYHEM_KINDS:
            # How a tile leaves: burned, blown up, or taken down (collapse, curse).
            how = {"fire": "burn", "explosion": "blast"}.get(kind, "drop")
            if kind == "roll":
                how = "blast" if e.get("result") == "explosion" else "burn"
            for cell in e.get("sent") or []:
                ghosts.append({"tile": cell["tile"], "r": cell["r"], "x": cell["x"], "i": i,
                               "how": how})
            out = set(e.get("out") or [])
            for cell in e.get("incendiaries") or []:
                if cell["tile"] in out:
                    ghosts.append({"tile": cell["tile"], "r": cell["r"], "x": cell["x"], "i": i,
                                   "how": "blast" if how == "blast" else "burn"})
    return ghosts, placed, falls


class Grid:
    """Half-tile columns and rows around everything drawn on the pyramid."""

    def __init__(self, cells):
        cells = list(cells) or [(0, 0)]
        xs = [x for _r, x in cells]
        self.min_x = min(xs) - 1
        self.max_x = max(xs) + 1
        self.max_r = max(r for r, _x in cells)
        width = self.max_x - self.min_x
        if width < MIN_COLUMNS:
            # Centre a small pyramid in a wider frame.
            pad = MIN_COLUMNS - width
            self.min_x -= pad // 2
            self.max_x += pad - pad // 2
        self.cols = self.max_x - self.min_x
        self.rows = self.max_r + 1

    def col(self, x: int) -> int:
        return x - 1 - self.min_x + 1

    def row(self, r: int) -> int:
        return self.max_r - r + 1

    def style(self, r: int, x: int) -> str:
        """The cell's place as classes of layout.css (the CSP allows no style attribute)."""
        col, row = self.col(x), self.row(r)
        if not (1 <= col <= layout_css.MAX_COLUMNS and 1 <= row <= layout_css.MAX_ROWS):
            raise ValueError(f"cell ({r}, {x}) is outside layout.css")
        return f"fp-gc-{col} fp-gr-{row}"


def _prompt(tv, view, names, me) -> list[str]:
    """What is going on and what the viewer must do, in words."""
    pending = view.get("pending")
    active = view.get("active")
    if view.get("over"):
        winner = view.get("winner")
        if winner == me:
            return [_("You have no tiles left: you win!")]
        return [_("%(name)s has no tiles left and wins!") % {"name": names[winner]}]
    if tv.table.status != "running":
        return [_("The game has ended.")]
    lines = []
    if pending:
        tile = display.tile_name(pending["tile"]["id"])
        decider = pending["decider"]
        if decider == me:
            lines.append(_("%(tile)s is in free air: choose where it falls by clicking one of "
                           "the two marked cells below it.") % {"tile": tile})
            if active != me:
                lines.append(_("It is %(name)s's turn, but the Curse struck: you decide the falls "
                               "and receive this turn's tiles.") % {"name": names[active]})
        else:
            lines.append(_("%(tile)s is in free air: %(name)s chooses where it falls.") % {
                "tile": tile, "name": names[decider]})
            if pending.get("curse"):
                lines.append(_("The Curse struck: %(name)s, the previous player, decides the falls "
                               "and receives this turn's tiles.") % {"name": names[decider]})
        return lines
    spots = view.get("spots") or []
    if active == me and tv.moves:
        if len(spots) == 1:
            lines.append(_("Your turn: there is one spot (marked). Choose a tile from your hand, "
                           "check what will happen, then confirm."))
        else:
            lines.append(ngettext(
                "Your turn: choose a tile from your hand and one of the %(n)s marked spot, in "
                "either order; check what will happen, then confirm.",
                "Your turn: choose a tile from your hand and one of the %(n)s marked spots, in "
                "either order; check what will happen, then confirm.", len(spots)) % {"n": len(spots)})
    else:
        lines.append(_("%(name)s is placing a tile.") % {"name": names[active]})
    return lines


def _seat_rows(tv, view, names, me) -> list[dict]:
    rows = {row["position"]: row for row in tv.seats}
    # Once the table is over (also by a resignation) nobody is to move.
    running = tv.table.status == "running" and not view.get("over")
    order = list(range(view["players"]))
    if me is not None:
        order = order[me:] + order[:me]
    out = []
    for s in order:
        info = view["seats"][s]
        out.append({
            "seat": s, "name": names[s], "you": s == me,
            "active": running and s == view.get("active"),
            "to_move": running and s in (view.get("to_move") or []),
            "winner": s == view.get("winner"),
            "is_bot": rows.get(s, {}).get("is_bot", False),
            "previous": s == view.get("previous") and bool(view["options"].get("curse")),
            "hand_size": info["hand_size"], "pile_size": info["pile_size"], "tiles": info["tiles"],
            "pile_known": [tile_data(t) for t in info["pile_known"]],
            "hand_known": [tile_data(t) for t in info["hand_known"]],
            "backs": range(min(info["hand_size"], 5)),
        })
    return out


@register.simple_tag
def fp_board(tv) -> dict:
    """Everything board.html draws, for this viewer."""
    view = tv.view
    me = tv.viewer.seat if tv.viewer.seat is not None else view.get("seat")
    names = [row["name"] for row in tv.seats]
    while len(names) < view["players"]:
        names.append(_("Player %(n)s") % {"n": len(names) + 1})
    moves = list(tv.moves or [])
    places = [m for m in moves if m["move"]["type"] == "place"]
    falls = {m["move"]["direction"]: m for m in moves if m["move"]["type"] == "fall"}
    pending = view.get("pending")

    recap = _recap(view, names, me)
    animated = recap[-1] if recap else None
    ghosts, placed, fell = _motion(animated)

    cells = [(t["r"], t["x"]) for t in view["pyramid"]]
    cells += [(s["r"], s["x"]) for s in view.get("spots") or []]
    if pending:
        cells += [(pending["left"]["r"], pending["left"]["x"]),
                  (pending["right"]["r"], pending["right"]["x"])]
    cells += [(g["r"], g["x"]) for g in ghosts]
    for tile_falls in fell.values():
        cells += [cell for _i, cell in tile_falls]
    grid = Grid(cells)

    # The pyramid's tiles.
    tiles = []
    for t in view["pyramid"]:
        d = tile_data(t, r=t["r"], x=t["x"], state=t["state"], style=grid.style(t["r"], t["x"]))
        if t["state"] in STATE_WORDS:
            d["desc"] = f"{d['desc']} ({STATE_WORDS[t['state']]})"
        d["falling"] = bool(pending and pending["r"] == t["r"] and pending["x"] == t["x"])
        if t["id"] in placed:
            d["placed_step"] = placed[t["id"]]
        if t["id"] in fell:
            d["falls"] = " ".join(
                f"{i}:{fx - t['x']}:{t['r'] - fr}" for i, (fr, fx) in fell[t["id"]])
        tiles.append(d)
    ghost_tiles = [tile_data(g["tile"], step=g["i"], how=g["how"], style=grid.style(g["r"], g["x"]))
                   for g in ghosts]

    # The viewer's placements: previews of every (tile, spot) from the rules.
    spot_moves: dict[str, dict] = {}
    previews: dict[tuple[str, str], dict] = {}
    for m in places:
        mv = m["move"]
        key = spot_key(mv["r"], mv["x"])
        p = preview_view(view, mv)
        badge, tone = display.preview_badge(p)
        previews[(mv["tile"], key)] = {
            "m": m, "text": display.preview_text(p, names, me), "badge": badge, "tone": tone,
            "tile": mv["tile"], "spot": key, "sound": p.get("sound"),
            "confirm": _("Place %(tile)s here") % {"tile": display.tile_name(mv["tile"])},
        }
        spot_moves.setdefault(key, {})[mv["tile"]] = previews[(mv["tile"], key)]
    can_place = bool(places)

    hand = []
    for t in view.get("hand") or []:
        hints = [previews[(t["id"], k)] for k in spot_moves if (t["id"], k) in previews]
        hand.append(tile_data(t, hints=hints))
    spot_index = {spot_key(s["r"], s["x"]): i for i, s in enumerate(view.get("spots") or [])}
    for p in previews.values():
        p["idx"] = spot_index.get(p["spot"], "x")
    spots = []
    for s in view.get("spots") or []:
        key = spot_key(s["r"], s["x"])
        hints = [spot_moves[key][t["id"]] for t in view.get("hand") or []
                 if t["id"] in spot_moves.get(key, {})]
        spots.append({"key": key, "idx": spot_index[key], "r": s["r"], "x": s["x"], "kind": s["kind"],
                      "style": grid.style(s["r"], s["x"]),
                      "text": display.spot_text(view, s["r"], s["x"]), "hints": hints,
                      "ghosts": [tile_data(t) for t in view.get("hand") or []] if can_place else []})
    confirms = []
    for t in hand:
        confirms.append({"tile": t, "spots": [spot_moves[s["key"]][t["id"]] for s in spots
                                              if t["id"] in spot_moves.get(s["key"], {})]})
    landings = []
    if pending:
        for direction in ("left", "right"):
            cell = pending[direction]
            m = falls.get(direction)
            text = ""
            if m is not None:
                text = display.preview_text(preview_view(view, m["move"]), names, me)
            arrow = "↙" if direction == "left" else "↘"
            title = display.move_label({"type": "fall", "direction": direction}, view)
            landings.append({
                "direction": direction, "m": m, "preview": text, "arrow": arrow, "title": title,
                "style": grid.style(cell["r"], cell["x"]),
                "content": format_html('<span aria-hidden="true">{}</span>'
                                       '<span class="visually-hidden">{}</span>', arrow, title),
            })

    return {
        "cols": grid.cols, "rows": grid.rows, "tiles": tiles, "ghosts": ghost_tiles,
        "spots": spots, "landings": landings, "hand": hand, "confirms": confirms,
        "can_place": can_place, "single_spot": len(spots) == 1, "single_tile": len(hand) == 1,
        "prompt": _prompt(tv, view, names, me),
        "seats": _seat_rows(tv, view, names, me), "recap": recap,
        "last_step": len(view.get("log", [])) - 1,
        "out": [tile_data(t) for t in view.get("out") or []],
        "curse": bool(view["options"].get("curse")), "fire_die": bool(view["options"].get("fire_die")),
        "me": me, "turn": view.get("turn"), "active_name": names[view["active"]],
        "fall_previews": [lnd for lnd in landings if lnd["preview"]],
    }
