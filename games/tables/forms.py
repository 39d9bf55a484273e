"""Forms: a move, and a new table for one game."""

from __future__ import annotations

import json

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _l

from .plugins import GameAppConfig


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

    players = forms.TypedChoiceField(label=_l("Number of seats"), coerce=int)
    is_private = forms.BooleanField(
        label=_l("Invite only"), required=False,
        help_text=_l("Only people you invite, or who have the link, can join."))
    invitees = forms.CharField(
        label=_l("Invite players"), required=False, max_length=400,
        help_text=_l("Usernames, separated by commas."))

    def __init__(self, *args, game: GameAppConfig, **kwargs):
        super().__init__(*args, **kwargs)
        self.game = game
        rules = game.rules
        counts = range(rules.min_players, rules.max_players + 1)
        self.fields["players"].choices = [(n, str(n)) for n in counts]
        self.fields["players"].initial = rules.min_players
        seat_choices = [("", _("A person (open seat)"))] + [
            (level, _("Bot: %(level)s") % {"level": level}) for level in game.bot_levels]
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
