"""Django's Redis cache, with a `clear()` that empties the cache and nothing else.

The site keeps its cache, the channel layer's groups and Celery's queues in one Redis
database (REDIS_URL). Django's RedisCache.clear() is FLUSHDB: it also dropped every open
page from its groups (they re-join only every third of CHANNELS_GROUP_EXPIRY, so they
stayed deaf for up to twenty minutes) and every queued task. It was seen in the test
suite: one xdist worker's `cache.clear()` emptied the database that the other worker's
sockets were listening on, and a push after a move never arrived. Here `clear()`
deletes only the keys under this cache's KEY_PREFIX.
"""

from __future__ import annotations

import re
from itertools import islice

from django.core.cache.backends.redis import RedisCache

BATCH = 500


def _glob_escape(text: str) -> str:
    """`text` matched literally by a Redis SCAN pattern."""
    return re.sub(r"([\\*?\[\]^])", r"\\\1", text)


class PrefixedRedisCache(RedisCache):
    def clear(self) -> bool:
        """Delete this cache's keys (every version), in batches, leaving the rest of the
        database alone. True if there were any.

        A key is "<prefix>:<version>:<key>". The version's digits are in the pattern: the
        prefix defaults to the channel layer's, whose groups are "<prefix>:group:<name>"."""
        client = self._cache.get_client(None, write=True)
        keys = client.scan_iter(match=f"{_glob_escape(self.key_prefix)}:[0-9]*", count=BATCH)
        deleted = 0
        while batch := list(islice(keys, BATCH)):
            deleted += client.delete(*batch)
        return bool(deleted)
