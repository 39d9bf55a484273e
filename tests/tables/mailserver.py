"""A real SMTP server on loopback (aiosmtpd) that can be stopped and started again.

Import the fixtures into a test module: `from tests.tables.mailserver import mailserver`.
"""

from __future__ import annotations

import email
import email.policy
import socket

import pytest
from aiosmtpd.controller import Controller


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class MailServer:
    """Keeps every message it accepts; `stop()` makes delivery fail, `start()` heals it."""

    def __init__(self, port: int):
        self.port = port
        self.messages: list[email.message.EmailMessage] = []
        self.controller: Controller | None = None

    async def handle_DATA(self, server, session, envelope):
        self.messages.append(email.message_from_bytes(envelope.content,
                                                      policy=email.policy.default))
        return "250 Message accepted"

    def start(self) -> None:
        self.controller = Controller(self, hostname="127.0.0.1", port=self.port)
        self.controller.start()

    def stop(self) -> None:
        if self.controller is not None:
            self.controller.stop()
            self.controller = None

    def to(self, user, *, subject: str | None = None) -> list:
        found = [m for m in self.messages if user.email in str(m["To"])]
        return [m for m in found if subject is None or subject in str(m["Subject"])]


def text_of(message) -> str:
    return message.get_body(preferencelist=("plain",)).get_content()


@pytest.fixture
def mailserver(settings):
    server = MailServer(free_port())
    # Every mail goes through the outbox, then to this server (as in production).
    settings.EMAIL_BACKEND = "games.tables.outbox.OutboxBackend"
    settings.MAIL_DELIVERY_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = "127.0.0.1"
    settings.EMAIL_PORT = server.port
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    settings.EMAIL_TIMEOUT = 5
    server.start()
    yield server
    server.stop()
