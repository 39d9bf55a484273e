"""The production server's access log never holds an invitation token (issue 11)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from django.conf import settings


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_the_access_log_of_config_daphne_server_leaves_out_query_strings(tmp_path):
    port, log = free_port(), tmp_path / "access.log"
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "tests.settings",
           "DATABASE_URL": f"sqlite:///{tmp_path / 'empty.sqlite3'}"}
    env.pop("REDIS_URL", None)
    server = subprocess.Popen(
        [sys.executable, "-m", "config.daphne_server", "-b", "127.0.0.1", "-p", str(port),
         "--access-log", str(log), "config.asgi:application"],
        cwd=Path(settings.BASE_DIR), env=env, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/no-such-page/?invite=SeCrEtToKeN",
                                       timeout=5)
            except urllib.error.HTTPError:
                break  # answered (404): the request is in the log
            except OSError:
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.3)
            else:
                break
        for _ in range(50):
            if log.exists() and "/no-such-page/" in log.read_text():
                break
            time.sleep(0.1)
    finally:
        server.terminate()
        server.wait(20)
    written = log.read_text()
    assert '"GET /no-such-page/"' in written, written
    assert "SeCrEtToKeN" not in written and "invite=" not in written
