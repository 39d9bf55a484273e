"""With no broker, the periodic tasks still run: in the web process, on their schedule."""

from datetime import timedelta

from celery.schedules import schedule

from config.celery import app
from games.tables import inprocess_beat


def test_run_due_runs_only_due_entries_and_survives_failures(monkeypatch):
    calls = []

    @app.task(name="tests.beat_probe")
    def probe():
        calls.append("probe")

    @app.task(name="tests.beat_broken")
    def broken():
        calls.append("broken")
        raise RuntimeError("boom")

    every_minute = schedule(timedelta(seconds=60), app=app)
    entries = {"probe": (every_minute, "tests.beat_probe"),
               "broken": (every_minute, "tests.beat_broken")}
    now = every_minute.now()
    last = {"probe": now - timedelta(seconds=61), "broken": now - timedelta(seconds=61)}
    wait = inprocess_beat.run_due(app, entries, last)
    assert calls == ["probe", "broken"]
    assert 1.0 <= wait <= 60.0
    calls.clear()
    inprocess_beat.run_due(app, entries, last)  # just ran: nothing is due
    assert calls == []


def test_every_beat_entry_names_a_registered_task():
    from django.conf import settings

    app.loader.import_default_modules()
    for entry in settings.CELERY_BEAT_SCHEDULE.values():
        assert entry["task"] in app.tasks, entry["task"]
