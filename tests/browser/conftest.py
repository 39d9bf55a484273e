"""Browser-test fixtures: a real Daphne server, file-based mail, Debian's Chromium.

pytest-django's `live_server` is WSGI only (the WebSocket handshake would 404), so
a session-scoped fixture forks `daphne.testing.DaphneProcess` serving the
project's ASGI application against the test database:

- SQLite: the test database is a file (of this run's own, see
  `django_db_modify_db_settings`), so the server process opens the same file;
  PostgreSQL is shared anyway.
- Channels: with REDIS_URL both processes share the Redis layer; without it the
  in-memory layer lives in the server process, which is where moves are posted.
- Mail: the server process cannot reach the test process's `mail.outbox`, so it
  writes mail with Django's file backend into a temporary directory, read back by
  `LiveServer.mails()`.

Tests that use `live_server_asgi` must also use `transactional_db` (the server
sees only committed rows).
"""

from __future__ import annotations

import asyncio
import email
import email.policy
import functools
import os
import re
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
SHOTS = Path(os.environ.get("BROWSER_SHOTS_DIR", "/tmp/shots"))


@pytest.fixture(scope="session", autouse=True)
def _allow_orm_under_playwright():
    """Playwright's sync API keeps an event loop running in this thread; the ORM
    calls made by the tests themselves are still plain synchronous calls."""
    old = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    yield
    if old is None:
        os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    else:
        os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = old


@pytest.fixture(scope="session", autouse=True)
def _pushes_from_the_test_thread():
    """Moves the tests make themselves (another player's, a bot's) push like the server's.

    `broadcast` hops to the event loop with `async_to_sync`, which refuses to run in a
    thread whose loop is running, as Playwright's is here: each such push failed with a
    logged traceback (and the page learnt of the move only when reloaded). Here the hop
    runs on a thread of its own."""
    from games.tables import broadcast

    original = broadcast._send_all

    def send_all(layer, messages):
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return original(layer, messages)
        with ThreadPoolExecutor(max_workers=1) as pool:
            return pool.submit(original, layer, messages).result()

    broadcast._send_all = send_all
    yield
    broadcast._send_all = original


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix):
    """A test database of this run's own, still a file for SQLite.

    Several people run the suite at once in the shared tree: with the fixed
    names (test-db.sqlite3, test_<name>) one run's teardown deletes the database
    under another's server ("readonly database", "already exists").
    """
    from django.conf import settings

    db = settings.DATABASES["default"]
    test = db.setdefault("TEST", {})
    if db["ENGINE"].endswith("sqlite3"):
        test["NAME"] = str(Path(tempfile.gettempdir()) / f"browser-tests-{os.getpid()}.sqlite3")
    else:
        test["NAME"] = f"{test.get('NAME') or 'test_' + db['NAME']}_browser_{os.getpid()}"


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """Debian's Chromium: `playwright install` cannot download a browser here."""
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run",
                 "--disable-quic"],
    }


def _make_application():
    """The project's ASGI app, with static files served from the finders."""
    from channels.routing import get_default_application
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

    return ASGIStaticFilesHandler(get_default_application())


def _server_setup(error_log: Path | None = None):
    """Runs in the forked server process before it serves."""
    import logging

    from asgiref.sync import SyncToAsync
    from django.db import connections

    if error_log is not None:
        # What the server logs at ERROR (a 500's traceback from django.request, a consumer's
        # crash) also goes to a file the test process reads into a failing test's report:
        # the server's own stderr is lost under xdist.
        handler = logging.FileHandler(error_log)
        handler.setLevel(logging.ERROR)
        handler.setFormatter(logging.Formatter("%(asctime)s %(name)s %(levelname)s %(message)s"))
        logging.getLogger().addHandler(handler)

    # fork copies the executor but not its thread: without a fresh one every
    # database_sync_to_async call (WebSocket connect) hangs after earlier
    # Channels work in the parent.
    SyncToAsync.single_thread_executor = ThreadPoolExecutor(max_workers=1)
    # Never reuse a connection object inherited from the parent.
    for conn in connections.all(initialized_only=True):
        conn.connection = None


@dataclass
class LiveServer:
    url: str
    mail_dir: Path
    error_log: Path | None = None

    def errors(self) -> str:
        """What the server has logged at ERROR so far."""
        if self.error_log is None or not self.error_log.exists():
            return ""
        return self.error_log.read_text(errors="replace")

    def mails(self, to: str | None = None) -> list[email.message.EmailMessage]:
        """Every message the server has written so far (oldest first)."""
        found = []
        for path in sorted(self.mail_dir.glob("*.log"), key=lambda p: p.stat().st_mtime):
            # The file backend separates messages with a line of 79 dashes.
            for chunk in re.split(rb"\n-{79}\n", path.read_bytes()):
                if not chunk.strip():
                    continue
                msg = email.message_from_bytes(chunk.lstrip(), policy=email.policy.default)
                if to is None or to in str(msg["To"]):
                    found.append(msg)
        return found

    def wait_for_mail(self, to: str, timeout: float = 10.0) -> email.message.EmailMessage:
        deadline = time.monotonic() + timeout
        while True:
            mails = self.mails(to)
            if mails:
                return mails[-1]
            if time.monotonic() > deadline:
                raise AssertionError(f"no mail to {to} in {self.mail_dir}")
            time.sleep(0.1)


def mail_text(msg: email.message.EmailMessage) -> str:
    part = msg.get_body(preferencelist=("plain", "html"))
    return part.get_content() if part is not None else ""


@pytest.fixture(scope="session")
def live_server_asgi(django_db_setup, django_db_blocker, tmp_path_factory):
    """A Daphne server in a child process, on the test database."""
    from daphne.testing import DaphneProcess
    from django.db import connections
    from django.test.utils import override_settings

    mail_dir = tmp_path_factory.mktemp("mail")
    error_log = tmp_path_factory.mktemp("server") / "errors.log"
    # Set before the fork so the server process inherits them.
    overrides = override_settings(
        EMAIL_BACKEND="django.core.mail.backends.filebased.EmailBackend",
        EMAIL_FILE_PATH=str(mail_dir),
    )
    overrides.enable()
    process = None
    try:
        with django_db_blocker.unblock():
            # The child must not share the parent's open database sockets.
            connections.close_all()
            process = DaphneProcess("127.0.0.1", _make_application,
                                    setup=functools.partial(_server_setup, error_log))
            process.start()
            deadline = time.monotonic() + 30
            while not process.ready.wait(timeout=0.5):
                if not process.is_alive() or time.monotonic() > deadline:
                    detail = "" if process.errors.empty() else process.errors.get(False)[1]
                    raise RuntimeError(f"Daphne did not start.\n{detail}")
        yield LiveServer(url=f"http://127.0.0.1:{process.port.value}", mail_dir=mail_dir,
                         error_log=error_log)
    finally:
        if process is not None:
            process.terminate()
            process.join(10)
        overrides.disable()


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    """A failing test that used the live server shows what the server logged at ERROR
    while the test ran (a 500 in the browser is otherwise only "Server Error (500)")."""
    report = yield
    server = item.funcargs.get("live_server_asgi") if hasattr(item, "funcargs") else None
    if report.failed and isinstance(server, LiveServer):
        start = item.stash.get(_server_log_start, 0)
        text = server.errors()[start:]
        if text:
            report.sections.append(("server errors", text))
    return report


_server_log_start = pytest.StashKey[int]()


@pytest.fixture(autouse=True)
def _mark_server_log(request):
    """Where the server's error log stood when the test began."""
    if "live_server_asgi" in request.fixturenames:
        server = request.getfixturevalue("live_server_asgi")
        request.node.stash[_server_log_start] = len(server.errors())


@pytest.fixture
def live_url(live_server_asgi, transactional_db) -> str:
    return live_server_asgi.url


@pytest.fixture
def new_context(browser, live_url):
    """A factory of browser contexts on the live server, closed after the test."""
    contexts = []

    def make(**kwargs):
        kwargs.setdefault("viewport", {"width": 1280, "height": 900})
        context = browser.new_context(base_url=live_url, **kwargs)
        context.set_default_timeout(10_000)
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        context.close()


@pytest.fixture
def shots_dir() -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    return SHOTS
