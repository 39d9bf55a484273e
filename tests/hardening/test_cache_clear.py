"""Clearing the cache empties the cache, not the Redis database it shares (config/cache.py).

The cache, the channel layer's groups and Celery's queues live in one Redis database.
Django's RedisCache.clear() is FLUSHDB: a test's `cache.clear()` on one xdist worker
emptied the other worker's channel groups, and its player socket never got the push
after a move (tests/tables/test_player_socket.py timed out twice in full runs)."""

from __future__ import annotations

import asyncio

import pytest
from django.conf import settings

from config.cache import PrefixedRedisCache

pytestmark = pytest.mark.skipif(
    not settings.REDIS_URL, reason="needs Redis: set REDIS_URL (scripts/test.sh does)")


def cache_on(prefix: str) -> PrefixedRedisCache:
    return PrefixedRedisCache(settings.REDIS_URL, {"KEY_PREFIX": prefix})


def test_the_sites_cache_is_the_prefixed_one():
    from django.core.cache import caches

    assert isinstance(caches["default"], PrefixedRedisCache)
    assert caches["default"].key_prefix  # never the whole database


def test_clear_leaves_the_channel_groups_the_queues_and_other_caches_alone():
    from channels.layers import get_channel_layer

    layer = get_channel_layer()
    # The site's cache prefix defaults to the channel layer's: its groups are
    # "<prefix>:group:<name>", its cache keys "<prefix>:<version>:<key>".
    mine, other = cache_on(layer.prefix), cache_on("clear-test-other")
    client = mine._cache.get_client(None, write=True)
    queue = "clear-test-celery-queue"
    try:
        for n in range(1200):  # more than one batch of deletes
            mine.set(f"k{n}", n, version=1 + n % 2)
        other.set("k", "theirs")
        client.rpush(queue, "a queued task")
        asyncio.run(layer.group_add("clear-test-group", "clear-test.channel!one"))

        assert mine.clear() is True

        assert mine.get("k0", version=1) is None and mine.get("k1", version=2) is None
        assert not list(client.scan_iter(match=f"{layer.prefix}:[0-9]*"))
        assert other.get("k") == "theirs"
        assert client.lrange(queue, 0, -1) == [b"a queued task"]
        members = client.zrange(layer._group_key("clear-test-group"), 0, -1)
        assert members == [b"clear-test.channel!one"]
        assert mine.clear() is False  # nothing left to delete
    finally:
        other.clear()
        client.delete(queue, layer._group_key("clear-test-group"))


def test_a_prefix_with_pattern_characters_clears_only_itself():
    odd, near = cache_on("clear[x]*"), cache_on("clearx?")
    try:
        odd.set("k", 1)
        near.set("k", 2)
        odd.clear()
        assert odd.get("k") is None and near.get("k") == 2
    finally:
        odd.clear()
        near.clear()
