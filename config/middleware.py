"""Request hardening that applies to every view, the admin and allauth's included."""

from __future__ import annotations

from django.shortcuts import render
from django.utils.translation import gettext as _


class RefuseNulMiddleware:
    """A NUL character in a query or form value is a 400 with a message, never a 500.

    Forms refuse NUL on their own (Django's CharField does); this also covers
    values read without a form (search boxes, allauth and admin parameters) and
    keeps them away from PostgreSQL, which cannot store NUL in text.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        # An unreadable body raises here, and Django answers 400 (MultiPartParserError).
        if _has_nul(request.GET) or (request.method == "POST" and _has_nul(request.POST)):
            if request.path.startswith("/api/"):
                from api.problems import problem_response

                return problem_response(400, "bad_request", _(
                    "The request contained a NUL character, which no field accepts. "
                    "Nothing was changed."))
            return render(request, "400.html",
                          {"message": _("The request contained a NUL character, which no field "
                                        "accepts. Nothing was changed.")}, status=400)
        return self.get_response(request)


def _has_nul(query) -> bool:
    return any("\x00" in key or any("\x00" in value for value in query.getlist(key))
               for key in query)
