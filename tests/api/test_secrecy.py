"""Secrecy through the API, per game: views and events hold nothing the token's seat could
not see. The games' own secrecy checks (tests/<game>/test_view_secrecy.py) are applied to
the API's answers, the view is exactly `rules.view(state, seat)`, and events carry only
log entries of that seat's view and only that seat's own moves."""

from __future__ import annotations

import json
import pytest

from games.engine import Rng, get_rules
from games.tables import actions
from games.tables.models import Table
from games.tables.replay import current_state
from tests.flaming_pyramids.test_view_secrecy import secrets_for, strings
from tests.gizmos.test_view_secrecy import CARD_ID

pytestmark = pytest.mark.django_db

# Decisions played per game: enough for draws, research and hidden hands to come up.
DECISIONS = 70


def hidden_flaming_pyramids(state, seat, seen):
    return secrets_for(state, seat)


def hidden_gizmos(state, seat, seen):
    hidden = set(state["removed"])
    for deck in state["decks"].values():
        hidden |= set(deck)
    if state["research"] and seat != state["current"]:
        hidden |= set(state["research"]["cards"])
    if state["phase"] == "pay":
        hidden.discard(state["pending"]["card"])
    return hidden - (seen.get(seat, set()) if seat is not None else set())


def hidden_powerhouse(state, seat, seen):
    # The bag's order lives only in the generator; its state and the seed must never show.
    return set()


HIDDEN = {"flaming-pyramids": hidden_flaming_pyramids, "gizmos": hidden_gizmos,
          "powerhouse": hidden_powerhouse}


def found_in(answer, hidden: set, game: str) -> set:
    if game == "gizmos":
        return set(CARD_ID.findall(json.dumps(answer))) & hidden
    return strings(answer) & hidden


@pytest.mark.timeout(900)  # about 100 s each on a busy machine
@pytest.mark.parametrize("game", sorted(HIDDEN))
def test_api_views_and_events_keep_each_seats_secrets(game, make_user, api_for):
    rules = get_rules(game)
    users = [make_user(f"p{i}") for i in range(3)]
    spectator_user = make_user("watcher")
    table = actions.check_create_table(creator=users[0], game=game, players=3)
    for user in users[1:]:
        actions.check_join_table(table_id=table.pk, user=user)
    table.refresh_from_db()
    seat_user = {s.position: s.user for s in table.seats.all()}
    clients = {seat: api_for(user, ["read"]) for seat, user in seat_user.items()}
    clients[None] = api_for(spectator_user, ["read"])
    read_up_to = {seat: 0 for seat in clients}
    seen: dict[int, set] = {}
    chooser = Rng.from_seed(99)
    checked_events = 0
    for _step in range(DECISIONS):
        table.refresh_from_db()
        if table.status != Table.Status.RUNNING:
            break
        state = current_state(table)
        text_of_state = json.dumps(rules.dump(state))
        for seat, client in clients.items():
            body = client.get(f"/tables/{table.pk}").json()
            events = client.get(f"/tables/{table.pk}/events?since={read_up_to[seat]}").json()
            view = rules.view(state, seat)
            assert body["view"] == view
            assert body["your_seat"] == seat
            hidden = HIDDEN[game](state, seat, seen)
            for answer in (body, events):
                leak = found_in(answer, hidden, game)
                assert not leak, f"{game}: seat {seat} is told {sorted(leak)[:5]}"
                text = json.dumps(answer)
                assert '"rng"' not in text and str(table.seed) not in text
            view_log = [json.dumps(e, sort_keys=True) for e in view.get("log", [])]
            for event in events["events"]:
                for entry in event["log"]:
                    # Every entry is one of this seat's own view's entries (a game that keeps
                    # only its latest entries may have dropped older ones since).
                    assert (json.dumps(entry, sort_keys=True) in view_log
                            or view.get("log_first")), (game, seat, entry)
                    checked_events += 1
                if event["move"] is not None:
                    assert seat is not None and event["seat"] == seat
            read_up_to[seat] = events["seq"]
        # The state itself never travels: no answer equals or contains its dump.
        assert text_of_state not in json.dumps(body)
        owing = sorted(table.to_move)
        seat = chooser.choice(owing)
        move = chooser.choice(rules.legal_moves(state, seat))
        actions.check_submit_move(table_id=table.pk, seat=seat, move=move, based_on=table.seq,
                                  actor=seat_user[seat])
        after = current_state(Table.objects.get(pk=table.pk))
        if game == "gizmos" and after["research"]:
            seen.setdefault(seat, set()).update(after["research"]["cards"])
    assert checked_events > DECISIONS  # the log entries of every decision were looked at
