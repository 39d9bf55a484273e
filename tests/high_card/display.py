"""High Card in words: button labels and log lines, translated."""

from django.utils.translation import gettext as _


def move_label(move: dict, view: dict) -> str:
    kind = move.get("type")
    if kind == "draw":
        return _("Draw a card")
    if kind == "keep":
        return _("Keep your hand")
    if kind == "play":
        return _("Play %(card)s") % {"card": move["card"]}
    return kind or "?"


def log_line(entry: dict, view: dict, names: list[str]) -> str:
    def name(seat):
        return names[seat] if seat is not None and 0 <= seat < len(names) else "?"

    kind = entry.get("kind")
    if kind == "start":
        return _("The game starts.")
    if kind == "draw":
        if "card" in entry:
            return _("You drew a %(card)s.") % {"card": entry["card"]}
        return _("%(name)s drew a card.") % {"name": name(entry["seat"])}
    if kind == "keep":
        return _("%(name)s kept their hand.") % {"name": name(entry["seat"])}
    if kind == "play":
        return _("%(name)s played a card face down.") % {"name": name(entry["seat"])}
    if kind == "reveal":
        plays = ", ".join(f"{name(int(s))}: {v}" for s, v in sorted(entry["plays"].items()))
        if entry.get("winner") is None:
            return _("Round %(round)s revealed (%(plays)s): no unique card, nobody scores.") % {
                "round": entry["round"], "plays": plays}
        return _("Round %(round)s revealed (%(plays)s): %(name)s scores.") % {
            "round": entry["round"], "plays": plays, "name": name(entry["winner"])}
    if kind == "resign":
        return _("%(name)s resigned.") % {"name": name(entry["seat"])}
    if kind == "end":
        return _("The game is over.")
    return ""
