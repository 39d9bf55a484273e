"""Settings for the test suite: the project's settings with the test game on."""

import os
import time

os.environ.setdefault("ENABLE_TEST_GAME", "1")
os.environ.setdefault("DISABLE_RATE_LIMITS", "1")

# pytest-xdist (scripts/test.sh runs the suite on several workers): each worker gets its
# own channel-layer and cache prefix and Celery queue, so one worker's groups, throttle
# counters and tasks never reach another's; servers and Celery workers that a test starts
# inherit them. pytest-django gives each worker its own test database (suffix _gwN).
_XDIST_WORKER = os.environ.get("PYTEST_XDIST_WORKER")
if _XDIST_WORKER:
    for _name, _default in (("CHANNELS_PREFIX", "asgi"), ("CELERY_QUEUE", "boardgames"),
                            ("CACHE_PREFIX", "")):
        _value = os.environ.get(_name, _default)
        if (_value or _name != "CACHE_PREFIX") and not _value.endswith(f"-{_XDIST_WORKER}"):
            os.environ[_name] = f"{_value}-{_XDIST_WORKER}"

from config.settings import *  # noqa: E402,F401,F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# Bot turns run in-process unless a test starts a real worker (tests/tables/test_worker.py).
CELERY_TASK_ALWAYS_EAGER = True
ALLOWED_HOSTS = ["localhost", "127.0.0.1", "testserver"]
# Each pytest session's cache keys apart from every other's on the same Redis: other runs,
# and the stages of one run (scripts/test.sh), which share the channel prefix and worker
# names but not their databases. A key such as a replay's timeline names a table by id and
# seq, so the browser stage's table 30 at seq 14 could read the timeline that the first
# stage's table 30 (another game) had cached: a 500 in CI. The session's token is set once
# in the environment (by the xdist controller, when it loads the settings, or the worker),
# so the servers and Celery workers that tests start share their worker's prefix.
os.environ.setdefault("TEST_SESSION_TOKEN", f"{os.getpid()}-{time.time_ns()}")
if "CACHES" in globals():
    CACHES["default"]["KEY_PREFIX"] = (  # noqa: F405
        f"cache-{os.environ.get('CHANNELS_PREFIX', 'asgi')}-{os.environ['TEST_SESSION_TOKEN']}")

# Several test runs at once on one machine (one per checkout) each need their own
# PostgreSQL test database: TEST_DB_NAME names it (default: Django's test_<name>).
if os.environ.get("TEST_DB_NAME") and DATABASES["default"]["ENGINE"].endswith("postgresql"):  # noqa: F405
    DATABASES["default"]["TEST"] = {"NAME": os.environ["TEST_DB_NAME"]}  # noqa: F405

# Most tests rely on a bot answering within the request (tests/tables/test_bot_background.py
# turns the background thread on where it proves the `make run` behaviour).
BOT_TURNS_IN_BACKGROUND = False
