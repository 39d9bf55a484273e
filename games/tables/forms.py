"""Forms: a move, and a new table for one game."""

from __future__ import annotations

import json

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from . import clocks
from .models import Table
from .plugins import GameAppConfig, bot_level_description, bot_level_label

# A move is a small JSON document: bounded in size and nesting before it is parsed.
MOVE_MAX_CHARS = 4000
MOVE_MAX_DEPTH = 16


def json_depth(text: str) -> int:
    """The deepest nesting of arrays and objects in `text`, counted without parsing it."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def parse_move(text: str):
    """A move payload as JSON; ValueError for anything too big, too deep or unreadable."""
    if not isinstance(text, str) or len(text) > MOVE_MAX_CHARS or json_depth(text) > MOVE_MAX_DEPTH:
        raise ValueError("move too large or too deeply nested")
    try:
        return json.loads(text)
    except (TypeError, ValueError, RecursionError):
        raise ValueError("move is not JSON") from None


class MoveForm(forms.Form):
    """A move as JSON plus the table version it was chosen from.

    `key` names the submission (one per drawn form): a retry of the same form is
    recognised by the write path and answered with the first result.
    """

    move = forms.CharField(max_length=MOVE_MAX_CHARS)
    based_on = forms.IntegerField(min_value=0, max_value=2**31 - 1)
    key = forms.RegexField(regex=r"^[A-Za-z0-9_-]{8,64}$", required=False)

    def clean_move(self):
        try:
            return parse_move(self.cleaned_data["move"])
        except ValueError:
            raise forms.ValidationError(_("That move could not be read.")) from None


class InviteForm(forms.Form):
    """Invite one player by username (CharField refuses NUL characters)."""

    username = forms.CharField(max_length=150)


class NextTableForm(forms.Form):
    """`/tables/next/?after=<id>`: the table the player is on."""

    after = forms.IntegerField(min_value=1, max_value=2**63 - 1, required=False)


class BoundedDateField(forms.DateField):
    """A date the site can compute with: absurd years are refused with a message."""

    MIN_YEAR, MAX_YEAR = 2000, 2100

    def validate(self, value):
        super().validate(value)
        if value and not self.MIN_YEAR <= value.year <= self.MAX_YEAR:
            raise forms.ValidationError(
                _("Choose a date between the years %(first)s and %(last)s.")
                % {"first": self.MIN_YEAR, "last": self.MAX_YEAR}, code="date_range")


class NewTableForm(forms.Form):
    """Create a table of one game: seats, bots, options, privacy."""

    players = forms.TypedChoiceField(label=gettext_lazy("Number of seats"), coerce=int)
    is_private = forms.BooleanField(
        label=gettext_lazy("Invite only"), required=False,
        help_text=gettext_lazy("Only people you invite, or who have the link, can join."))
    invitees = forms.CharField(
        label=gettext_lazy("Invite players"), required=False, max_length=400,
        help_text=gettext_lazy("Usernames, separated by commas."))
    rated = forms.BooleanField(
        label=gettext_lazy("Rated"), required=False,
        help_text=gettext_lazy("The result changes the players' ratings (needs at least two people)."))
    # Not required: a form without them (older clients, tests) gets the defaults.
    clock = forms.ChoiceField(label=gettext_lazy("Time control"), initial="3", choices=(), required=False)
    bank_initial = forms.IntegerField(label=gettext_lazy("Time bank: initial days"), initial=7,
                                      min_value=1, max_value=60, required=False)
    bank_increment = forms.IntegerField(label=gettext_lazy("Time bank: days added per move"), initial=1,
                                        min_value=0, max_value=14, required=False)
    bank_cap = forms.IntegerField(label=gettext_lazy("Time bank: at most (days)"), initial=14,
                                  min_value=1, max_value=90, required=False)
    weekends = forms.BooleanField(
        label=gettext_lazy("Weekend pause"), required=False,
        help_text=gettext_lazy("Clocks do not run on Saturdays and Sundays, in each player's "
                               "own time zone."))
    timeout_policy = forms.ChoiceField(
        label=gettext_lazy("When a player runs out of time (and of vacation days)"),
        choices=Table.TimeoutPolicy.choices, initial=Table.TimeoutPolicy.BOT, required=False)

    def clean_timeout_policy(self):
        return self.cleaned_data.get("timeout_policy") or Table.TimeoutPolicy.BOT

    def __init__(self, *args, game: GameAppConfig, **kwargs):
        super().__init__(*args, **kwargs)
        self.game = game
        rules = game.rules
        self.fields["clock"].choices = [
            (str(d), clocks.describe({"kind": "move", "days": d})) for d in clocks.PER_MOVE_DAYS
        ] + [("bank", _("A time bank (below)"))]
        counts = range(rules.min_players, rules.max_players + 1)
        self.fields["players"].choices = [(n, str(n)) for n in counts]
        self.fields["players"].initial = rules.min_players
        seat_choices = [("", _("A person (open seat)"))] + [
            (level, _("Bot: %(level)s") % {"level": bot_level_label(level, game)})
            for level in game.bot_levels]
        self.level_descriptions = [(bot_level_label(level, game), bot_level_description(level, game))
                                   for level in game.bot_levels]
        for i in range(1, rules.max_players):
            self.fields[f"seat_{i}"] = forms.ChoiceField(
                label=_("Seat %(n)s") % {"n": i + 1}, choices=seat_choices, required=False)
        for option in rules.options:
            name = f"option_{option.key}"
            if option.kind == "bool":
                self.fields[name] = forms.BooleanField(
                    label=_(option.label), required=False, initial=option.default,
                    help_text=_(option.help) if option.help else "")
            else:
                self.fields[name] = forms.ChoiceField(
                    label=_(option.label), initial=option.default,
                    choices=[(str(v), _(label)) for v, label in option.choices],
                    help_text=_(option.help) if option.help else "")

    def seat_fields(self):
        return [self[f"seat_{i}"] for i in range(1, self.game.rules.max_players)]

    def option_fields(self):
        return [self[f"option_{o.key}"] for o in self.game.rules.options]

    def bots(self) -> dict[int, str]:
        players = self.cleaned_data["players"]
        return {i: self.cleaned_data[f"seat_{i}"] for i in range(1, players)
                if self.cleaned_data.get(f"seat_{i}")}

    def options(self) -> dict:
        return {o.key: self.cleaned_data.get(f"option_{o.key}") for o in self.game.rules.options}

    def invitee_names(self) -> list[str]:
        return [n.strip() for n in self.cleaned_data.get("invitees", "").split(",") if n.strip()]

    def clock_fields(self):
        return [self["clock"], self["bank_initial"], self["bank_increment"], self["bank_cap"],
                self["weekends"], self["timeout_policy"]]

    def clean(self):
        data = super().clean()
        if data.get("clock") == "bank":
            try:
                clocks.clean_time_control(self.time_control())
            except clocks.BadTimeControl as exc:
                raise forms.ValidationError(str(exc)) from None
        return data

    def time_control(self) -> dict:
        """The chosen time control, in the shape clocks.clean_time_control checks."""
        data = self.cleaned_data
        extra = {"weekends": True} if data.get("weekends") else {}
        if data.get("clock") == "bank":
            return {"kind": "bank", "initial": data.get("bank_initial"),
                    "increment": data.get("bank_increment"), "cap": data.get("bank_cap"), **extra}
        return {"kind": "move", "days": int(data.get("clock") or 3), **extra}


class VacationForm(forms.Form):
    """A range of vacation days, in the player's own time zone."""

    first_day = BoundedDateField(label=gettext_lazy("First day"), widget=forms.DateInput(attrs={"type": "date"}))
    last_day = BoundedDateField(label=gettext_lazy("Last day"), widget=forms.DateInput(attrs={"type": "date"}))


class ChangeVacationForm(forms.Form):
    """Shorten a booked vacation to a new last day, or cancel it."""

    action = forms.ChoiceField(choices=(("shorten", "shorten"), ("cancel", "cancel")),
                               widget=forms.HiddenInput)
    last_day = BoundedDateField(label=gettext_lazy("New last day"), required=False,
                               widget=forms.DateInput(attrs={"type": "date"}))
