"""ASGI entry point: HTTP to Django, WebSockets through auth to the table consumer."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from games.tables.origin import StrictOriginValidator  # noqa: E402
from games.tables.routing import websocket_urlpatterns  # noqa: E402

if os.environ.get("IN_PROCESS_BEAT") == "1":
    # `make run` with no services: periodic tasks (clocks, digests) in this process.
    from games.tables import inprocess_beat

    inprocess_beat.start()

application = ProtocolTypeRouter({
    "http": django_asgi_app,
    "websocket": StrictOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
})
