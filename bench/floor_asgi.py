"""ASGI app of the bench: the site plus the floor socket (see bench/floor.py)."""

from config.asgi import application as site  # noqa: E402 - sets Django up first

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.urls import path  # noqa: E402

from bench.floor import FloorConsumer  # noqa: E402
from games.tables.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter({
    "http": site.application_mapping["http"],
    "websocket": AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter([
        path("ws/floor/<int:table_id>/", FloorConsumer.as_asgi()), *websocket_urlpatterns]))),
})
