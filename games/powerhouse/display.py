"""Powerhouse in words: button labels and log lines, translated.

Pieces are named from their colour and size adjectives ("a large red pyramid",
"your green medium reactor"); each pattern has its own message so a translation
can reorder the words and make them agree.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext, pgettext_lazy

# The new-table form's word on the expert here (games.tables.plugins.LEVEL_DESCRIPTIONS): its
# rollouts stop four turns on and it keeps the strong bot's move unless another beats it on
# the same deals; 267/400 against "strong" at two players (docs/games/powerhouse.md).
LEVEL_DESCRIPTIONS = {
    "expert": gettext_lazy("Tries its best moves on many shuffles of the bag, each played a few "
                           "turns ahead on the same draws, and keeps the strong level’s move "
                           "unless another clearly does better. At two players it beats "
                           "“strong” in about two games of three."),
}

COLOR_WORDS = {
    "red": pgettext_lazy("pyramid colour", "red"),
    "yellow": pgettext_lazy("pyramid colour", "yellow"),
    "green": pgettext_lazy("pyramid colour", "green"),
    "blue": pgettext_lazy("pyramid colour", "blue"),
    "purple": pgettext_lazy("pyramid colour", "purple"),
}
COLOR_WORDS_PLURAL = {
    "red": pgettext_lazy("pyramid colour, plural", "red"),
    "yellow": pgettext_lazy("pyramid colour, plural", "yellow"),
    "green": pgettext_lazy("pyramid colour, plural", "green"),
    "blue": pgettext_lazy("pyramid colour, plural", "blue"),
    "purple": pgettext_lazy("pyramid colour, plural", "purple"),
}
SIZE_WORDS = {
    "S": pgettext_lazy("pyramid size", "small"),
    "M": pgettext_lazy("pyramid size", "medium"),
    "L": pgettext_lazy("pyramid size", "large"),
}
SIZE_WORDS_PLURAL = {
    "S": pgettext_lazy("pyramid size, plural", "small"),
    "M": pgettext_lazy("pyramid size, plural", "medium"),
    "L": pgettext_lazy("pyramid size, plural", "large"),
}


def _split(piece: str) -> tuple[str, str]:
    color, _dash, size = str(piece).rpartition("-")
    return color, size


def color_word(color: str) -> str:
    """A colour's translated adjective."""
    return str(COLOR_WORDS.get(color, color))


def size_word(size: str) -> str:
    """A size's translated adjective ("S" -> "small")."""
    return str(SIZE_WORDS.get(size, size))


def piece_text(piece: str) -> str:
    """"red-L" as "large red pyramid"."""
    color, size = _split(piece)
    return pgettext("one pyramid: size, colour", "%(size)s %(color)s pyramid") % {
        "size": size_word(size), "color": color_word(color)}


def pieces_text(piece: str) -> str:
    """"red-L" as "large red pyramids"."""
    color, size = _split(piece)
    return pgettext("pyramids: size, colour", "%(size)s %(color)s pyramids") % {
        "size": str(SIZE_WORDS_PLURAL.get(size, size)),
        "color": str(COLOR_WORDS_PLURAL.get(color, color))}


def type_text(piece: str) -> str:
    """"green-M" as "green medium", the short name of a type (reactors, buttons)."""
    color, size = _split(piece)
    return pgettext("pyramid type: colour, size", "%(color)s %(size)s") % {
        "color": color_word(color), "size": size_word(size)}


def _player(seat, names: list[str] | None = None) -> str:
    # The name the board shows; without names, seats are numbered as in the list of players.
    if names and isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return _("player %(n)s") % {"n": seat + 1 if isinstance(seat, int) else "?"}


def _count(view: dict, seat, piece: str) -> int:
    try:
        color, size = _split(piece)
        grid = view["networks"][seat]["grid"]
        return grid[view["sizes"].index(size)][view["colors"].index(color)]
    except (KeyError, IndexError, TypeError, ValueError):
        return 0


# -- buttons --------------------------------------------------------------------------------

def move_label(move: dict, view: dict, names: list[str] | None = None) -> str:
    """A button text for `move` (with the players' names as the board shows them)."""
    kind = move.get("type")
    you = view.get("you") or {}
    seat = you.get("seat")
    pending = view.get("pending") or {}
    if kind == "draw":
        if move["kind"] == "die":
            k = view.get("centre", 0) + 1
            return ngettext("Draw a die: meltdown, everyone discards %(k)s",
                            "Draw a die: meltdown, everyone discards %(k)s", k) % {"k": k}
        return _("Draw a %(size)s pyramid") % {"size": size_word(move["kind"])}
    if kind == "fire":
        piece = move["piece"]
        if _count(view, seat, piece) >= 3:
            return _("Fire your stable %(type)s reactor") % {"type": type_text(piece)}
        return _("Fire your %(type)s reactor") % {"type": type_text(piece)}
    if kind == "battery":
        return _("Use your %(color)s battery") % {"color": color_word(move["color"])}
    if kind == "dump":
        if pending.get("action") == "dump":
            return _("Major Dump: discard your %(type)s") % {"type": type_text(move["piece"])}
        return _("Major Dump: start with your %(type)s") % {"type": type_text(move["piece"])}
    if kind == "stop":
        return _("Stop the Major Dump")
    if kind == "end":
        return _("End your turn")
    if kind == "give":
        return _("Give the %(type)s to %(player)s") % {
            "type": type_text(pending.get("piece", "")), "player": _player(move["to"], names)}
    if kind == "take":
        return _("Take a %(piece)s from %(player)s") % {
            "piece": piece_text(move["piece"]), "player": _player(pending.get("to"), names)}
    if kind == "vapor":
        return _("Vapor: take nothing back")
    if kind == "discard":
        if pending.get("action") == "battery":
            return _("Battery: discard the %(type)s") % {"type": type_text(move["piece"])}
        return _("Discard a %(piece)s") % {"piece": piece_text(move["piece"])}
    if kind == "transform":
        return _("Battery: give away the %(type)s") % {"type": type_text(move["piece"])}
    return str(kind or "?")


# -- the log ----------------------------------------------------------------------------------

def log_line(entry: dict, view: dict, names: list[str]) -> str:
    """One log entry in words, from the entry alone."""
    def name(seat) -> str:
        return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"

    kind = entry.get("kind")
    who = name(entry.get("seat"))
    if kind == "setup":
        hands = "; ".join(
            _("%(name)s: %(pieces)s") % {"name": name(p),
                                          "pieces": ", ".join(type_text(x) for x in pieces)}
            for p, pieces in enumerate(entry.get("networks", [])))
        return _("Everyone draws a small, a medium and a large pyramid (%(hands)s). "
                 "%(name)s plays first.") % {"hands": hands, "name": name(entry.get("first"))}
    if kind == "draw":
        return _("%(name)s drew a %(piece)s.") % {"name": who, "piece": piece_text(entry["piece"])}
    if kind == "meltdown":
        k = entry.get("dice", 0)
        return ngettext("%(name)s drew a die. Meltdown! Everyone discards %(k)s.",
                        "%(name)s drew a die. Meltdown! Everyone discards %(k)s.", k) % {
            "name": who, "k": k}
    if kind == "discard":
        piece = piece_text(entry["piece"])
        reason = entry.get("reason")
        if reason == "battery":
            return _("%(name)s discarded a %(piece)s from the battery.") % {
                "name": who, "piece": piece}
        if reason == "major_dump":
            return _("%(name)s dumped a %(piece)s back into the bag.") % {
                "name": who, "piece": piece}
        if entry.get("forced"):
            return _("%(name)s had to discard a %(piece)s.") % {"name": who, "piece": piece}
        return _("%(name)s discarded a %(piece)s.") % {"name": who, "piece": piece}
    if kind == "dice_return":
        return _("That was the third die: all three dice go back into the bag.")
    if kind == "major_dump":
        return _("%(name)s holds two powerhouses and starts a Major Dump of the %(size)s row.") % {
            "name": who, "size": size_word(entry.get("size", ""))}
    if kind == "give":
        return _("%(name)s gave a %(piece)s to %(to)s.") % {
            "name": who, "piece": piece_text(entry["piece"]), "to": name(entry.get("to"))}
    if kind == "take":
        return _("%(name)s took a %(piece)s from %(from)s.") % {
            "name": who, "piece": piece_text(entry["piece"]), "from": name(entry.get("from"))}
    if kind == "vapor":
        return _("%(name)s took nothing back from %(to)s: vapor.") % {
            "name": who, "to": name(entry.get("to"))}
    if kind == "end":
        if entry.get("auto"):
            return _("%(name)s has no reaction left: the turn ends.") % {"name": who}
        return _("%(name)s ended the turn.") % {"name": who}
    if kind == "win" and entry.get("reason") == "others_left":
        return _("%(name)s is the last player in the game and wins!") % {"name": who}
    if kind == "win":
        turn_of = entry.get("turn_of")
        if turn_of is not None and turn_of != entry.get("seat"):
            return _("%(name)s has a clean powerhouse and wins, during %(other)s's turn!") % {
                "name": who, "other": name(turn_of)}
        return _("%(name)s has a clean powerhouse and wins!") % {"name": who}
    if kind == "resign":
        if "count" in entry:
            return ngettext("%(name)s left the game; their %(count)s pyramid goes back into the bag.",
                            "%(name)s left the game; their %(count)s pyramids go back into the bag.",
                            entry["count"]) % {"name": who, "count": entry["count"]}
        return _("%(name)s resigned.") % {"name": who}
    return ""


# -- the results panel ------------------------------------------------------------------------

def results(view: dict, outcome: dict, names: list[str]) -> dict:
    """The end of the game: who won and why, and what each network held.

    Powerhouse has one winner and no ranking among the others: they share second place.
    """
    winner = view.get("winner")
    rows = []
    for n in view.get("networks", []):
        seat = n["seat"]
        rows.append({
            "position": seat, "place": 1 if seat == winner else 2,
            "columns": [str(n["pieces"]), str(n["powerhouses"])],
        })
    rows.sort(key=lambda r: (r["place"], r["position"]))
    why = ""
    if winner is not None:
        network = next((n for n in view.get("networks", []) if n["seat"] == winner), None)
        size = ""
        if network:
            for z, row in enumerate(network["grid"]):
                if row and all(k == 1 for k in row):
                    size = view["sizes"][z]
        name = names[winner] if 0 <= winner < len(names) else "?"
        why = _("%(name)s has a clean powerhouse: one pyramid of each colour, all %(size)s, "
                "and nothing else.") % {"name": name, "size": str(SIZE_WORDS_PLURAL.get(size, size))}
        last = (view.get("log") or [{}])[-1]
        turn_of = last.get("turn_of")
        if last.get("kind") == "win" and turn_of is not None and turn_of != winner:
            why += " " + _("It happened during %(other)s's turn.") % {
                "other": names[turn_of] if 0 <= turn_of < len(names) else "?"}
    return {"headers": [_("Pyramids left"), _("Powerhouses")], "rows": rows, "why": why}
