"""Forms: a move, and a new table for one game."""

from __future__ import annotations

import json

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from . import clocks
from .models import Table
from .plugins import GameAppConfig, bot_level_description, bot_level_label


class MoveForm(forms.Form):
    """A move as JSON plus the table version it was chosen from."""

    move = forms.CharField(max_length=4000)
    based_on = forms.IntegerField(min_value=0)

    def clean_move(self):
        try:
            return json.loads(self.cleaned_data["move"])
        except (TypeError, ValueError):
            raise forms.ValidationError(_("That move could not be read.")) from None


class NewTableForm(forms.Form):
    """Create a table of one game: seats, bots, options, privacy."""

    players = forms.TypedChoiceField(label=gettext_lazy("Number of seats"), coerce=int)
    is_private = forms.BooleanField(
        label=gettext_lazy("Invite only"), required=False,
        help_text=gettext_lazy("Only people you invite, or who have the link, can join."))
    invitees = forms.CharField(
        label=gettext_lazy("Invite players"), required=False, max_length=400,
        help_text=gettext_lazy("Usernames, separated by commas."))
    # Not required: a form without them (older clients, tests) gets the defaults.
    clock = forms.ChoiceField(label=gettext_lazy("Time control"), initial="3", choices=(), required=False)
    bank_initial = forms.IntegerField(label=gettext_lazy("Time bank: initial days"), initial=7,
                                      min_value=1, max_value=60, required=False)
    bank_increment = forms.IntegerField(label=gettext_lazy("Time bank: days added per move"), initial=1,
                                        min_value=0, max_value=14, required=False)
    bank_cap = forms.IntegerField(label=gettext_lazy("Time bank: at most (days)"), initial=14,
                                  min_value=1, max_value=90, required=False)
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
            (level, _("Bot: %(level)s") % {"level": bot_level_label(level)})
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
                self["timeout_policy"]]

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
        if data.get("clock") == "bank":
            return {"kind": "bank", "initial": data.get("bank_initial"),
                    "increment": data.get("bank_increment"), "cap": data.get("bank_cap")}
        return {"kind": "move", "days": int(data.get("clock") or 3)}


class VacationForm(forms.Form):
    """A range of vacation days, in the player's own time zone."""

    first_day = forms.DateField(label=gettext_lazy("First day"), widget=forms.DateInput(attrs={"type": "date"}))
    last_day = forms.DateField(label=gettext_lazy("Last day"), widget=forms.DateInput(attrs={"type": "date"}))
