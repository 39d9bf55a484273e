"""Profile form."""

from django import forms
from django.utils.translation import gettext_lazy as _

from .models import User, timezone_choices


class ProfileForm(forms.ModelForm):
    """What a player may change about themselves."""

    timezone = forms.ChoiceField(label=_("time zone"), choices=timezone_choices)
    digest_hour = forms.IntegerField(label=_("hour of the daily digest"), min_value=0, max_value=23,
                                     help_text=_("In your time zone, 0 to 23."))

    class Meta:
        model = User
        fields = ["display_name", "language", "timezone", "turn_mail", "digest_hour",
                  "mail_game_over", "mail_invitations", "notify_browser"]
        widgets = {"turn_mail": forms.RadioSelect}
