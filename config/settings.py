"""Settings, all from the environment.

With nothing set: SQLite, Channels' in-memory layer, Celery tasks run in-process
and e-mail printed to the console, so a new user needs nothing but Python.
With DATABASE_URL / REDIS_URL: PostgreSQL, channels-redis and a Celery broker on Redis.
"""

import os
from pathlib import Path

import dj_database_url
from celery.schedules import crontab
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env(name: str, default: str = "") -> str:
    """An environment variable, with empty treated as unset."""
    return os.environ.get(name) or default


def env_bool(name: str, default: bool = False) -> bool:
    """A yes/no environment variable."""
    value = os.environ.get(name)
    if not value:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    """A comma-separated environment variable."""
    return [item.strip() for item in env(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG", default=not os.environ.get("SECRET_KEY"))
SECRET_KEY = env("SECRET_KEY", "dev-only-insecure-key-set-SECRET_KEY-in-production")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]" if DEBUG else "")
SITE_URL = env("SITE_URL", "http://localhost:8000").rstrip("/")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", SITE_URL)

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "channels",
    "django_htmx",
    "template_partials",
    "allauth",
    "allauth.account",
    "django_ratelimit",
    # The public API (api/): django-ninja serves its own Swagger UI files (no CDN).
    "ninja",
    "accounts",
    "api",
    "games.tables",
    "games.chat",
    "games.history",
    # Games: one line each (see docs/adding-a-game.md).
    "games.flaming_pyramids",
    "games.powerhouse",
    "games.gizmos",
]
# Extra game apps of this tree, e.g. the test-only game: GAME_APPS=tests.high_card
EXTRA_GAME_APPS = env_list("GAME_APPS")
INSTALLED_APPS += [app for app in EXTRA_GAME_APPS if app not in INSTALLED_APPS]
# Games installed with pip: their "boardgames.games" entry point alone adds their app
# (games/tables/discovery.py); one that fails to load is reported by `manage.py check`.
if env_bool("GAME_ENTRY_POINTS", True):
    from games.tables.discovery import entry_point_apps

    INSTALLED_APPS += entry_point_apps(exclude=INSTALLED_APPS)

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # gzip for HTML and htmx answers; Django adds random bytes to each (BREACH mitigation).
    "django.middleware.gzip.GZipMiddleware",
    # Early, so every response carries the headers, also those answered by a middleware.
    "csp.middleware.CSPMiddleware",
    "django_permissions_policy.PermissionsPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Before anything that reads the session: an exhausted pool answers 503, not 500.
    "games.tables.middleware.PoolGuardMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.middleware.UserPreferencesMiddleware",
    # Inside SessionMiddleware: a signed-in session renewed once a day keeps its player signed in.
    "accounts.middleware.KeepSessionAliveMiddleware",
    # Bot accounts play only through the API: the pages refuse their table actions.
    "accounts.middleware.BotAccountMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    # Last: its 400 answer passes through every middleware above (headers, sessions).
    "config.middleware.RefuseNulMiddleware",
]

# bench/bench_load.py serves its floor view from its own URLconf (bench/floor.py).
ROOT_URLCONF = env("ROOT_URLCONF", "config.urls")
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "games.tables.context_processors.turn_count",
            ],
        },
    },
]
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

DATABASES = {
    "default": dj_database_url.parse(
        env("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"), conn_max_age=0
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # A named test database lets a server process in browser tests share it.
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / "test-db.sqlite3")}
    DATABASES["default"]["OPTIONS"] = {"timeout": 20, "transaction_mode": "IMMEDIATE"}
elif DATABASES["default"]["ENGINE"].endswith("postgresql") and env_bool("DB_POOL", True):
    # psycopg's pool (Django 5.1+): a burst waits for one of at most DB_POOL_MAX open
    # connections instead of opening one per request; after DB_POOL_TIMEOUT seconds the
    # request is answered 503 (games.tables.middleware.PoolGuardMiddleware). The server
    # allows ~100 connections for everything: size DB_POOL_MAX x processes below that
    # (docs/operations.md).
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": int(env("DB_POOL_MIN", "1")),
        "max_size": int(env("DB_POOL_MAX", "8")),
        "timeout": float(env("DB_POOL_TIMEOUT", "3")),
        "max_idle": float(env("DB_POOL_MAX_IDLE", "300")),
    }
    # The pool checks a connection as it hands it out: a restarted server costs no error.
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = env("REDIS_URL")
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            # redis-py 8 times reads out after 5 s by default, exactly channels-redis's
            # receive wait: idle sockets then crash and reconnect (channels_redis#422).
            # redis-py 8's asyncio pool holds at most 100 connections and then raises at once
            # (MaxConnectionsError): a hundred sockets closing together in one process (a
            # dropped proxy, a crowd leaving) failed their group_discard. Connections are
            # made only as needed; several processes at 1,000 stay far under Redis's
            # maxclients (10,000).
            "CONFIG": {"hosts": [{"address": REDIS_URL, "socket_timeout": 30,
                                  "max_connections": int(env("REDIS_MAX_CONNECTIONS", "1000"))}],
                       "prefix": env("CHANNELS_PREFIX", "asgi")},
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
if REDIS_URL:
    # A crashed web process leaves its channels in the table groups until they expire
    # (channels-redis's default is a day): pushes to them are wasted until then.
    CHANNEL_LAYERS["default"]["CONFIG"]["group_expiry"] = int(env("CHANNELS_GROUP_EXPIRY", "3600"))

# The cache holds the throttles' counters: shared by every web process on Redis, so
# allauth's login rate limits count across them. Its keys carry CACHE_PREFIX (default the
# channels prefix), and clearing it deletes only those: the same Redis database holds the
# channel layer's groups and Celery's queues (config/cache.py).
if REDIS_URL:
    CACHES = {"default": {"BACKEND": "config.cache.PrefixedRedisCache", "LOCATION": REDIS_URL,
                          "KEY_PREFIX": env("CACHE_PREFIX", env("CHANNELS_PREFIX", "asgi"))}}
    # Django's own Redis backend increments atomically; django-ratelimit lists only
    # django-redis by name.
    SILENCED_SYSTEM_CHECKS = ["django_ratelimit.W001"]
else:
    # One process (make run): its memory is the whole site's.
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    SILENCED_SYSTEM_CHECKS = ["django_ratelimit.E003", "django_ratelimit.W001"]

# Celery: on Redis when REDIS_URL is set, else every task runs in-process.
CELERY_BROKER_URL = env("CELERY_BROKER_URL", REDIS_URL or "memory://")
CELERY_RESULT_BACKEND = None
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", default=not REDIS_URL)
CELERY_TASK_EAGER_PROPAGATES = False
# With no worker, bot turns run after the response in one background thread of the
# web process (games.tables.bot_worker), never inside the human's request. The test
# suite keeps them synchronous (tests/settings.py).
BOT_TURNS_IN_BACKGROUND = env_bool("BOT_TURNS_IN_BACKGROUND", default=CELERY_TASK_ALWAYS_EAGER)
BOT_QUEUE_SIZE = 1000
# The "expert" bots search a fixed number of iterations per decision (each game's
# expert.ITERATIONS, calibrated to about 1 s on one core): a budget in work, not in
# seconds, so a replayed turn chooses the same move. This scales it (2.0: twice as long).
BOT_EXPERT_BUDGET = float(env("BOT_EXPERT_BUDGET", "1.0"))
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_DEFAULT_QUEUE = env("CELERY_QUEUE", "boardgames")
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 3600}
CELERY_TIMEZONE = "UTC"
CELERY_BEAT_SCHEDULE = {
    "resend-stuck-turns": {"task": "games.tables.tasks.resend_stuck_turns", "schedule": 60.0},
    # Clocks in days: reminders, vacation days spent, timeouts, abandoned tables.
    "check-clocks": {"task": "games.tables.tasks.check_clocks", "schedule": 300.0},
    # Turn mails held back while a socket was fresh (idle tabs), or lost with the broker.
    "send-pending-turn-mails": {"task": "games.tables.tasks.send_pending_turn_mails",
                                "schedule": 60.0},
    # Mails that could not be handed to the mail server yet.
    "send-pending-mail": {"task": "games.tables.tasks.send_pending_mail", "schedule": 120.0},
    # Daily digests go out at each user's chosen hour: look every hour.
    "send-digests": {"task": "games.tables.tasks.send_digests",
                     "schedule": crontab(minute=2)},
    # Chat mails to players who asked for them (at most one per table an hour).
    "send-chat-mails": {"task": "games.chat.tasks.send_chat_mails", "schedule": 300.0},
    # Expired sessions, once a day.
    "clear-expired-sessions": {"task": "accounts.tasks.clear_expired_sessions",
                               "schedule": crontab(minute=17, hour=4)},
}

AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "home"
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "username*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "mandatory"
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_CONFIRM_EMAIL_ON_GET = False
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
ACCOUNT_CHANGE_EMAIL = True
ACCOUNT_LOGOUT_ON_PASSWORD_CHANGE = False
ACCOUNT_DEFAULT_HTTP_PROTOCOL = "https" if SITE_URL.startswith("https") else "http"
ACCOUNT_EMAIL_SUBJECT_PREFIX = "[Pyramid Tables] "
# Throttles (docs/operations.md). Failed logins on a real account: 5 per 5 minutes per
# account, 20 per 10 minutes per client address; with unknown usernames: 10 a minute
# per address, counted apart so they never lock real accounts out.
LOGIN_RATE_LIMITS = {
    "login_failed": "20/10m/ip,5/5m/key",
    "login_failed_unknown": "10/m/ip",
}
ACCOUNT_RATE_LIMITS = False if env_bool("DISABLE_RATE_LIMITS") else LOGIN_RATE_LIMITS
# The client's address behind reverse proxies: the number of proxies in front that
# append to X-Forwarded-For (0: the direct peer is the client), or a header that a
# trusted proxy sets to the client's address. allauth's settings, used by every throttle.
ALLAUTH_TRUSTED_PROXY_COUNT = int(env("TRUSTED_PROXY_COUNT", "0"))
ALLAUTH_TRUSTED_CLIENT_IP_HEADER = env("TRUSTED_CLIENT_IP_HEADER") or None
# Per-account limits on what one account makes others receive (django-ratelimit).
RATELIMIT_ENABLE = not env_bool("DISABLE_RATE_LIMITS")
RATELIMIT_IP_META_KEY = "accounts.adapter.client_ip"
TABLE_CREATE_RATE = env("TABLE_CREATE_RATE", "10/h")
INVITE_RATE = env("INVITE_RATE", "30/h")
# An invitee gets at most this many invitation mails an hour from one inviter; further
# invitations only show on their dashboard.
INVITATION_MAILS_PER_HOUR = int(env("INVITATION_MAILS_PER_HOUR", "3"))
ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"
# Sign-up also takes the browser's time zone (a hidden field forms.js fills in).
ACCOUNT_FORMS = {"signup": "accounts.forms.SignupForm"}

# Every mail goes through the outbox (games/tables/outbox.py): stored, then delivered by a
# worker through MAIL_DELIVERY_BACKEND, the real transport (env EMAIL_BACKEND).
EMAIL_BACKEND = "games.tables.outbox.OutboxBackend"
MAIL_DELIVERY_BACKEND = env(
    "EMAIL_BACKEND",
    "django.core.mail.backends.smtp.EmailBackend" if env("EMAIL_HOST")
    else "django.core.mail.backends.console.EmailBackend",
)
EMAIL_HOST = env("EMAIL_HOST", "localhost")
EMAIL_PORT = int(env("EMAIL_PORT", "25"))
EMAIL_HOST_USER = env("EMAIL_HOST_USER")
EMAIL_HOST_PASSWORD = env("EMAIL_HOST_PASSWORD")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS")
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL")
EMAIL_TIMEOUT = 10
EMAIL_FILE_PATH = env("EMAIL_FILE_PATH", str(BASE_DIR / "var" / "mail"))
DEFAULT_FROM_EMAIL = env("DEFAULT_FROM_EMAIL", "Pyramid Tables <noreply@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("es", _("Spanish"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = "UTC"
USE_TZ = True

STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not DEBUG and env_bool("STATIC_MANIFEST", True)
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}
WHITENOISE_USE_FINDERS = DEBUG or not env_bool("STATIC_MANIFEST", True)

# Security for production (DEBUG off).
# A signed-in player stays signed in this long after their last day on the site
# (accounts.middleware.KeepSessionAliveMiddleware renews the session once a day).
SESSION_COOKIE_AGE = int(env("SESSION_DAYS", "30")) * 24 * 3600
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = SITE_URL.startswith("https")
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", SITE_URL.startswith("https") and not DEBUG)
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if env_bool("BEHIND_PROXY") else None
SECURE_HSTS_SECONDS = int(env("SECURE_HSTS_SECONDS", "0" if DEBUG else "31536000"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = not DEBUG
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD")
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"

# Content-Security-Policy (django-csp): scripts, styles, images and sockets from this
# site only; no inline script or style anywhere (htmx's indicator styles are off, see
# _base.html), no plugins, no framing. 'self' covers the same-origin ws:/wss: socket.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}
# Permissions-Policy (django-permissions-policy): the site needs no device feature.
PERMISSIONS_POLICY = {feature: [] for feature in (
    "accelerometer", "ambient-light-sensor", "autoplay", "bluetooth", "browsing-topics",
    "camera", "display-capture", "encrypted-media", "geolocation", "gyroscope", "hid",
    "idle-detection", "magnetometer", "microphone", "midi", "payment", "publickey-credentials-get",
    "screen-wake-lock", "serial", "usb", "xr-spatial-tracking")}
PERMISSIONS_POLICY["fullscreen"] = ["self"]

# The test-only game appears in the lobby only when this is on.
ENABLE_TEST_GAME = env_bool("ENABLE_TEST_GAME")
if ENABLE_TEST_GAME and "tests.high_card" not in INSTALLED_APPS:
    INSTALLED_APPS.append("tests.high_card")

# Operator knobs for play over days.
VACATION_DAYS_PER_YEAR = int(env("VACATION_DAYS_PER_YEAR", "15"))
# A live socket on a table holds back its turn mail while its last heartbeat is this fresh.
TURN_MAIL_SOCKET_FRESH_SECONDS = int(env("TURN_MAIL_SOCKET_FRESH_SECONDS", "120"))
# A socket's heartbeats write to the database at most once per this many seconds
# (pages send one every 50 s; anything more often is coalesced).
SOCKET_HEARTBEAT_WRITE_SECONDS = int(env("SOCKET_HEARTBEAT_WRITE_SECONDS", "30"))
# Failed mail deliveries are retried after 1, 2, 4, ... times this (at most an hour).
MAIL_RETRY_BASE_SECONDS = int(env("MAIL_RETRY_BASE_SECONDS", "60"))
# ... for this many hours; the first failure after that marks the mail failed (admin, log).
MAIL_RETRY_HOURS = int(env("MAIL_RETRY_HOURS", "72"))
# A table's chat takes messages until this many days after the table ended.
CHAT_CLOSE_AFTER_DAYS = int(env("CHAT_CLOSE_AFTER_DAYS", "7"))

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env("LOG_LEVEL", "INFO")},
    "loggers": {"daphne": {"level": "WARNING"}, "django.channels.server": {"level": "WARNING"}},
}

# Live table pages (games/tables/live.py, consumers.py; docs/operations.md).
# A table page shows this many of the latest log entries; the rest is a link away.
TABLE_LOG_SHOWN = int(env("TABLE_LOG_SHOWN", "40"))
# Renders of pushes run on this many threads per web process, off the event loop.
WS_RENDER_THREADS = int(env("WS_RENDER_THREADS", "4"))
# Anonymous sockets per client address and per table, per web process (close code 4429).
WS_ANON_PER_ADDRESS = int(env("WS_ANON_PER_ADDRESS", "20"))
WS_ANON_PER_TABLE = int(env("WS_ANON_PER_TABLE", "200"))
# Seconds a busy client is told to wait (503 Retry-After).
DB_POOL_RETRY_AFTER = int(env("DB_POOL_RETRY_AFTER", "2"))

# The public API (api/, docs/api.md). Calls per token: all calls, and the writes among them
# (moves, new tables, joins...); over either, 429 with Retry-After (django-ratelimit).
API_RATE = env("API_RATE", "300/m")
API_WRITE_RATE = env("API_WRITE_RATE", "60/m")
# Streams open at once per user, per web process; keep-alive line every so many seconds.
API_STREAMS_PER_USER = int(env("API_STREAMS_PER_USER", "4"))
API_STREAM_KEEPALIVE = float(env("API_STREAM_KEEPALIVE", "15"))
