"""Where a live move's CPU goes, in one process (issue 10's throughput and latency goals).

    .venv/bin/python bench/bench_move_cpu.py [--tables 6] [--rounds 10] [--decisions 300]

Builds late-game tables of each game as bench/bench_load.py does (its own database and
role, dropped at the end; no server: Django's test client in this process, with every
middleware), then for each move measures the CPU time (`time.process_time`, so other
work on the machine changes it little) of:

- the move: POST /tables/<id>/move as htmx, the whole view with its answer (the mover's
  board, prompt and log);
- the table read that every push of that change shares (`live.load_info`);
- the push for the other seat and the push for spectators (`live.render_push`, as a
  socket that had seen the previous move gets them);

and the same POST for the floor view of bench/floor.py (lock, insert, update, one group
message). bench_load's throughput goal (one process sustains half the floor's moves/s)
needs a move and its pushes to cost at most twice what the floor costs a process there
(this floor view plus the HTTP and ASGI work around every request); its latency goal (p99
move -> push at most 1.5x the floor) needs the move view, the table read and one push to
add no more than half of that. The first round of each table is not counted (template and state caches).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import bench_load as bl  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", type=int, default=6, help="late tables (spread over games)")
    parser.add_argument("--rounds", type=int, default=10, help="moves per table")
    parser.add_argument("--decisions", type=int, default=300)
    args = parser.parse_args()
    os.chdir(ROOT)
    bl.create_database()
    try:
        bl.setup_django()
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        made, floor, _sessions, _heavy = bl.build_tables(args.tables, args.decisions)
        measure(made, floor, args.rounds)
    finally:
        bl.stop_server(None)
        bl.drop_database()


def measure(made, floor, rounds: int) -> None:
    from django.contrib.auth.models import AnonymousUser
    from django.test import Client

    from games.tables import live

    late = [t for t in made if not t["early"]]
    clients: dict = {}
    cpu = {part: {g: [] for g in bl.GAMES} for part in ("move", "info", "seat", "spectator")}

    def client(user=None):
        c = clients.get(user.pk if user else None)
        if c is None:
            c = Client(HTTP_HOST="127.0.0.1")
            if user is not None:
                c.force_login(user)
            c.cookies["csrftoken"] = bl.CSRF
            clients[user.pk if user else None] = c
        return c

    for rnd in range(rounds + 1):
        for t in late:
            found = bl.next_move(t["id"])
            if found is None:
                continue
            seat, move, seq, _state = found
            mover, other = t["users"][seat], t["users"][1 - seat]
            c = client(mover)
            t0 = time.process_time()
            response = c.post(f"/tables/{t['id']}/move", {"move": json.dumps(move), "based_on": seq},
                              HTTP_X_CSRFTOKEN=bl.CSRF, HTTP_HX_REQUEST="true")
            t1 = time.process_time()
            info = live.load_info(t["id"])
            t2 = time.process_time()
            # the log position of a page that had seen about the previous move
            log_after = max(0, info.table.seq - 3)
            live.render_push(info, f"s{1 - seat}", other, "en", log_after, "127.0.0.1", "http")
            t3 = time.process_time()
            live.render_push(info, "spectator", AnonymousUser(), "en", log_after, "127.0.0.1", "http")
            t4 = time.process_time()
            if response.status_code != 200:
                raise SystemExit(f"move answered {response.status_code}: {response.content[:300]!r}")
            bl.recorded(t["id"], found, response.content)
            if rnd:
                for part, spent in (("move", t1 - t0), ("info", t2 - t1), ("seat", t3 - t2),
                                    ("spectator", t4 - t3)):
                    cpu[part][t["game"]].append(spent * 1000)
    floor_ms = []
    c = client()
    for rnd in range(rounds + 1):
        for table_id in floor[:len(late)]:
            t0 = time.process_time()
            response = c.post(f"/bench/floor/{table_id}/", {})
            spent = (time.process_time() - t0) * 1000
            assert response.status_code == 200, response.status_code
            if rnd:
                floor_ms.append(spent)
    floor_mean = statistics.fmean(floor_ms)
    print(f"CPU per move in one process, mean over {rounds} moves per table "
          f"(load average {os.getloadavg()[0]:.2f}):")
    print(f"  {'game':<18} {'move view':>10} {'table read':>10} {'seat push':>10} "
          f"{'spectators':>10} {'sum':>8} {'sum/floor':>10}")
    for g in bl.GAMES:
        parts = [statistics.fmean(cpu[p][g]) for p in ("move", "info", "seat", "spectator")]
        total = sum(parts)
        print(f"  {g:<18} " + " ".join(f"{x:>7.1f} ms" for x in parts)
              + f" {total:>5.1f} ms {total / floor_mean:>9.1f}x")
    print(f"  floor view (lock, insert, update, one group message): {floor_mean:.1f} ms")
    print("  (bench_load's floor adds HTTP and ASGI around the same floor view; a move and its "
          "pushes share that overhead, so the site's per-move cost above the floor is the sum "
          "minus the floor view)")


if __name__ == "__main__":
    main()
