"""Game packages found by their entry point, for INSTALLED_APPS (no Django imports).

A game installed with pip declares one entry point in the ``boardgames.games`` group
(its name is the game's slug, its value the game's package, which is a Django app):

    [project.entry-points."boardgames.games"]
    nim = "nim"

`config/settings.py` calls `entry_point_apps()` before Django starts: each game that
loads (its package imports and `games.engine.get_rules(slug)` answers a `Rules`) is
appended to INSTALLED_APPS, so its templates, static files and translations are found
and the lobby lists it. A game that fails is left out of INSTALLED_APPS (the site
still starts) and `manage.py check` reports it as an error (tables.E010) naming the
entry point and the exception.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from games.engine.registry import game_entry_points, get_rules


@dataclass(frozen=True)
class Failure:
    """A game entry point that did not load."""

    entry_point: str  # "nim = nim"
    distribution: str
    error: str


# Filled by entry_point_apps(); read by the system check.
FAILURES: list[Failure] = []


def app_of(ep) -> str:
    """The Django app named by an entry point: the package itself, or the package
    holding the module it names (an older entry point naming ``pkg.rules``)."""
    module = importlib.import_module(ep.module)
    if hasattr(module, "__path__"):
        return ep.module
    return ep.module.rpartition(".")[0] or ep.module


def entry_point_apps(exclude: list[str] | tuple[str, ...] = ()) -> list[str]:
    """The app of every game entry point that loads; failures go to FAILURES."""
    FAILURES.clear()
    found: list[str] = []
    for ep in game_entry_points():
        dist = getattr(getattr(ep, "dist", None), "name", "") or "?"
        try:
            app = app_of(ep)
            if app in exclude or app in found:
                continue
            try:
                get_rules(ep.name)
            except KeyError:
                raise LookupError(f"no rules for {ep.name!r}: {ep.module} needs a rules module "
                                  f"with RULES ({ep.module}.rules), or register() in its "
                                  "__init__.py") from None
        except Exception as exc:  # noqa: BLE001 - reported by the system check
            FAILURES.append(Failure(f"{ep.name} = {ep.value}", dist,
                                    f"{type(exc).__name__}: {exc}"))
            continue
        found.append(app)
    return found
