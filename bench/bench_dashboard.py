"""The dashboard of a player with 100 late-game tables: queries, CPU and time per request.

    .venv/bin/python bench/bench_dashboard.py [--tables 100] [--requests 60] [--clocks]

Production-like: DEBUG off (Django's cached template loader), PostgreSQL (its own
database, dropped at the end), Redis cache, one Daphne on a free loopback port.
The tables are bench_load's (bench/bench_load.py build_tables: the three games
replayed by a seeded random game to 300 decisions or 80 % of it, a heavy player
at every one). Prints the dashboard's queries, then over HTTP (gzip, as a browser
asks) p50/p95 and the server's CPU time per request, and in this process (Django's
test client, no network) p50/p95 and CPU per request, each beside issue 10's goal.
`--profile` also prints each query with its time and a cProfile of the in-process
render; `--keep` with BENCH_DASH_DB=<name> keeps that database and reuses it next time.
Bounded: under a minute on an idle 2-core machine (most of it the set-up); loopback only.
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import bench_load  # noqa: E402  (its set-up functions only; it runs nothing on import)

DB = os.environ.get("BENCH_DASH_DB") or f"bench_dash_{os.getpid()}"
PREFIX = f"bench-dash-{os.getpid()}"
REDIS_URL = "redis://127.0.0.1:6379/12"
ADMIN = os.environ.get("PGUSER") or ("root" if os.getuid() == 0 else "postgres")
ENV = {
    "DATABASE_URL": f"postgres://{ADMIN}@127.0.0.1:5432/{DB}", "REDIS_URL": REDIS_URL,
    "CHANNELS_PREFIX": PREFIX, "CELERY_QUEUE": PREFIX, "CACHE_PREFIX": PREFIX,
    "SECRET_KEY": "bench-dash-" + "x" * 40, "DEBUG": "0", "ALLOWED_HOSTS": "127.0.0.1,localhost",
    "SITE_URL": "http://127.0.0.1", "STATIC_MANIFEST": "0", "DISABLE_RATE_LIMITS": "1",
    "DB_POOL_MIN": "1", "DB_POOL_MAX": "4", "LOG_LEVEL": "WARNING",
    "DJANGO_SETTINGS_MODULE": "config.settings",
}
pct = bench_load.pct


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (from /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def start_server(port: int) -> subprocess.Popen:
    return bench_load.start_server(port, application="config.asgi:application", env=ENV,
                                   prefix=PREFIX)


def get(port: int, session: str) -> tuple[int, int]:
    request = urllib.request.Request(f"http://127.0.0.1:{port}/", headers={
        "Cookie": f"sessionid={session}", "Accept-Encoding": "gzip"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return response.status, len(response.read())


def exists(db: str) -> bool:
    import psycopg

    with psycopg.connect(f"host=127.0.0.1 dbname=postgres user={ADMIN}") as conn:
        row = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [db]).fetchone()
        return row is not None


def reuse_tables():
    """The tables of a kept database, and a fresh session of its heavy player."""
    from django.test import Client

    from accounts.models import User
    from games.tables.models import Seat

    heavy = User.objects.get(username="heavy")
    client = Client()
    client.force_login(heavy)
    made = [{"id": s.table_id, "early": s.table.seq < 20}
            for s in Seat.objects.filter(user=heavy).select_related("table")]
    return made, {heavy.pk: client.cookies["sessionid"].value}, heavy


def line(name, value, goal, ok=None):
    mark = "" if ok is None else ("MET" if ok else "NOT MET")
    print(f"  {name:<44} {value:>12}   goal {goal:<10} {mark}", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--decisions", type=int, default=300)
    parser.add_argument("--requests", type=int, default=60)
    parser.add_argument("--clocks", action="store_true",
                        help="give the player's waiting seats a deadline (the turn rows "
                             "then show it; bench_load's tables have none)")
    parser.add_argument("--profile", action="store_true", help="cProfile of the in-process render")
    parser.add_argument("--keep", action="store_true",
                        help="keep the database (BENCH_DASH_DB names it) and reuse it next time")
    args = parser.parse_args()
    started = time.monotonic()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    reuse = args.keep and os.environ.get("BENCH_DASH_DB") and exists(DB)
    if not reuse:
        bench_load.admin_sql(f"DROP DATABASE IF EXISTS {DB} WITH (FORCE)", f"CREATE DATABASE {DB}")
    proc = None
    try:
        os.environ.update(ENV)
        subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT,
                       check=True)
        import django

        django.setup()
        if reuse:
            made, sessions, heavy = reuse_tables()
        else:
            made, _floor, sessions, heavy = bench_load.build_tables(args.tables, args.decisions)
        if args.clocks:
            from datetime import timedelta

            from django.utils import timezone

            from games.tables.models import Seat

            now = timezone.now()
            for seat in Seat.objects.filter(user=heavy, owes_since__isnull=False):
                seat.deadline = now + timedelta(days=2, minutes=seat.pk)
                seat.save(update_fields=["deadline"])
        print(f"set up in {time.monotonic() - started:.0f} s", flush=True)
        port = free_port()
        proc = start_server(port)

        from django.db import connection
        from django.test import Client
        from django.test.utils import CaptureQueriesContext

        client = Client(HTTP_HOST="127.0.0.1")
        client.force_login(heavy)
        client.get("/")
        with CaptureQueriesContext(connection) as queries:
            response = client.get("/")
        assert response.status_code == 200, response.status_code
        late = sum(1 for t in made if not t["early"])
        print(f"\ndashboard of a player at {late} late-game tables "
              f"({len(response.content) / 1024:.0f} KB of HTML)")
        line("queries", str(len(queries)), "<= 10", len(queries) <= 10)
        db_ms = sum(float(q["time"]) for q in queries.captured_queries) * 1000
        line("time in those queries (one request)", f"{db_ms:.1f} ms", "")
        if args.profile:
            for q in queries.captured_queries:
                print(f"    {float(q['time']) * 1000:6.1f} ms  {q['sql'][:300]}")

        session = sessions[heavy.pk]
        for _ in range(5):  # warm: templates compiled, pool filled
            get(port, session)
        times, sizes = [], []
        cpu0 = cpu_seconds(proc.pid)
        for _ in range(args.requests):
            t0 = time.perf_counter()
            status, size = get(port, session)
            times.append(time.perf_counter() - t0)
            sizes.append(size)
            assert status == 200, status
        server_cpu = (cpu_seconds(proc.pid) - cpu0) / args.requests
        line(f"HTTP p50 ({args.requests} requests)", f"{pct(times, 50) * 1000:.1f} ms", "")
        line(f"HTTP p95 ({args.requests} requests)", f"{pct(times, 95) * 1000:.1f} ms",
             "<= 50 ms", pct(times, 95) <= 0.05)
        line("server CPU per request (Daphne process)", f"{server_cpu * 1000:.1f} ms", "")
        line("answer on the wire (gzip)", f"{statistics.median(sizes) / 1024:.1f} KB", "")

        times, cpus = [], []
        for _ in range(args.requests):
            t0, c0 = time.perf_counter(), time.process_time()
            client.get("/")
            cpus.append(time.process_time() - c0)
            times.append(time.perf_counter() - t0)
        line("in-process p50 (test client)", f"{pct(times, 50) * 1000:.1f} ms", "")
        line("in-process p95 (test client)", f"{pct(times, 95) * 1000:.1f} ms", "")
        line("in-process CPU per request (median)", f"{statistics.median(cpus) * 1000:.1f} ms", "")
        if args.profile:
            import cProfile
            import pstats

            profiler = cProfile.Profile()
            profiler.enable()
            for _ in range(20):
                client.get("/")
            profiler.disable()
            pstats.Stats(profiler).sort_stats("cumulative").print_stats(60)
            pstats.Stats(profiler).sort_stats("tottime").print_stats(30)
    finally:
        bench_load.stop_server(proc)
        if not args.keep:
            bench_load.admin_sql(f"DROP DATABASE IF EXISTS {DB} WITH (FORCE)")
        import redis

        client = redis.Redis.from_url(REDIS_URL)
        for key in client.scan_iter(f"*{PREFIX}*"):
            client.delete(key)
    print(f"\nbench_dashboard done in {time.monotonic() - started:.0f} s; "
          f"uptime: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}")


if __name__ == "__main__":
    main()
