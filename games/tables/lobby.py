"""The lobby: open tables described in full, filtered by game and player count, and the
running public games anyone may watch. Read-only queries, a bounded number each."""

from __future__ import annotations

from dataclasses import dataclass

from django import forms
from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from . import clocks
from .models import Table
from .plugins import bot_level_label, game_config, listed_games

MOST = 100  # rows per list


class LobbyFilter(forms.Form):
    """GET filters; bad values are ignored, never an error page."""

    game = forms.ChoiceField(label=gettext_lazy("Game"), required=False)
    players = forms.TypedChoiceField(label=gettext_lazy("Players"), required=False, coerce=int,
                                     empty_value=None)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        games = listed_games()
        self.fields["game"].choices = [("", _("All games"))] + [
            (g.game_slug, _(g.rules.name)) for g in games]
        low = min((g.rules.min_players for g in games), default=2)
        high = max((g.rules.max_players for g in games), default=2)
        self.fields["players"].choices = [("", _("Any number"))] + [
            (n, str(n)) for n in range(low, high + 1)]

    def filters(self) -> dict:
        if not self.is_valid():
            return {}
        return {k: v for k, v in self.cleaned_data.items() if v not in (None, "")}


@dataclass
class Row:
    table: Table
    creator: str
    players: list[str]
    bots: list[str]
    taken: int
    free: int
    time_control: str
    options: list[str]


def _options_text(table: Table) -> list[str]:
    """The table's options that differ from the game's defaults, in words."""
    try:
        rules = game_config(table.game).rules
    except KeyError:
        return []
    out = []
    for option in rules.options:
        value = (table.options or {}).get(option.key, option.default)
        if value == option.default:
            continue
        if option.kind == "bool":
            out.append(_(option.label))
        else:
            label = dict(option.choices).get(value, value)
            out.append(f"{_(option.label)}: {_(label)}")
    return out


def _row(table: Table) -> Row:
    seats = sorted(table.seats.all(), key=lambda s: s.position)
    try:
        config = game_config(table.game)
    except KeyError:
        config = None
    people = [s.user.username for s in seats if s.user_id]
    bots = [_("bot (%(level)s)") % {"level": bot_level_label(s.bot_level, config)}
            for s in seats if s.bot_level]
    free = sum(1 for s in seats if s.is_free)
    return Row(table=table, creator=table.created_by.username, players=people, bots=bots,
               taken=len(seats) - free, free=free,
               time_control=clocks.describe(table.time_control or {}), options=_options_text(table))


def _filtered(qs, filters: dict):
    games = [g.game_slug for g in listed_games()]
    qs = qs.filter(game__in=games)
    if filters.get("game"):
        qs = qs.filter(game=filters["game"])
    if filters.get("players"):
        qs = qs.filter(players=filters["players"])
    return qs


def open_rows(user, filters: dict) -> list[Row]:
    """Open tables `user` may join (public, or invited to), newest first."""
    q = Q(is_private=False)
    if user is not None and user.is_authenticated:
        q |= Q(invitations__user=user)
    qs = Table.objects.filter(q, status=Table.Status.OPEN).distinct()
    qs = _filtered(qs, filters).select_related("created_by").prefetch_related("seats__user")
    return [_row(t) for t in qs.order_by("-created_at")[:MOST]]


def watch_rows(filters: dict) -> list[Row]:
    """Running public games, most recently moved first: anyone may watch them."""
    qs = Table.objects.filter(is_private=False, status=Table.Status.RUNNING)
    qs = _filtered(qs, filters).select_related("created_by").prefetch_related("seats__user")
    return [_row(t) for t in qs.order_by("-last_event_at")[:MOST]]
