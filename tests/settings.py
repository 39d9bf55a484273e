"""Settings for the test suite: the project's settings with the test game on."""

import os

os.environ.setdefault("ENABLE_TEST_GAME", "1")
os.environ.setdefault("DISABLE_RATE_LIMITS", "1")

from config.settings import *  # noqa: E402,F401,F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# Bot turns run in-process unless a test starts a real worker (tests/tables/test_worker.py).
CELERY_TASK_ALWAYS_EAGER = True
ALLOWED_HOSTS = ["localhost", "127.0.0.1", "testserver"]
# Each test run's cache keys (throttle counters) apart from other runs on the same Redis.
if "CACHES" in globals():
    CACHES["default"]["KEY_PREFIX"] = "cache-" + os.environ.get("CHANNELS_PREFIX", "asgi")  # noqa: F405

# Several test runs at once on one machine (one per checkout) each need their own
# PostgreSQL test database: TEST_DB_NAME names it (default: Django's test_<name>).
if os.environ.get("TEST_DB_NAME") and DATABASES["default"]["ENGINE"].endswith("postgresql"):  # noqa: F405
    DATABASES["default"]["TEST"] = {"NAME": os.environ["TEST_DB_NAME"]}  # noqa: F405

# Most tests rely on a bot answering within the request (tests/tables/test_bot_background.py
# turns the background thread on where it proves the `make run` behaviour).
BOT_TURNS_IN_BACKGROUND = False
