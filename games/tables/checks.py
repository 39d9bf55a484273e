"""System checks: every installed game's rules load and honour the contract's basics."""

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
