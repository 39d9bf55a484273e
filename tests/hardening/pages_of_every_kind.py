"""One running table of each listed game, and the paths of every kind of page."""

from __future__ import annotations

from games.tables import actions
from games.tables.plugins import game_config, listed_games


def running_tables(creator) -> dict:
    """A running 2-seat table of every listed game against its first bot level."""
    tables = {}
    for game in listed_games():
        config = game_config(game.game_slug)
        table = actions.check_create_table(creator=creator, game=game.game_slug, players=2,
                                           bots={1: config.bot_levels[0]})
        table.refresh_from_db()
        tables[game.game_slug] = table
    return tables


def page_paths(tables: dict, *, staff: bool) -> list[str]:
    """Every kind of page a signed-in player (and, with `staff`, an admin) sees."""
    paths = ["/", "/tables/", "/tables/new/", "/vacation/", "/profile/", "/accounts/email/",
             "/accounts/password/change/", "/tables/next/?after=x", "/tables/?q=%00"]
    for slug, table in tables.items():
        paths += [f"/tables/new/?game={slug}", f"/tables/{table.pk}/"]
    if staff:
        some = next(iter(tables.values()))
        paths += ["/admin/", "/admin/tables/table/", f"/admin/tables/table/{some.pk}/change/",
                  "/admin/tables/tableevent/", "/admin/tables/seat/", "/admin/tables/outgoingmail/",
                  "/admin/accounts/user/"]
    return paths


ANONYMOUS_PATHS = ["/", "/tables/", "/accounts/login/", "/accounts/signup/",
                   "/accounts/password/reset/", "/admin/login/?next=/admin/", "/no-such-page/"]
