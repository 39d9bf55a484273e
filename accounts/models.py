"""The site's user: a custom model from the first migration."""

import zoneinfo

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils.translation import gettext_lazy as _


def public_name(username: str, display_name: str, is_bot_account: bool) -> str:
    """The name other players see of an account (with the bot badge for a bot account)."""
    name = display_name or username
    if is_bot_account:
        return _("%(name)s [bot]") % {"name": name}
    return name


def timezone_choices():
    """Every IANA time zone, sorted."""
    return [(tz, tz) for tz in sorted(zoneinfo.available_timezones()) if "/" in tz or tz == "UTC"]


class User(AbstractUser):
    """A player."""

    class TurnMail(models.TextChoices):
        AT_ONCE = "now", _("At once")
        DIGEST = "digest", _("Daily digest")
        NEVER = "never", _("Never")

    display_name = models.CharField(_("display name"), max_length=40, blank=True)
    language = models.CharField(
        _("language"), max_length=8, blank=True, choices=settings.LANGUAGES,
        help_text=_("Empty: use your browser's language."),
    )
    timezone = models.CharField(_("time zone"), max_length=64, default="UTC")
    turn_mail = models.CharField(
        _("e-mail when it is my turn"), max_length=8, choices=TurnMail.choices,
        default=TurnMail.AT_ONCE,
    )
    digest_hour = models.PositiveSmallIntegerField(
        _("hour of the daily digest"), default=8,
        help_text=_("In your time zone, 0 to 23."),
    )
    # The language LocaleMiddleware last chose for them (mail goes out in it
    # when the profile sets none).
    browser_language = models.CharField(max_length=8, blank=True, editable=False)
    mail_game_over = models.BooleanField(_("e-mail me when a game ends"), default=True)
    mail_invitations = models.BooleanField(_("e-mail me invitations"), default=True)
    # The site's open pages show a browser notification when a table becomes their turn.
    notify_browser = models.BooleanField(
        _("show a browser notification when it is my turn"), default=False,
        help_text=_("While a page of the site is open; your browser asks you to allow it."))
    # A bot account plays only through the API (api/); its name carries a badge.
    is_bot_account = models.BooleanField(
        _("this account is a bot"), default=False,
        help_text=_("A bot account plays only through the API, with a personal token; "
                    "its name shows a bot badge everywhere."))

    class Meta:
        verbose_name = _("user")
        verbose_name_plural = _("users")

    @property
    def name(self) -> str:
        """The name other players see (with the bot badge for a bot account)."""
        return public_name(self.username, self.display_name, self.is_bot_account)

    def __str__(self) -> str:
        return self.name
