"""Per-user language and time zone."""

import zoneinfo

from django.contrib.auth import get_user_model

from django.utils import timezone, translation


class UserPreferencesMiddleware:
    """Activate the profile's time zone and language (else LocaleMiddleware's choice)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            try:
                timezone.activate(zoneinfo.ZoneInfo(user.timezone))
            except (zoneinfo.ZoneInfoNotFoundError, ValueError):
                timezone.deactivate()
            if user.language:
                translation.activate(user.language)
                request.LANGUAGE_CODE = user.language
            elif getattr(request, "LANGUAGE_CODE", "") and request.LANGUAGE_CODE != user.browser_language:
                get_user_model().objects.filter(pk=user.pk).update(
                    browser_language=request.LANGUAGE_CODE)
                user.browser_language = request.LANGUAGE_CODE
        else:
            timezone.deactivate()
        return self.get_response(request)
