"""Per-user language and time zone, sessions that last while their player comes back, bot accounts."""

import zoneinfo

from django.contrib.auth import SESSION_KEY, get_user_model

from django.utils import timezone, translation


class UserPreferencesMiddleware:
    """Activate the profile's time zone and language (else LocaleMiddleware's choice) for
    this request only: what was active before is restored afterwards, so nothing run later
    in the same thread (a test's next step, a hook) inherits one user's language or zone.
    The response says the language it was written in (Content-Language)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        previous = translation.get_language()
        language = None
        if user is not None and user.is_authenticated:
            try:
                timezone.activate(zoneinfo.ZoneInfo(user.timezone))
            except (zoneinfo.ZoneInfoNotFoundError, ValueError):
                timezone.deactivate()
            if user.language:
                language = user.language
                translation.activate(language)
                request.LANGUAGE_CODE = language
            elif getattr(request, "LANGUAGE_CODE", "") and request.LANGUAGE_CODE != user.browser_language:
                get_user_model().objects.filter(pk=user.pk).update(
                    browser_language=request.LANGUAGE_CODE)
                user.browser_language = request.LANGUAGE_CODE
        else:
            timezone.deactivate()
        try:
            response = self.get_response(request)
        finally:
            timezone.deactivate()
            if language is not None and previous:
                translation.activate(previous)
            elif language is not None:
                translation.deactivate()
        if language is not None:
            # LocaleMiddleware, outside this one, keeps a Content-Language already set.
            response.headers.setdefault("Content-Language", language)
        return response


# Where a session notes the last day (UTC) it was renewed.
RENEWED_KEY = "_renewed_on"


class KeepSessionAliveMiddleware:
    """A player who keeps coming back stays signed in: a signed-in session's age
    (SESSION_COOKIE_AGE) counts from the player's last day on the site, not from the
    day they signed in (Django renews it only when the session changes, so a daily
    player was signed out two weeks after signing in, in the middle of their games).
    The session is written for it at most once a day; no session is made for anyone
    not signed in."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        session = getattr(request, "session", None)
        if session is not None and SESSION_KEY in session:
            today = timezone.now().date().isoformat()
            if session.get(RENEWED_KEY) != today:
                session[RENEWED_KEY] = today   # SessionMiddleware saves it, with a new expiry
        return response


# The pages' table actions a bot account may not use (it plays through the API).
BOT_REFUSED = {("tables", name) for name in (
    "new", "move", "join", "leave", "abort", "resign", "invite", "rotate_invite", "reclaim")}


class BotAccountMiddleware:
    """Refuse the pages' table actions to a bot account, with a clear 403 page."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs):
        user = getattr(request, "user", None)
        if not (user is not None and user.is_authenticated and user.is_bot_account):
            return None
        match = request.resolver_match
        if match is None or (match.namespace, match.url_name) not in BOT_REFUSED:
            return None
        if request.method != "POST" and match.url_name not in ("new", "resign"):
            return None
        from django.shortcuts import render
        from django.utils.translation import gettext as _

        return render(request, "accounts/bot_refused.html", {
            "message": _("This is a bot account: it plays only through the API, with a "
                         "personal token. Its moves and table actions are not taken from "
                         "the site's pages.")}, status=403)
