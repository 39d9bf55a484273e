"""A tiny stand-in for Celery beat when tasks run in-process (no REDIS_URL).

`make run` serves the site with no other services; without beat, turn clocks
would never run out and digests never go out. This thread runs the entries of
CELERY_BEAT_SCHEDULE in the web process instead. Production runs real beat.
"""

from __future__ import annotations

import logging
import threading
import time

from django.conf import settings
from django.db import close_old_connections

log = logging.getLogger(__name__)
_started = threading.Event()


def start() -> bool:
    """Start the thread once per process; False if it was already running or not wanted."""
    if not settings.CELERY_TASK_ALWAYS_EAGER or _started.is_set():
        return False
    _started.set()
    threading.Thread(target=_loop, name="in-process-beat", daemon=True).start()
    log.info("in-process beat started: %s", ", ".join(settings.CELERY_BEAT_SCHEDULE))
    return True


def run_due(app, entries: dict, last_run: dict) -> float:
    """Run every entry that is due; returns seconds until the next check."""
    wait = 60.0
    for name, (schedule, task_name) in entries.items():
        due, next_in = schedule.is_due(last_run[name])
        if due:
            last_run[name] = schedule.now()
            try:
                app.tasks[task_name].apply()
            except Exception:  # noqa: BLE001 - one failing task must not stop the others
                log.exception("in-process beat: %s failed", name)
            finally:
                close_old_connections()
        wait = min(wait, max(float(next_in), 1.0))
    return wait


def _loop() -> None:
    from celery.schedules import maybe_schedule

    from config.celery import app

    app.loader.import_default_modules()
    entries = {name: (maybe_schedule(entry["schedule"], app=app), entry["task"])
               for name, entry in settings.CELERY_BEAT_SCHEDULE.items()}
    last_run = {name: schedule.now() for name, (schedule, _) in entries.items()}
    while True:
        time.sleep(run_due(app, entries, last_run))
