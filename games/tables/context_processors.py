"""The "your turn" count in every page's title and header."""

from .selectors import waiting_signature


def turn_count(request):
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"turn_count": 0}
    # Cached on the request: an htmx answer renders several partials with it.
    if not hasattr(request, "_turn_count"):
        request._turn_count, request._turn_sig = waiting_signature(user)
    # The page's player socket says it (player_consumer): no push on connect while current.
    return {"turn_count": request._turn_count, "turn_sig": getattr(request, "_turn_sig", "")}
