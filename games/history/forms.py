from django import forms
from django.utils.translation import gettext_lazy as _

from .models import ProfileSettings, Result


class ProfileSettingsForm(forms.ModelForm):
    class Meta:
        model = ProfileSettings
        fields = ["hide_from_anonymous"]


class HistoryFilterForm(forms.Form):
    """The history page's filters (all optional; bad values are simply ignored)."""

    game = forms.ChoiceField(label=_("Game"), required=False)
    result = forms.ChoiceField(label=_("Result"), required=False, choices=[
        ("", _("Any result")), (Result.Outcome.WON, _("Won")), (Result.Outcome.SHARED, _("Shared win")),
        (Result.Outcome.LOST, _("Lost")), ("resign", _("Resigned")), ("timeout", _("Ran out of time")),
        (Result.Ended.ABANDONED, _("Abandoned"))])
    opponent = forms.CharField(label=_("Opponent"), required=False, max_length=150,
                               help_text=_("A username, or a bot level such as “fast”."))

    def __init__(self, *args, games=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["game"].choices = [("", _("Any game"))] + list(games)

