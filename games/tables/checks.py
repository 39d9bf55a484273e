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
