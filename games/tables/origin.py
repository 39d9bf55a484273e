"""The table socket's origin check: scheme, host and port, not the host alone.

Channels' AllowedHostsOriginValidator compares only the Origin's host with
ALLOWED_HOSTS, so http://site:8080 or a plain-http page could open a socket to the
https site. Here an Origin must equal, in scheme, host and port, either the
request's own origin (the socket's scheme and Host header, for a host in
ALLOWED_HOSTS) or one of CSRF_TRUSTED_ORIGINS (the site's public origins, SITE_URL
by default) — Django's own rule for form posts.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host

DEFAULT_PORTS = {"http": 80, "https": 443}


def normalise(origin: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) of an origin, with the scheme's default port filled in."""
    try:
        parts = urlsplit(origin.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = (parts.scheme or "").lower()
    if scheme not in DEFAULT_PORTS or not parts.hostname or parts.path not in ("", "/"):
        return None
    return scheme, parts.hostname.lower(), port or DEFAULT_PORTS[scheme]


def own_origin(scope) -> tuple[str, str, int] | None:
    """The origin a page of this request's own host and scheme would have."""
    headers = dict(scope.get("headers") or [])
    try:
        host = headers.get(b"host", b"").decode("ascii")
    except UnicodeDecodeError:
        return None
    domain, _port = split_domain_port(host)
    if not domain or not validate_host(domain, settings.ALLOWED_HOSTS):
        return None
    scheme = "https" if scope.get("scheme") in ("wss", "https") else "http"
    return normalise(f"{scheme}://{host}")


def origin_allowed(scope) -> bool:
    headers = dict(scope.get("headers") or [])
    try:
        origin = normalise(headers.get(b"origin", b"").decode("ascii"))
    except UnicodeDecodeError:
        return False
    if origin is None:
        return False
    trusted = {normalise(o) for o in settings.CSRF_TRUSTED_ORIGINS}
    return origin in trusted or origin == own_origin(scope)


class StrictOriginValidator:
    """ASGI middleware: refuse a WebSocket whose Origin is not exactly an allowed one."""

    def __init__(self, application):
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket" and not origin_allowed(scope):
            return await WebsocketDenier()(scope, receive, send)
        return await self.application(scope, receive, send)
