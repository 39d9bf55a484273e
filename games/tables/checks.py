"""System checks: every installed game's rules load and honour the contract's basics,
and its display module imports and its board draws (else the first page view is a 500)."""

from django.core import checks

from .plugins import installed_games


@checks.register()
def games_load(app_configs, **kwargs):
    errors = []
    for slug, config in installed_games().items():
        try:
            rules = config.rules
        except Exception as exc:  # noqa: BLE001 - reported as a check error
            errors.append(checks.Error(f"game {slug!r} does not load: {exc}", id="tables.E001"))
            continue
        if not 1 <= rules.min_players <= rules.max_players:
            errors.append(checks.Error(f"game {slug!r} has a bad player range", id="tables.E002"))
    return errors


@checks.register(checks.Tags.templates)
def boards_render(app_configs, **kwargs):
    """Import each game's display module and draw its board for every seat and a
    spectator of a new game (no request, no database): a broken template, template
    tag or display function is reported with the file to look at."""
    from .boards import board_problems

    errors = []
    for slug, config in installed_games().items():
        if app_configs is not None and config not in app_configs:
            continue
        try:
            config.rules  # noqa: B018 - a game that does not load is tables.E001
        except Exception:  # noqa: BLE001
            continue
        for problem in board_problems(config):
            errors.append(checks.Error(
                f"game {slug!r}: {problem.what}: {problem.error}",
                hint=f"Look at {problem.where}", obj=config, id="tables.E003"))
    return errors


@checks.register()
def game_entry_points_load(app_configs, **kwargs):
    """Games found by a "boardgames.games" entry point that did not load (settings left
    them out of INSTALLED_APPS, so the site runs without them)."""
    from .discovery import FAILURES

    return [checks.Error(
        f"game entry point {failure.entry_point!r} (distribution {failure.distribution}) "
        f"does not load: {failure.error}",
        hint="Fix the game's package or uninstall it; the lobby does not offer it.",
        id="tables.E010") for failure in FAILURES]
