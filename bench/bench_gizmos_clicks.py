"""Gizmos: a human seat's clicks in whole games against fast bots, before and after
whole payments and automatic gizmos. Not a test (tests/gizmos/test_clicks.py plays one
such game through the table page).

    .venv/bin/python bench/bench_gizmos_clicks.py

The player decides like the fast bot; "before" carries each decision out with the
controls the page had before (Build, then sphere by sphere; every gizmo by its own
button), "after" with one-click payments and "use all automatic", "auto" also with its
automatic gizmos set to fire by themselves. Each click is one legal move of the engine.
"""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from tests.gizmos.clicks import MODES, engine_clicks  # noqa: E402


def main(games: int = 20) -> None:
    for players in (2, 3):
        totals = dict.fromkeys(MODES, 0)
        for g in range(games):
            for mode in MODES:
                totals[mode] += engine_clicks(50_000 + g, mode, players)[0]
        before = totals["before"]
        print(f"gizmos clicks, {games} games, {players} players (seat 0 vs fast bots): "
              f"before {before / games:.1f}/game, after {totals['after'] / games:.1f} "
              f"({totals['after'] / before:.0%}), auto {totals['auto'] / games:.1f} "
              f"({totals['auto'] / before:.0%})")


if __name__ == "__main__":
    main()
