"""Flaming Pyramids in words: tile names, spots, button labels, log lines and previews.

Every sentence is one translatable message so a translation can reorder the words and
make them agree ("red wood 20" is "madera roja 20"). Only facts present in the view or
the log entry are used: a log line never names a tile the entry does not carry.
"""

from __future__ import annotations

from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext, pgettext_lazy

from games.flaming_pyramids.rules import tile_info

# Straw, wood and stone tiles (feminine nouns in Spanish) and the fire tiles (masculine)
# take their colour word from different contexts.
# The new-table form's word on the expert here (games.tables.plugins.LEVEL_DESCRIPTIONS):
# at two players a three-placement alpha-beta search over a few deals, measured against
# "strong" at two players; at more, its best moves played out to the end of the game on
# many deals (docs/games/flaming_pyramids.md).
LEVEL_DESCRIPTIONS = {
    "expert": gettext_lazy("At two players it looks three placements ahead (its own, the best "
                           "answer, its own again) over several guesses of the hidden tiles, "
                           "and beats “strong” in about three games of four. With more players "
                           "it plays its best moves out to the end of the game over many "
                           "guesses and picks the one that wins most often."),
}

COLOUR_WORDS = {
    "yellow": pgettext_lazy("colour of a straw, wood or stone tile", "yellow"),
    "red": pgettext_lazy("colour of a straw, wood or stone tile", "red"),
    "green": pgettext_lazy("colour of a straw, wood or stone tile", "green"),
    "blue": pgettext_lazy("colour of a straw, wood or stone tile", "blue"),
}
FIRE_COLOUR_WORDS = {
    "yellow": pgettext_lazy("colour of a coal or blowtorch tile", "yellow"),
    "red": pgettext_lazy("colour of a coal or blowtorch tile", "red"),
    "green": pgettext_lazy("colour of a coal or blowtorch tile", "green"),
    "blue": pgettext_lazy("colour of a coal or blowtorch tile", "blue"),
}
# The glyph drawn for each colour, so colour is never the only cue.
SYMBOL_WORDS = {
    "yellow": pgettext_lazy("tile symbol", "sun"),
    "red": pgettext_lazy("tile symbol", "diamond"),
    "green": pgettext_lazy("tile symbol", "tree"),
    "blue": pgettext_lazy("tile symbol", "drop"),
    "all": pgettext_lazy("tile symbol", "wheel (every colour)"),
}
MATERIAL_WORDS = {
    "straw": pgettext_lazy("tile material", "straw"),
    "wood": pgettext_lazy("tile material", "wood"),
    "stone": pgettext_lazy("tile material", "stone"),
    "coal": pgettext_lazy("tile material", "coal"),
    "blowtorch": pgettext_lazy("tile material", "blowtorch"),
}


def _tile(tile) -> dict:
    """A tile id or a tile dict as the public facts of the tile."""
    if isinstance(tile, dict):
        tile = tile.get("tile", tile.get("id"))
    return tile_info(tile)


def tile_name(tile) -> str:
    """"red wood 20", "yellow coal", "the Millstone" (an id, a view tile or a log cell)."""
    t = _tile(tile)
    kind, material = t["kind"], t["material"]
    if kind == "millstone":
        return _("the Millstone")
    if kind == "coal":
        return pgettext("tile name", "%(colour)s coal") % {"colour": FIRE_COLOUR_WORDS[t["colour"]]}
    if kind == "blowtorch":
        return pgettext("tile name", "%(colour)s blowtorch") % {
            "colour": FIRE_COLOUR_WORDS[t["colour"]]}
    params = {"colour": COLOUR_WORDS[t["colour"]], "weight": t["weight"]}
    if material == "straw":
        return pgettext("tile name", "%(colour)s straw %(weight)s") % params
    if material == "wood":
        return pgettext("tile name", "%(colour)s wood %(weight)s") % params
    return pgettext("tile name", "%(colour)s stone %(weight)s") % params


def tile_description(tile) -> str:
    """The tile with its symbol and what it does: for text alternatives and tooltips."""
    t = _tile(tile)
    symbol = SYMBOL_WORDS[t["colour"]]
    if t["kind"] == "coal":
        return _("%(tile)s, weight 1, symbol: %(symbol)s; sets straw on fire") % {
            "tile": tile_name(t), "symbol": symbol}
    if t["kind"] == "blowtorch":
        return _("%(tile)s, weight 7, symbol: %(symbol)s; sets straw and wood on fire") % {
            "tile": tile_name(t), "symbol": symbol}
    if t["kind"] == "millstone":
        return _("%(tile)s, weight 200, stone, matches every colour") % {"tile": tile_name(t)}
    return _("%(tile)s, symbol: %(symbol)s") % {"tile": tile_name(t), "symbol": symbol}


def names_list(items: list[str]) -> str:
    """["a", "b", "c"] as "a, b and c"."""
    items = [str(i) for i in items]
    if not items:
        return _("nothing")
    if len(items) == 1:
        return items[0]
    return _("%(first)s and %(last)s") % {"first": ", ".join(items[:-1]), "last": items[-1]}


def tiles_list(tiles) -> str:
    """Tile names joined in words."""
    return names_list([tile_name(t) for t in tiles])


def _name(names: list[str], seat) -> str:
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return _("a player") if seat is None else _("Player %(n)s") % {"n": int(seat) + 1}


def row_text(r: int) -> str:
    """A row in words; rows count from 1 at the bottom."""
    if r == 0:
        return _("in the bottom row")
    return _("in row %(row)s") % {"row": r + 1}


# -- spots and moves ------------------------------------------------------------------

def spot_text(view: dict, r: int, x: int) -> str:
    """Where a spot is, named by the tiles around it ("on red wood 20 and blue stone 60")."""
    board = {(t["r"], t["x"]): t for t in view.get("pyramid", [])}
    kind = next((s["kind"] for s in view.get("spots", []) if s["r"] == r and s["x"] == x), None)
    if r >= 1:
        left, right = board.get((r - 1, x - 1)), board.get((r - 1, x + 1))
        if left and right:
            return _("on %(left)s and %(right)s") % {"left": tile_name(left), "right": tile_name(right)}
        return row_text(r)
    if kind == "start" or not board:
        return _("in the middle of the empty table")
    ground = sorted(cx for (cr, cx) in board if cr == 0)
    lefts = [cx for cx in ground if cx < x]
    rights = [cx for cx in ground if cx > x]
    if not lefts and rights:
        return _("at the left end of the bottom row, next to %(tile)s") % {
            "tile": tile_name(board[(0, rights[0])])}
    if not rights and lefts:
        return _("at the right end of the bottom row, next to %(tile)s") % {
            "tile": tile_name(board[(0, lefts[-1])])}
    if lefts and rights:
        lx, rx = lefts[-1], rights[0]
        left, right = tile_name(board[(0, lx)]), tile_name(board[(0, rx)])
        if lx == x - 2 and rx == x + 2:
            return _("in the bottom row between %(left)s and %(right)s") % {"left": left, "right": right}
        if lx == x - 2:
            return _("in the bottom row, right next to %(tile)s") % {"tile": left}
        if rx == x + 2:
            return _("in the bottom row, left next to %(tile)s") % {"tile": right}
        n = (x - lx) // 2
        return ngettext("in the bottom row, %(n)s place right of %(tile)s",
                        "in the bottom row, %(n)s places right of %(tile)s", n) % {
            "n": n, "tile": left}
    return row_text(r)


def move_label(move: dict, view: dict) -> str:
    """A button text: "Place red wood 20 on yellow straw 4 and blue wood 10"."""
    kind = move.get("type")
    if kind == "place":
        return _("Place %(tile)s %(where)s") % {
            "tile": tile_name(move["tile"]), "where": spot_text(view, move["r"], move["x"])}
    if kind == "fall":
        pending = view.get("pending") or {}
        tile = tile_name(pending["tile"]) if pending.get("tile") else _("the falling tile")
        if move.get("direction") == "left":
            return _("Let %(tile)s fall to the left") % {"tile": tile}
        return _("Let %(tile)s fall to the right") % {"tile": tile}
    return str(kind or "?")


# -- the log ----------------------------------------------------------------------------

def _pile(names, seat) -> str:
    return _("%(name)s's pile") % {"name": _name(names, seat)}


def _under(sent, names, to) -> str:
    """"A and B go under Ana's pile"."""
    if to is None:  # meant for a player who left: out of the game
        return _gone(sent)
    return ngettext("%(tiles)s goes under %(pile)s", "%(tiles)s go under %(pile)s", len(sent)) % {
        "tiles": tiles_list(sent), "pile": _pile(names, to)}


def _gone(tiles) -> str:
    """"the yellow coal leaves the game"."""
    return ngettext("%(tiles)s leaves the game", "%(tiles)s leave the game", len(tiles)) % {
        "tiles": tiles_list(tiles)}


def _start_line(entry, names) -> str:
    each = (entry.get("hand_sizes") or [0])[0] + (entry.get("pile_sizes") or [0])[0]
    parts = [_("The game starts: %(players)s players, %(each)s tiles each; %(name)s plays first.") % {
        "players": entry.get("players", len(names)), "each": each,
        "name": _name(names, entry.get("first"))}]
    board = [t for _r, _x, t in entry.get("board", [])]
    if board:
        parts.append(ngettext("The leftover tile starts the bottom row: %(tiles)s.",
                              "The leftover tiles start the bottom row: %(tiles)s.", len(board))
                     % {"tiles": tiles_list(board)})
    removed = entry.get("removed") or []
    if removed:
        parts.append(ngettext("A leftover fire tile leaves the game: %(tiles)s.",
                              "Leftover fire tiles leave the game: %(tiles)s.", len(removed))
                     % {"tiles": tiles_list(removed)})
    return " ".join(parts)


def _roll_line(entry, names) -> str:
    value, result = entry.get("value"), entry.get("result")
    fire = entry.get("incendiaries") or []
    sent = entry.get("sent") or []
    out = entry.get("out") or []
    params = {"value": value, "fire": tiles_list(fire)}
    if result == "smoke":
        return _("Fire Die: %(value)s, only smoke. Nothing burns and %(fire)s stays.") % params
    under = _under(sent, names, entry.get("to")) if sent else _("nothing goes back")
    params["under"] = under
    if result == "explosion":
        params["gone"] = _gone(out)
        return _("Fire Die: %(value)s, explosion! %(gone)s; %(under)s.") % params
    if result == "fire_removed":
        params["gone"] = _gone(out)
        return _("Fire Die: %(value)s, fire! %(under)s, and %(gone)s.") % params
    return _("Fire Die: %(value)s, fire! %(under)s; %(fire)s stays in the pyramid.") % params


def log_line(entry: dict, view: dict, names: list[str]) -> str:
    """One log entry in words."""
    kind = entry.get("kind")
    if kind == "start":
        return _start_line(entry, names)
    if kind == "turn":
        return _("Turn %(turn)s: %(name)s plays.") % {"turn": entry.get("turn"),
                                                       "name": _name(names, entry.get("seat"))}
    if kind == "place":
        params = {"name": _name(names, entry.get("seat")), "tile": tile_name(entry["tile"]),
                  "where": row_text(entry.get("r", 0))}
        if entry.get("sound", True):
            return _("%(name)s placed %(tile)s %(where)s; it holds.") % params
        return _("%(name)s placed %(tile)s %(where)s, against the building rules!") % params
    if kind == "fall":
        # The tile opens the sentence: "Red wood 20 falls...", not "red wood 20 falls...".
        params = {"name": _name(names, entry.get("seat")),
                  "tile": capfirst(tile_name(entry["tile"])), "where": row_text(entry["to"][0])}
        if entry.get("direction") == "left":
            return _("%(tile)s falls to the left, %(where)s (%(name)s chose).") % params
        return _("%(tile)s falls to the right, %(where)s (%(name)s chose).") % params
    if kind == "collapse":
        return _("Collapse! %(tile)s does not hold: %(under)s.") % {
            "tile": tile_name(entry["tile"]), "under": _under(entry.get("sent") or [], names,
                                                               entry.get("to"))}
    if kind == "explosion":
        sent = entry.get("sent") or []
        params = {"fire": tiles_list(entry.get("incendiaries") or []),
                  "gone": _gone(entry.get("out") or [])}
        if not sent:
            return _("Explosion! %(fire)s touch: %(gone)s.") % params
        params["under"] = _under(sent, names, entry.get("to"))
        return _("Explosion! %(fire)s touch: %(gone)s; %(under)s.") % params
    if kind == "fire":
        return _("Fire! %(fire)s sets the pyramid alight: %(under)s, and %(gone)s.") % {
            "fire": tiles_list(entry.get("incendiaries") or []),
            "under": _under(entry.get("sent") or [], names, entry.get("to")),
            "gone": _gone(entry.get("out") or [])}
    if kind == "roll":
        return _roll_line(entry, names)
    if kind == "curse":
        sent = entry.get("sent") or []
        weight = _tile(sent[0])["weight"] if sent else ""
        return _("The Curse! Three %(weight)s in a mini-pyramid: %(under)s, the previous player.") % {
            "weight": weight, "under": _under(sent, names, entry.get("to"))}
    if kind == "draw":
        name = _name(names, entry.get("seat"))
        count = entry.get("count", 0)
        known = entry.get("known") or []
        if "tiles" in entry:
            return _("You drew %(tiles)s.") % {"tiles": tiles_list(entry["tiles"])}
        if known:
            return ngettext("%(name)s drew %(count)s tile, among them %(known)s from the known "
                            "bottom of the pile.",
                            "%(name)s drew %(count)s tiles, among them %(known)s from the known "
                            "bottom of the pile.", count) % {
                "name": name, "count": count, "known": tiles_list(known)}
        return ngettext("%(name)s drew %(count)s tile.", "%(name)s drew %(count)s tiles.", count) % {
            "name": name, "count": count}
    if kind == "resign":
        return ngettext("%(name)s left the game; their %(count)s tile leaves the game unseen.",
                        "%(name)s left the game; their %(count)s tiles leave the game unseen.",
                        entry.get("tiles", 0)) % {"name": _name(names, entry.get("seat")),
                                                  "count": entry.get("tiles", 0)}
    if kind == "win" and entry.get("reason") == "others_left":
        return _("%(name)s is the last player in the game and wins!") % {
            "name": _name(names, entry.get("seat"))}
    if kind == "win":
        return _("%(name)s has no tiles left and wins!") % {"name": _name(names, entry.get("seat"))}
    return ""


# -- previews ---------------------------------------------------------------------------

COUNT_MESSAGES = {
    "This placement will collapse: {count} tiles come back to you.": lambda n: ngettext(
        "This placement will collapse: {count} tile comes back to you.",
        "This placement will collapse: {count} tiles come back to you.", n),
    "This move causes mayhem: {count} tiles come back to you.": lambda n: ngettext(
        "This move causes mayhem: {count} tile comes back to you.",
        "This move causes mayhem: {count} tiles come back to you.", n),
}


def preview_text(preview: dict, names: list[str], seat: int | None) -> str:
    """The rules' own preview sentence, translated, with who else receives tiles."""
    params = {k: v for k, v in (preview.get("params") or {}).items()}
    plural = COUNT_MESSAGES.get(preview.get("message"))
    if plural is not None and isinstance(params.get("count"), int):
        # "1 tiles": the rules' English template has no singular; pick the plural form here.
        text = plural(params["count"]).format(**params)
    else:
        text = _(preview["message"]).format(**params) if preview.get("message") else ""
    if preview["move"].get("type") == "fall":
        lo, hi = preview["back"]["min"], preview["back"]["max"]
        if preview.get("quiet"):
            text = _("The tile comes to rest: nothing else happens.")
        elif lo == hi:
            text = ngettext("After this fall %(count)s tile comes back to you.",
                            "After this fall %(count)s tiles come back to you.", lo) % {"count": lo}
        else:
            text = _("After this fall %(min)s to %(max)s tiles come back to you.") % {
                "min": lo, "max": hi}
    extra = []
    others: dict[int, list[int]] = {}
    for outcome in preview.get("outcomes", []):
        for other, n in outcome.get("to_piles", {}).items():
            if int(other) != seat:
                others.setdefault(int(other), []).append(n)
    for other, counts in sorted(others.items()):
        lo, hi = min(counts), max(counts)
        if len(counts) < len(preview.get("outcomes", [])):
            lo = 0
        if lo == hi:
            extra.append(ngettext("%(count)s tile goes to %(name)s.", "%(count)s tiles go to %(name)s.",
                                  hi) % {"count": hi, "name": _name(names, other)})
        else:
            extra.append(_("%(min)s to %(max)s tiles go to %(name)s.") % {
                "min": lo, "max": hi, "name": _name(names, other)})
    choosers = [c for c in preview.get("choosers", []) if c != seat]
    if choosers:
        extra.append(_("%(names)s will choose how tiles fall.") % {
            "names": names_list([_name(names, c) for c in choosers])})
    elif preview.get("depends_on_choice"):
        extra.append(_("You will choose how tiles fall."))
    return " ".join([text, *extra]).strip()


def preview_badge(preview: dict) -> tuple[str, str]:
    """A badge for a spot or a tile and its tone: ✓ when nothing happens, else the tiles
    coming back to the viewer ("+2", "+0–3"), ✶ for mayhem that costs the viewer nothing."""
    if preview.get("quiet"):
        return "✓", "ok"
    lo, hi = preview["back"]["min"], preview["back"]["max"]
    if hi == 0:
        return "✶", "mayhem"
    die = "⚄" if preview.get("depends_on_chance") else ""
    return (f"{die}+{lo}" if lo == hi else f"{die}+{lo}–{hi}"), "bad"


def material_word(material: str) -> str:
    """A material's translated name ("straw")."""
    return str(MATERIAL_WORDS.get(material, material))


# -- the results panel ------------------------------------------------------------------------

def results(view: dict, outcome: dict, names: list[str]) -> dict:
    """The end of the game: fewest tiles left first (hand and draw pile), and why."""
    seats = view.get("seats") or []
    order = sorted(range(len(seats)), key=lambda s: (s != view.get("winner"), seats[s]["tiles"], s))
    rows, place, previous = [], 0, None
    for k, s in enumerate(order):
        left = seats[s]["tiles"]
        if s == view.get("winner"):
            place = 1
        elif left != previous:
            place = k + 1
        previous = left
        rows.append({"position": s, "place": place, "columns": [
            ngettext("%(n)s tile", "%(n)s tiles", left) % {"n": left},
            ngettext("%(n)s in hand", "%(n)s in hand", seats[s]["hand_size"]) % {"n": seats[s]["hand_size"]},
            ngettext("%(n)s in the pile", "%(n)s in the pile", seats[s]["pile_size"]) % {
                "n": seats[s]["pile_size"]},
        ]})
    why = ""
    winner = view.get("winner")
    if winner is not None and 0 <= winner < len(names):
        why = _("%(name)s placed their last tile: no tiles left in hand or pile. The others are "
                "ranked by the tiles they still have.") % {"name": names[winner]}
    return {"headers": [_("Tiles left"), _("In hand"), _("In the pile")], "rows": rows, "why": why}


def score_text(score) -> str:
    """A final score in results lists: the rules score minus the tiles still owned."""
    left = abs(int(score))
    if left == 0:
        return _("no tiles left")
    return ngettext("%(n)s tile left", "%(n)s tiles left", left) % {"n": left}
