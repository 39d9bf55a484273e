"""Template helpers of the table pages."""

from django import template
from django.utils.translation import gettext as _

from games.engine import get_rules

register = template.Library()


@register.simple_tag
def submission_key() -> str:
    """A fresh key for one drawn move form: a retry of that form re-sends the same key."""
    import secrets

    return secrets.token_urlsafe(16)


@register.filter
def game_name(slug: str) -> str:
    """A game's translated name from its slug."""
    try:
        return _(get_rules(slug).name)
    except KeyError:
        return slug


@register.simple_tag
def outcome_text(tv) -> str:
    """The result in words, from the table's stored outcome."""
    outcome = tv.outcome or {}
    names = {row["position"]: row["name"] for row in tv.seats}
    winners = [names.get(w, "?") for w in outcome.get("winners", [])]
    if outcome.get("reason") == "resign" and not winners:
        return _("The game ended when a player resigned.")
    if outcome.get("reason") == "abandoned":
        return _("The game was abandoned.")
    if not winners:
        return _("The game is over: nobody won.")
    if len(winners) == 1:
        return _("%(name)s won!") % {"name": winners[0]}
    return _("Shared win: %(names)s") % {"names": ", ".join(winners)}


@register.filter
def get_item(mapping, key):
    """mapping[key] in a template (also with int/str keys mixed)."""
    if mapping is None:
        return None
    try:
        return mapping[key]
    except (KeyError, IndexError, TypeError):
        try:
            return mapping[str(key)]
        except (KeyError, IndexError, TypeError):
            return None


ENDED_BY_TABLE = ("resign", "timeout", "abandoned")


@register.simple_tag
def table_results(tv) -> dict | None:
    """The results panel of a finished table: ranking, what each player had, and why.

    Each game's `display.results(view, outcome, names)` gives the columns and the reason;
    a game ended by the table itself (resignation, clocks, abandonment) is ranked here:
    the winners first, those who resigned or ran out of time last.
    """
    from games.tables.plugins import game_config

    table = tv.table
    if table.status != "finished" or tv.view is None:
        return None
    names = [row["name"] for row in tv.seats]
    outcome = tv.outcome or {}
    display = game_config(table.game).display
    if display is not None and hasattr(display, "results"):
        data = display.results(tv.view, outcome, names)
    else:
        winners = set(outcome.get("winners") or [])
        data = {"headers": [], "why": "", "rows": [
            {"position": row["position"], "place": 1 if row["position"] in winners else 2,
             "columns": []} for row in tv.seats]}
    winners = set(outcome.get("winners") or [])
    resigned = {row["position"] for row in tv.seats if row["resigned"]}
    reason = outcome.get("reason")
    rows = list(data["rows"])
    for row in rows:
        # Whoever resigned ranks after everyone who played on.
        if row["position"] in resigned and row["position"] not in winners:
            row["place"] = 1000
    others = {row["position"] for row in tv.seats} - winners
    if winners and others and others <= resigned and reason not in ENDED_BY_TABLE:
        data["why"] = _("%(name)s wins: the other players resigned.") % {
            "name": ", ".join(names[w] for w in sorted(winners) if 0 <= w < len(names))}
    if not data["why"] and winners:
        data["why"] = _("%(name)s wins.") % {
            "name": ", ".join(names[w] for w in sorted(winners) if 0 <= w < len(names))}
    if reason in ENDED_BY_TABLE:
        for row in rows:
            row["place"] = (1 if row["position"] in winners
                            else 3 if row["position"] in resigned else 2)
        win_names = [names[w] for w in sorted(winners) if 0 <= w < len(names)]
        if reason == "abandoned":
            data["why"] = _("Nobody moved for 30 days: the table was abandoned.")
        elif not win_names:
            data["why"] = _("The game ended when a player resigned.")
        elif reason == "resign":
            data["why"] = _("%(name)s wins: the other players resigned.") % {
                "name": ", ".join(win_names)}
        else:
            data["why"] = _("%(name)s wins: the other players ran out of time.") % {
                "name": ", ".join(win_names)}
    rows.sort(key=lambda r: r["place"])
    # Competition ranking: equal places share a number, the next one skips.
    places = [r["place"] for r in rows]
    by_seat = {row["position"]: row for row in tv.seats}
    for row in rows:
        row["place"] = 1 + sum(1 for p in places if p < row["place"])
        seat = by_seat.get(row["position"], {})
        row["name"] = names[row["position"]] if row["position"] < len(names) else "?"
        row["winner"] = row["position"] in winners
        row["resigned"] = row["position"] in resigned
        row["is_you"] = bool(seat.get("is_you"))
    return {"headers": data["headers"], "rows": rows, "why": data["why"]}
