"""One background thread that plays bot turns when there is no Celery worker.

With no services (`make run`: no REDIS_URL, tasks eager) a bot turn used to run
inside the request of the human's move, so the page waited for every bot.  Here
the web process keeps one daemon thread and a bounded queue: the request only
enqueues `(table_id, seq, seat)` after commit and answers; the thread plays the
turn, and the move reaches the page by the usual push.

The queue is bounded: when it is full the turn is dropped with a log line, and
the `resend_stuck_turns` sweep (run by the in-process beat) queues it again; the
`seq` check in `play_bot_turn` makes any repeat harmless.
"""

from __future__ import annotations

import logging
import queue
import threading

from django.conf import settings
from django.db import close_old_connections

log = logging.getLogger(__name__)

_lock = threading.Lock()
_queue: queue.Queue | None = None
_thread: threading.Thread | None = None


def _get_queue() -> queue.Queue:
    global _queue, _thread
    with _lock:
        if _queue is None:
            _queue = queue.Queue(maxsize=getattr(settings, "BOT_QUEUE_SIZE", 1000))
        if _thread is None or not _thread.is_alive():
            _thread = threading.Thread(target=_loop, args=(_queue,), name="bot-turns", daemon=True)
            _thread.start()
        return _queue


def submit(job) -> bool:
    """Queue a callable (a bot turn) for the thread; False if the queue is full."""
    try:
        _get_queue().put_nowait(job)
    except queue.Full:
        log.warning("bot queue full; the sweep will queue the turn again")
        return False
    return True


def wait_idle(timeout: float = 10.0) -> bool:
    """Block until every queued job is done (tests, shutdown); False on timeout."""
    q = _get_queue()
    done = threading.Event()

    def mark():
        done.set()

    if not submit(mark):
        return False
    return done.wait(timeout)


def _loop(q: queue.Queue) -> None:
    while True:
        job = q.get()
        try:
            close_old_connections()
            job()
        except Exception:  # noqa: BLE001 - one failing turn must not stop the thread
            log.exception("background bot job failed")
        finally:
            close_old_connections()
            q.task_done()
