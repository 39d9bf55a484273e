"""How long the `tables.E003` system check (every game's board drawn) adds to manage.py.

    DJANGO_SETTINGS_MODULE=config.settings python bench/board_check.py [repeats]

Prints, in a fresh process, the CPU time of every other system check (as `manage.py
check` runs them first: they load the URLs and template libraries), then of this check
after them (its board templates compiled on the way), then per installed game the wall time of its first and
best of `repeats` runs of board_problems (the display module imported, a new game drawn
for every seat and a spectator), then the whole check warm. CPU time is what the
check costs; wall time also counts the other processes of a busy machine.
"""

from __future__ import annotations

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from games.tables.boards import board_problems  # noqa: E402
from games.tables.checks import boards_render  # noqa: E402
from games.tables.plugins import installed_games  # noqa: E402


def main(repeats: int) -> None:
    from django.core.checks import registry, run_checks

    # What `manage.py check` does before this check: every other check (URLs, templates...).
    registry.registry.registered_checks.discard(boards_render)
    others = _cpu(lambda _: run_checks(), None)
    registry.registry.registered_checks.add(boards_render)
    cold = _cpu(boards_render, None)
    print(f"{'other checks':18} cpu {others * 1000:7.1f} ms (all of Django's and the site's, fresh process)")
    print(f"{'this check, cold':18} cpu {cold * 1000:7.1f} ms (after them: board templates compiled)")
    for slug, config in sorted(installed_games().items()):
        start = time.perf_counter()
        problems = board_problems(config)
        first = time.perf_counter() - start
        best = min(_timed(board_problems, config) for _ in range(repeats))
        print(f"{slug:18} first {first * 1000:7.1f} ms  best {best * 1000:7.1f} ms  "
              f"problems {len(problems)}")
    best = min(_timed(boards_render, None) for _ in range(repeats))
    cpu = min(_cpu(boards_render, None) for _ in range(repeats))
    print(f"{'whole check, warm':18} best {best * 1000:7.1f} ms  cpu {cpu * 1000:7.1f} ms")


def _timed(fn, arg) -> float:
    start = time.perf_counter()
    fn(arg)
    return time.perf_counter() - start


def _cpu(fn, arg) -> float:
    start = time.process_time()
    fn(arg)
    return time.process_time() - start


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
