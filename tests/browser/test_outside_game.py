"""Issue 17's "done when": a game made outside this tree, as its author would make it.

`manage.py startgame` writes the package into a temporary directory; a fresh virtual
environment gets the framework and the game with pip; the game's own test suite and
`checkgame` run there, outside this checkout; a Daphne server started from that
environment lists the game in the lobby by its entry point alone (no GAME_APPS, no
edit of the settings), and a player plays a table against its bot to the end in
Chromium.

Why the fresh environment borrows the test environment's dependencies: installing
Django, Channels, Celery, psycopg, Playwright... from PyPI into every fresh venv
takes minutes (and the network) on each run, and would test PyPI rather than the
kit. So the venv gets a `.pth` file naming the running interpreter's own
site-packages (found with `site.getsitepackages()`, never a fixed path), and pip
installs only the two packages under test, `--no-deps --no-build-isolation
--no-index`: the framework (built from a copy of this checkout, so the build leaves
nothing behind in the tree) and the game. Neither is importable from the test
environment itself, so what the server and the commands import is what pip put in
the fresh venv. Everything is made in tmp_path: the test runs from a clean clone.
"""

from __future__ import annotations

import os
import re
import shutil
import site
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import verified_user

ROOT = Path(__file__).resolve().parents[2]
NAME, SLUG, TITLE = "outside_nim", "outside-nim", "Outside Nim"
WAIT = 30_000  # ms: the server is a separate process on a shared, often loaded machine
COPY_IGNORE = shutil.ignore_patterns(".git", ".venv", "__pycache__", "*.pyc", "build",
                                     "*.egg-info", "staticfiles", "var", "*.sqlite3*",
                                     "test-results", "node_modules")

# Two venv-and-pip steps, the game's own suite and checkgame take about a minute on a quiet
# machine; the shared test machine can be many times slower.
pytestmark = [pytest.mark.browser, pytest.mark.services, pytest.mark.timeout(1200)]


def clean_env(**extra) -> dict:
    """The environment without this checkout's test settings or path."""
    env = {k: v for k, v in os.environ.items()
           if k not in {"PYTHONPATH", "DJANGO_SETTINGS_MODULE", "ENABLE_TEST_GAME", "GAME_APPS",
                        "REDIS_URL", "DATABASE_URL", "VIRTUAL_ENV"}}
    env.update(extra)
    return env


def run(cmd, *, cwd, env=None, timeout=600) -> subprocess.CompletedProcess:
    result = subprocess.run([str(c) for c in cmd], cwd=cwd, env=env or clean_env(),
                            capture_output=True, text=True, timeout=timeout)
    assert result.returncode == 0, (f"{cmd} failed ({result.returncode}):\n"
                                    f"{result.stdout[-3000:]}\n{result.stderr[-3000:]}")
    return result


@pytest.fixture(scope="module")
def outside(tmp_path_factory):
    """The game written by startgame and installed with the framework in a fresh venv."""
    tmp = tmp_path_factory.mktemp("outside")
    # 1. The author runs startgame (from this checkout, as a framework user would).
    run([sys.executable, ROOT / "manage.py", "startgame", NAME, "--directory", tmp,
         "--title", TITLE], cwd=ROOT, env=clean_env(PYTHONPATH=str(ROOT)))
    game_dir = tmp / NAME
    assert (game_dir / "pyproject.toml").exists()
    assert f'{SLUG} = "{NAME}"' in (game_dir / "pyproject.toml").read_text()

    # 2. A fresh venv that borrows the test venv's dependencies (see the docstring).
    venv = tmp / "venv"
    # Without its own pip (ensurepip is the slowest step): the running pip installs into it.
    run([sys.executable, "-m", "venv", "--without-pip", venv], cwd=tmp)
    python = venv / "bin" / "python"
    fresh_site = run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                     cwd=tmp).stdout.strip()
    borrowed = [p for p in site.getsitepackages() if Path(p).is_dir()]
    (Path(fresh_site) / "borrowed_test_dependencies.pth").write_text("\n".join(borrowed) + "\n")

    # 3. pip installs the framework (from a copy of this tree) and the game.
    framework = tmp / "framework"
    shutil.copytree(ROOT, framework, ignore=COPY_IGNORE)
    run([sys.executable, "-m", "pip", "--python", python, "install", "-q", "--no-deps",
         "--no-build-isolation", "--no-index", framework, game_dir], cwd=tmp)
    shutil.rmtree(framework)  # nothing may import the copy: only the installed packages
    where = run([python, "-c", "import games.engine, config, outside_nim; "
                 "print(games.engine.__file__); print(config.__file__); "
                 "print(outside_nim.__file__)"], cwd=tmp).stdout.split()
    assert all(p.startswith(fresh_site) for p in where), where
    return {"tmp": tmp, "python": python, "game_dir": game_dir}


def test_startgame_package_installs_passes_its_tests_and_checkgame_outside_the_tree(outside):
    python, game_dir = outside["python"], outside["game_dir"]
    # The game's own suite (harness, bots, boards, purity) from its own directory.
    tests = run([python, "-m", "pytest", "-q", "-p", "no:cacheprovider"],
                cwd=game_dir)
    assert re.search(r"\b6 passed\b", tests.stdout), tests.stdout
    # checkgame with nothing but the entry point telling the site about the game.
    check = run([python, "-m", "django", "checkgame", SLUG, "--settings", "config.settings"],
                cwd=outside["tmp"])
    assert f"{SLUG}: no problems" in check.stdout
    assert check.stderr.strip() == ""
    listed = run([python, "-c", "import django; django.setup(); "
                  "from django.conf import settings; "
                  "from games.tables.plugins import listed_games; "
                  "print([g.game_slug for g in listed_games()]); "
                  f"print({NAME!r} in settings.INSTALLED_APPS)"],
                 cwd=outside["tmp"], env=clean_env(DJANGO_SETTINGS_MODULE="config.settings"))
    assert SLUG in listed.stdout and listed.stdout.split()[-1] == "True"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def database_url() -> str:
    """The test database, as a URL for the server process (PostgreSQL or SQLite)."""
    from django.db import connection

    s = connection.settings_dict
    if s["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{s['NAME']}"
    auth = s["USER"] + (f":{s['PASSWORD']}" if s["PASSWORD"] else "")
    return f"postgres://{auth}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


@pytest.fixture
def outside_server(outside, transactional_db):
    """Daphne from the fresh venv on the test database: the site as an operator runs it."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = clean_env(DATABASE_URL=database_url(), DB_POOL="0", DEBUG="1", SITE_URL=url,
                    CSRF_TRUSTED_ORIGINS=url, DISABLE_RATE_LIMITS="1",
                    CELERY_TASK_ALWAYS_EAGER="1", BOT_TURNS_IN_BACKGROUND="0")
    log = (outside["tmp"] / "daphne.log").open("w")
    server = subprocess.Popen([outside["python"], "-m", "daphne", "-b", "127.0.0.1", "-p",
                               str(port), "config.asgi:application"],
                              cwd=outside["tmp"], env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(url + "/tables/", timeout=2)
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("Daphne did not start:\n"
                                       + (outside["tmp"] / "daphne.log").read_text()[-3000:])
                time.sleep(0.3)
        yield url
    finally:
        server.terminate()
        try:
            server.wait(20)
        except subprocess.TimeoutExpired:  # still closing its connections
            server.kill()
            server.wait(10)
        log.close()


def test_a_table_of_the_outside_game_is_played_to_the_end_in_the_browser(browser, outside_server):
    from django.test import Client

    from games.tables.models import Table

    # Signed in with a session row the server reads from the shared database (as
    # test_journey's no-JavaScript test does): the login form is tested elsewhere, and
    # the site's password hashing is slow on a loaded machine.
    client = Client()
    client.force_login(verified_user("nina"))
    context = browser.new_context(base_url=outside_server, viewport={"width": 1280, "height": 900})
    context.set_default_timeout(WAIT)
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value,
                          "url": outside_server}])
    page = context.new_page()

    # The lobby's game list offers it: the entry point alone put it there.
    page.goto("/tables/new/")
    expect(page.get_by_role("button", name="Sign out")).to_be_visible(timeout=WAIT)
    page.get_by_label(TITLE).check()
    page.get_by_role("button", name="Next").click()
    expect(page).to_have_url(re.compile(rf"/tables/new/\?game={SLUG}$"), timeout=WAIT)
    form = page.locator("main form.stacked")
    form.locator("select[name=players]").select_option("2")
    form.locator("select[name=seat_1]").select_option("fast")
    form.locator("select[name=option_stones]").select_option("10")
    form.get_by_role("button", name="Create table").click()
    expect(page).to_have_url(re.compile(r"/tables/\d+/$"), timeout=WAIT)
    table_id = int(re.search(r"/tables/(\d+)/$", page.url).group(1))
    expect(page.get_by_test_id("stones")).to_be_visible(timeout=WAIT)

    # Take stones until somebody takes the last one; the bot answers within each request.
    buttons = page.locator("#board button.move-button")
    for _ in range(12):
        # Wait for the bot's answer (pushed, or in the htmx answer): a move of ours or the end.
        expect(page.locator("#board [data-testid=winner], #board button.move-button").first
               ).to_be_visible(timeout=WAIT)
        if page.get_by_test_id("winner").count():
            break
        before = page.get_by_test_id("stones").inner_text()
        buttons.first.click()
        expect(page.get_by_test_id("stones")).not_to_have_text(before, timeout=WAIT)
    expect(page.get_by_test_id("winner")).to_contain_text("took the last stone and wins",
                                                          timeout=WAIT)
    expect(page.locator("#board button.move-button")).to_have_count(0)
    table = Table.objects.get(pk=table_id)
    assert table.game == SLUG and table.status == Table.Status.FINISHED
    assert table.events.filter(kind="move").count() >= 4  # 10 stones, at most 3 per move
    context.close()
