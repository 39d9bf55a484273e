"""Redis trouble never loses a chat message or stops the chat."""

from __future__ import annotations

import pytest
from django.test import override_settings

from games.chat.models import ChatMessage

from .helpers import post_chat

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_message_is_stored_when_the_push_fails(trio, monkeypatch):
    table, ana, bo, cy = trio
    from channels.layers import get_channel_layer

    layer = get_channel_layer()

    async def broken(*args, **kwargs):
        raise ConnectionError("redis is down")

    monkeypatch.setattr(layer, "group_send", broken)
    assert post_chat(ana, table, "still here").status_code == 303
    assert ChatMessage.objects.get().body == "still here"


@override_settings(RATELIMIT_ENABLE=True, RATELIMIT_USE_CACHE="broken",
                   CACHES={"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
                           "broken": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                                      "LOCATION": "redis://127.0.0.1:1/0"}})
def test_a_cache_outage_lets_messages_through_instead_of_failing(trio):
    table, ana, bo, cy = trio
    response = post_chat(ana, table, "limits are down, chat is not", htmx=True)
    assert response.status_code == 200
    assert ChatMessage.objects.filter(body="limits are down, chat is not").exists()
