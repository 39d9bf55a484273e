"""Gizmos in words: button labels and log lines, translated.

A card is named by its effect in a few words ("Build red or blue → 1 Pick"), from the
same template fragment the board prints on the card, so log and board agree.
"""

from __future__ import annotations

import html

from django.template.loader import render_to_string
from django.utils.translation import get_language, gettext as _, gettext_lazy, ngettext, pgettext_lazy

from games.gizmos.rules import CARDS, COLORS
from games.gizmos.rules.cards import public_card

COLOR_NAMES = {
    "red": pgettext_lazy("energy colour", "red"),
    "yellow": pgettext_lazy("energy colour", "yellow"),
    "blue": pgettext_lazy("energy colour", "blue"),
    "black": pgettext_lazy("energy colour", "black"),
    "any": pgettext_lazy("energy colour", "any colour"),
}
# The new-table form's word on the expert here (games.tables.plugins.LEVEL_DESCRIPTIONS): its
# rollouts stop ROLLOUT_DECISIONS (24) decisions on and are scored there; 387/400 against
# "strong" at two players (docs/games/gizmos.md).
LEVEL_DESCRIPTIONS = {
    "expert": gettext_lazy("Tries its best moves on many guesses of the hidden cards, playing "
                           "some two dozen decisions ahead with the fast level’s judgement, and "
                           "keeps the one that comes out best. At two players it beats “strong” "
                           "in about nineteen games of twenty."),
}
ROMAN = {0: "0", 1: "I", 2: "II", 3: "III"}
# Log entries that belong to a gizmo's chain when a gizmo was used earlier in the turn.
CHAIN_KINDS = {"pick", "file", "build", "research", "research_draw", "decline", "research_end"}

_texts: dict[tuple[str, str], str] = {}


def color_name(color: str) -> str:
    """A colour's translated name."""
    return str(COLOR_NAMES.get(color, color))


def colors_text(counts: dict) -> str:
    """{"red": 2, "blue": 1} as "2 red, 1 blue"."""
    parts = [f"{counts[c]} {color_name(c)}" for c in (*COLORS, "any") if counts.get(c)]
    return ", ".join(parts) if parts else _("nothing")


def card_text(cid: str) -> str:
    """A card's effect in a few words, in the current language (as printed on the board)."""
    key = (get_language() or "", cid)
    if key not in _texts:
        raw = render_to_string("gizmos/_card_text.html", {"c": public_card(cid)})
        _texts[key] = html.unescape(" ".join(raw.split()))
    return _texts[key]


def card_name(cid: str) -> str:
    """“Build red → 1 Pick” (blue, level I)."""
    card = CARDS.get(cid)
    if card is None:
        return cid
    if card["starter"]:
        return _("“%(text)s” (starting gizmo)") % {"text": card_text(cid)}
    return _("“%(text)s” (%(color)s, level %(level)s)") % {
        "text": card_text(cid), "color": color_name(card["color"]), "level": ROMAN[card["level"]]}


def _names_list(items: list[str]) -> str:
    return ", ".join(items)


# -- buttons --------------------------------------------------------------------------------

def move_label(move: dict, view: dict) -> str:
    """A button text for `move`."""
    kind = move.get("type")
    turn = view.get("turn") or {}
    phase = turn.get("phase")
    if kind == "pick":
        return _("Pick %(color)s") % {"color": color_name(move["color"])}
    if kind == "file":
        return _("File %(card)s") % {"card": card_name(move["card"])}
    if kind == "build":
        if phase == "free_build":
            return _("Build %(card)s for free") % {"card": card_name(move["card"])}
        you = view.get("you")
        seats = view.get("seats") or []
        if phase == "main" and you is not None and move["card"] in seats[you]["archive"]:
            text = _("Build %(card)s from your Archive") % {"card": card_name(move["card"])}
        else:
            text = _("Build %(card)s") % {"card": card_name(move["card"])}
        if "spend" in move:
            text += ", " + _("paying %(energy)s") % {"energy": colors_text(move["spend"])}
        return text
    if kind == "research":
        return _("Research level %(level)s") % {"level": ROMAN.get(move["level"], move["level"])}
    if kind == "pass":
        return _("Pass (no action is possible)")
    if kind == "spend":
        return _("Spend 1 %(color)s") % {"color": color_name(move["color"])}
    if kind == "convert":
        pool = (turn.get("payment") or {}).get("pool") or []
        unit = pool[move["unit"]][0] if move["unit"] < len(pool) else "?"
        args = {"gizmo": card_text(move["gizmo"]), "from": color_name(unit),
                "to": color_name(move.get("to", unit))}
        if "to" in move:
            return _("Turn %(from)s into %(to)s (%(gizmo)s)") % args
        return _("Double %(from)s (%(gizmo)s)") % args
    if kind == "pay":
        return pay_label(move, view)
    if kind == "cancel":
        return _("Call off this build")
    if kind == "use_all":
        return _("Use all automatic gizmos (VP and random energy)")
    if kind == "auto":
        if move.get("on"):
            return _("Use them now, and by themselves from now on")
        return _("Stop using automatic gizmos by themselves")
    if kind == "decline":
        return _("Take none of them")
    if kind == "bottom":
        return _("Put %(card)s under the deck next") % {"card": card_name(move["card"])}
    if kind == "use":
        if "color" in move:
            return _("Use %(card)s and pick %(color)s") % {"card": card_name(move["gizmo"]),
                                                          "color": color_name(move["color"])}
        return _("Use %(card)s") % {"card": card_name(move["gizmo"])}
    if kind == "end_turn":
        return _("End your turn")
    if kind == "stop":
        return _("Stop: skip the rest of this effect")
    return kind or "?"


def pay_label(move: dict, view: dict) -> str:
    """“Pay 1 yellow, 1 blue (with “yellow → any”), keep 1 red”."""
    spend = move.get("spend") or {}
    plans = ((view.get("turn") or {}).get("payment") or {}).get("plans") or []
    plan = next((p for p in plans if p["spend"] == spend), None)
    text = _("Pay %(energy)s") % {"energy": colors_text(spend)}
    if plan and plan["converters"]:
        text += " " + _("(with %(cards)s)") % {
            "cards": _names_list(["“%s”" % card_text(g) for g in plan["converters"]])}
    if plan is not None:
        text += ", " + _("keep %(energy)s") % {"energy": colors_text(plan["left"])}
    return text


# -- the log --------------------------------------------------------------------------------

def _in_chain(entry: dict, view: dict) -> bool:
    """Whether a gizmo was used earlier in this turn (the entry is part of its chain)."""
    log = view.get("log") or []
    index = view.get("_log_index")
    if index is None or len(index) != len(log):
        index = {id(e): i for i, e in enumerate(log)}
        view["_log_index"] = index
    i = index.get(id(entry))
    if i is None:
        return False
    for earlier in reversed(log[:i]):
        if earlier["kind"] == "use":
            return True
        if earlier["kind"] == "turn":
            return False
    return False


def _armed(entry: dict) -> str:
    armed = entry.get("armed") or []
    if not armed:
        return ""
    return " " + ngettext("→ triggers %(cards)s.", "→ triggers %(cards)s.", len(armed)) % {
        "cards": _names_list([card_name(g) for g in armed])}


def log_line(entry: dict, view: dict, names: list[str]) -> str:
    """One log entry in words; chained effects start with an arrow."""
    text = _log_text(entry, view, names)
    if entry.get("kind") in CHAIN_KINDS and _in_chain(entry, view):
        text = "↳ " + text
    return text


def _log_text(entry: dict, view: dict, names: list[str]) -> str:
    def name(seat):
        return names[seat] if seat is not None and 0 <= seat < len(names) else "?"

    kind = entry.get("kind")
    who = name(entry.get("seat"))
    if kind == "start":
        return _("The game starts: %(name)s is the first player. Energy row: %(row)s.") % {
            "name": name(entry["first"]), "row": ", ".join(color_name(c) for c in entry["row"])}
    if kind == "turn":
        return _("Round %(round)s: %(name)s's turn.") % {"round": entry["round"], "name": who}
    if kind == "file":
        args = {"name": who, "card": card_name(entry["card"])}
        if entry.get("source") == "research":
            text = _("%(name)s filed %(card)s from their research into the Archive.") % args
        else:
            text = _("%(name)s filed %(card)s from the display into the Archive.") % args
        if entry.get("refill"):
            text += " " + _("New in the display: %(card)s.") % {"card": card_name(entry["refill"])}
        return text + _armed(entry)
    if kind == "pick":
        text = _("%(name)s picked %(color)s from the row.") % {
            "name": who, "color": color_name(entry["color"])}
        return text + _armed(entry)
    if kind == "build":
        card = card_name(entry["card"])
        source = entry.get("source")
        if source == "archive":
            text = _("%(name)s built %(card)s from the Archive") % {"name": who, "card": card}
        elif source == "research":
            text = _("%(name)s built %(card)s from their research") % {"name": who, "card": card}
        else:
            text = _("%(name)s built %(card)s from the display") % {"name": who, "card": card}
        if entry.get("free"):
            text += ", " + _("for free")
        elif entry.get("paid"):
            text += ", " + _("paying %(energy)s") % {"energy": colors_text(entry["paid"])}
        else:
            text += ", " + _("paying nothing")
        if entry.get("converters"):
            text += " " + _("(converted with %(cards)s)") % {
                "cards": _names_list([card_text(g) for g in entry["converters"]])}
        text += "."
        if entry.get("refill"):
            text += " " + _("New in the display: %(card)s.") % {"card": card_name(entry["refill"])}
        return text + _armed(entry)
    if kind == "row_refill":
        return _("The energy row refills: %(colors)s.") % {
            "colors": ", ".join(color_name(c) for c in entry["colors"])}
    if kind == "research":
        return ngettext(
            "%(name)s researches level %(level)s and draws %(count)s card.",
            "%(name)s researches level %(level)s and draws %(count)s cards.", entry["count"]) % {
            "name": who, "level": ROMAN.get(entry["level"], entry["level"]), "count": entry["count"]}
    if kind == "research_draw":
        # Only in the researcher's own log (the view drops it for everybody else).
        return _("You drew: %(cards)s.") % {
            "cards": _names_list([card_name(c) for c in entry["cards"]]) or _("nothing")}
    if kind == "decline":
        return _("%(name)s takes none of the researched cards.") % {"name": who}
    if kind == "research_end":
        return ngettext(
            "%(name)s puts %(count)s card back under the level %(level)s deck.",
            "%(name)s puts %(count)s cards back under the level %(level)s deck.", entry["returned"]) % {
            "name": who, "count": entry["returned"], "level": ROMAN.get(entry["level"], entry["level"])}
    if kind == "use":
        args = {"name": who, "card": card_name(entry["gizmo"])}
        effect = entry.get("effect")
        if effect == "draw":
            drawn = entry.get("colors") or []
            if drawn:
                return ngettext(
                    "→ %(name)s used %(card)s: drew %(count)s random energy: %(colors)s.",
                    "→ %(name)s used %(card)s: drew %(count)s random energy: %(colors)s.",
                    len(drawn)) % {**args, "count": len(drawn),
                                   "colors": ", ".join(color_name(c) for c in drawn)}
            return _("→ %(name)s used %(card)s but drew nothing.") % args
        if effect == "vp":
            return _("→ %(name)s used %(card)s: +%(vp)s VP.") % {**args, "vp": entry.get("vp", 0)}
        if effect == "pick":
            return ngettext("→ %(name)s used %(card)s: %(count)s Pick.",
                            "→ %(name)s used %(card)s: %(count)s Picks.", entry.get("count", 1)) % {
                **args, "count": entry.get("count", 1)}
        if effect == "file":
            return _("→ %(name)s used %(card)s: a File action.") % args
        if effect == "research":
            return _("→ %(name)s used %(card)s: a Research action.") % args
        return _("→ %(name)s used %(card)s: a free level I build.") % args
    if kind == "stop":
        return _("%(name)s stops the effect of %(card)s.") % {"name": who, "card": card_name(entry["gizmo"])}
    if kind == "pass":
        return _("%(name)s cannot act and passes.") % {"name": who}
    if kind == "cancel":
        return _("%(name)s calls off building %(card)s.") % {"name": who, "card": card_name(entry["card"])}
    if kind == "auto":
        if entry.get("on"):
            return _("%(name)s has automatic gizmos used by themselves from now on.") % {"name": who}
        return _("%(name)s uses automatic gizmos by hand again.") % {"name": who}
    if kind == "end_triggered":
        return _("%(name)s has %(gizmos)s gizmos, %(level3)s of level III: the game ends after "
                 "this round.") % {"name": who, "gizmos": entry["gizmos"], "level3": entry["level3"]}
    if kind == "end_turn":
        return _("%(name)s ends their turn.") % {"name": who}
    if kind == "resign":
        return ngettext("%(name)s left the game; their %(count)s energy goes back into the "
                        "dispenser and their gizmos stop working.",
                        "%(name)s left the game; their %(count)s energy go back into the "
                        "dispenser and their gizmos stop working.",
                        entry.get("energy", 0)) % {"name": who, "count": entry.get("energy", 0)}
    if kind == "game_end":
        scores = entry.get("scores") or {}
        parts = ", ".join(_("%(name)s %(vp)s VP") % {"name": name(int(s)), "vp": v}
                          for s, v in sorted(scores.items(), key=lambda kv: -kv[1]))
        winners = _names_list([name(w) for w in entry.get("winners") or []])
        if entry.get("reason") == "others_left":
            text = _("Everyone else left: the game is over. %(scores)s.") % {"scores": parts}
        elif entry.get("reason") == "stalemate":
            text = _("Nobody can act any more: the game is over. %(scores)s.") % {"scores": parts}
        else:
            text = _("Game over: %(scores)s.") % {"scores": parts}
        tiebreak = entry.get("tiebreak")
        if tiebreak == "gizmos":
            text += " " + _("%(names)s wins the tie with more gizmos.") % {"names": winners}
        elif tiebreak == "energy":
            text += " " + _("%(names)s wins the tie with more energy left.") % {"names": winners}
        elif tiebreak == "turn_order":
            text += " " + _("%(names)s wins the tie by playing later in turn order.") % {"names": winners}
        else:
            text += " " + _("%(names)s wins.") % {"names": winners}
        return text
    return ""


# -- the results panel ------------------------------------------------------------------------

def results(view: dict, outcome: dict, names: list[str]) -> dict:
    """The end of the game: the ranking by VP with its tie-breaks, and why the winner won."""
    final = view.get("outcome") or {}
    ranking = final.get("ranking") or [p["seat"] for p in view.get("seats", [])]
    seats = {p["seat"]: p for p in view.get("seats", [])}
    rows = []
    for k, s in enumerate(ranking):
        p = seats[s]
        rows.append({"position": s, "place": k + 1, "columns": [
            str(p["vp"]), str(p["gizmo_count"]), str(p["stored"])]})
    why = ""
    if ranking:
        top = seats[ranking[0]]
        name = names[ranking[0]] if ranking[0] < len(names) else "?"
        tiebreak = final.get("tiebreak")
        if tiebreak == "gizmos":
            why = _("%(name)s wins: tied on victory points (%(vp)s), with more gizmos (%(n)s).") % {
                "name": name, "vp": top["vp"], "n": top["gizmo_count"]}
        elif tiebreak == "energy":
            why = _("%(name)s wins: tied on victory points and gizmos, with more energy left "
                    "(%(n)s).") % {"name": name, "n": top["stored"]}
        elif tiebreak == "turn_order":
            why = _("%(name)s wins: tied on everything, and later in turn order.") % {"name": name}
        else:
            why = _("%(name)s has the most victory points: %(vp)s.") % {"name": name, "vp": top["vp"]}
    return {"headers": [_("VP"), _("Gizmos"), _("Energy")], "rows": rows, "why": why}
