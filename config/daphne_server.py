"""Daphne with WebSocket compression (permessage-deflate, RFC 7692).

Daphne's WebSocket side is autobahn, which implements permessage-deflate, but
Daphne never turns it on. This entry point accepts the browser's deflate offer
and otherwise is Daphne's own command line:

    python -m config.daphne_server -b 127.0.0.1 -p 8000 --proxy-headers config.asgi:application

WS_DEFLATE=0 turns compression off; WS_DEFLATE_WINDOW_BITS (9-15, default 13)
bounds the server's compression window and so its memory per socket (about
2^(bits+2) bytes plus the memory level's share: ~48 KB at 13).

Its access log leaves out query strings: an invitation link's token
(`/tables/7/?invite=...`) never reaches a log file.
"""

from __future__ import annotations

import os
import sys

from daphne import server as daphne_server  # first: installs Twisted's asyncio reactor
from daphne.access import AccessLogGenerator
from daphne.ws_protocol import WebSocketFactory

from autobahn.websocket.compress import PerMessageDeflateOffer, PerMessageDeflateOfferAccept


def _accept_deflate(offers):
    bits = int(os.environ.get("WS_DEFLATE_WINDOW_BITS") or 13)
    for offer in offers:
        if isinstance(offer, PerMessageDeflateOffer):
            limit = offer.request_max_window_bits or 15
            return PerMessageDeflateOfferAccept(offer, window_bits=min(bits, limit), mem_level=6)
    return None


class DeflateWebSocketFactory(WebSocketFactory):
    """Daphne's factory, accepting permessage-deflate when the client offers it."""

    def setProtocolOptions(self, *args, **options):  # noqa: N802 - autobahn's name
        if os.environ.get("WS_DEFLATE", "1") != "0":
            options.setdefault("perMessageCompressionAccept", _accept_deflate)
        super().setProtocolOptions(*args, **options)


daphne_server.WebSocketFactory = DeflateWebSocketFactory


class PathOnlyAccessLog(AccessLogGenerator):
    """Daphne's access log with each request's path only: query strings can carry
    secrets (invitation tokens), so they are never written."""

    def __call__(self, protocol, action, details):
        path = details.get("path")
        if isinstance(path, str) and "?" in path:
            details = {**details, "path": path.split("?", 1)[0]}
        super().__call__(protocol, action, details)


def _install_access_log() -> None:
    from daphne import cli

    cli.AccessLogGenerator = PathOnlyAccessLog


def main() -> None:
    from daphne.cli import CommandLineInterface

    _install_access_log()
    sys.exit(CommandLineInterface.entrypoint())


if __name__ == "__main__":
    main()
