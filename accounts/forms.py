"""Profile and sign-up forms."""

from allauth.account.forms import SignupForm as AllauthSignupForm
from django import forms
from django.utils.translation import gettext_lazy as _

from .models import User, timezone_choices

REGIONS = ("Africa", "America", "Antarctica", "Arctic", "Asia", "Atlantic", "Australia", "Europe",
           "Indian", "Pacific")


def grouped_timezones():
    """UTC, then the zones grouped by region, each named by its city ("America" ›
    "Argentina / Buenos Aires"); old aliases (US/…, Etc/…) are left out."""
    groups: dict[str, list] = {}
    for tz, _label in timezone_choices():
        region, _sep, city = tz.partition("/")
        if region in REGIONS:
            groups.setdefault(region, []).append((tz, city.replace("_", " ").replace("/", " / ")))
    return [("UTC", "UTC")] + [(region, groups[region]) for region in REGIONS if region in groups]


class ProfileForm(forms.ModelForm):
    """What a player may change about themselves."""

    timezone = forms.ChoiceField(
        label=_("time zone"), choices=grouped_timezones,
        widget=forms.Select(attrs={"data-guess-timezone": ""}),
        help_text=_("Grouped by region; type a city's first letters to jump to it."))
    digest_hour = forms.IntegerField(label=_("hour of the daily digest"), min_value=0, max_value=23,
                                     help_text=_("In your time zone, 0 to 23."))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        current = getattr(self.instance, "timezone", "")
        flat = {tz for tz, _label in timezone_choices()}
        offered = {"UTC"} | {tz for _r, group in self.fields["timezone"].choices[1:] for tz, _c in group}
        if current in flat and current not in offered:  # an old alias someone chose earlier
            self.fields["timezone"].choices = [*self.fields["timezone"].choices, (current, current)]

    class Meta:
        model = User
        fields = ["display_name", "language", "timezone", "turn_mail", "digest_hour",
                  "mail_game_over", "mail_invitations", "notify_browser", "is_bot_account"]
        widgets = {"turn_mail": forms.RadioSelect}


class TokenForm(forms.Form):
    """A new personal API token: a name and its scopes."""

    name = forms.CharField(label=_("token name"), max_length=60,
                           help_text=_("Say what uses it, e.g. “my bot on the home server”."))
    scopes = forms.MultipleChoiceField(
        label=_("scopes"), widget=forms.CheckboxSelectMultiple, initial=["read"],
        choices=[("read", _("read: see your tables, views and events")),
                 ("play", _("play: make moves, create, join, leave and resign tables"))])


class SignupForm(AllauthSignupForm):
    """allauth's sign-up, with the browser's time zone: static/js/forms.js fills in the
    hidden field, so deadlines, weekends, digests and vacation days are the player's own
    from the first mail. Without JavaScript, or with a zone we do not know, the account
    starts on UTC (the profile offers the browser's zone later)."""

    timezone = forms.CharField(required=False, widget=forms.HiddenInput(
        attrs={"data-browser-timezone": ""}))

    def clean_timezone(self):
        value = self.cleaned_data.get("timezone") or ""
        return value if value in {tz for tz, _label in timezone_choices()} else "UTC"

    def custom_signup(self, request, user):
        super().custom_signup(request, user)
        user.timezone = self.cleaned_data.get("timezone") or "UTC"
        user.save(update_fields=["timezone"])
