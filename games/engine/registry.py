"""Find each game's rules by slug, without Django.

A game's rules module exposes ``RULES``, an instance of `Rules`. Lookup order:
1. an explicit `register(slug, "dotted.module")` (a game app does this when
   its module is imported, so installed packages can live anywhere);
2. the ``boardgames.games`` entry-point group of installed distributions: the
   entry point's name is the slug, its value the game's package (its Django app;
   the rules are ``<package>.rules`` unless importing the package registers
   another module), or a module with ``RULES`` itself;
3. the convention ``games.<slug with - as _>.rules``.
Modules are imported lazily, on first use.
"""

from __future__ import annotations

import importlib
import re
from functools import lru_cache

from .base import Rules

_SLUG = re.compile(r"^[a-z][a-z0-9-]{0,39}$")
_modules: dict[str, str] = {}


def register(slug: str, module: str) -> None:
    """Declare that `slug`'s rules live in `module` (its RULES attribute)."""
    if not _SLUG.match(slug):
        raise ValueError(f"bad game slug {slug!r}")
    if _modules.get(slug, module) != module:
        raise ValueError(f"game {slug!r} is already registered to {_modules[slug]}")
    _modules[slug] = module
    get_rules.cache_clear()


ENTRY_POINT_GROUP = "boardgames.games"


def game_entry_points() -> list:
    """The installed distributions' ``boardgames.games`` entry points, by name."""
    from importlib.metadata import entry_points

    return sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda ep: ep.name)


def _entry_point_module(slug: str) -> str | None:
    for ep in game_entry_points():
        if ep.name == slug:
            module_name = ep.module
            module = importlib.import_module(module_name)
            if slug in _modules:  # the package registered its rules module on import
                return _modules[slug]
            if ep.attr or hasattr(module, "RULES"):
                return module_name
            if hasattr(module, "__path__"):  # a package: its rules submodule
                return f"{module_name}.rules"
            return module_name
    return None


@lru_cache(maxsize=None)
def get_rules(slug: str) -> Rules:
    """The rules of game `slug`; KeyError if there is no such game."""
    if not isinstance(slug, str) or not _SLUG.match(slug):
        raise KeyError(slug)
    module_name = _modules.get(slug) or _entry_point_module(slug)
    candidates = [module_name] if module_name else [f"games.{slug.replace('-', '_')}.rules"]
    for name in candidates:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            # Only "this game does not exist" becomes KeyError; a broken game
            # (a missing import inside it) must fail loudly.
            if exc.name and name.startswith(exc.name):
                continue
            raise
        rules = getattr(module, "RULES", None)
        if not isinstance(rules, Rules):
            raise TypeError(f"{name}.RULES is not a Rules instance")
        if rules.slug != slug:
            raise TypeError(f"{name}.RULES.slug is {rules.slug!r}, expected {slug!r}")
        return rules
    raise KeyError(slug)


def registered_slugs() -> list[str]:
    """Slugs registered explicitly or by entry point (not by convention)."""
    slugs = set(_modules)
    slugs.update(ep.name for ep in game_entry_points())
    return sorted(slugs)
