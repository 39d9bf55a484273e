"""The "your turn" count in every page's title and header."""

from .selectors import waiting_count


def turn_count(request):
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"turn_count": 0}
    # Cached on the request: an htmx answer renders several partials with it.
    if not hasattr(request, "_turn_count"):
        request._turn_count = waiting_count(user)
    return {"turn_count": request._turn_count}
