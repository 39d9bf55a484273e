"""The small things on the table page: names in move labels, plurals, sentences that start
with a capital, translated live marks, and no "updates by itself" promise without a socket."""

from __future__ import annotations

import pytest
from django.utils import translation

from games.flaming_pyramids import display as fp_display
from games.powerhouse.rules import RULES as PH
from tests.boards.positions import table_view
from tests.pages import client_for, page
from tests.powerhouse import scenario


@pytest.fixture(autouse=True)
def _english():
    with translation.override("en"):
        yield


def test_powerhouse_move_labels_name_the_players_as_the_board_does():
    s = scenario.table({0: ["red-S", "red-S", "blue-M"], 1: ["green-L"], 2: ["yellow-S"]},
                       players=3, phase="reaction")
    s = PH.apply(s, 0, {"type": "fire", "piece": "red-S"})
    tv = table_view("powerhouse", s, 0)
    gives = [m for m in tv.moves if m["move"]["type"] == "give"]
    assert {m["label"] for m in gives} == {"Give the red small to Bruno",
                                           "Give the red small to Carmen"}
    s = PH.apply(s, 0, {"type": "give", "to": 2})
    tv = table_view("powerhouse", s, 0)
    takes = [m["label"] for m in tv.moves if m["move"]["type"] == "take"]
    assert takes and all(label.endswith("from Carmen") for label in takes)
    assert not any("player" in m["label"] for m in tv.moves)


def test_flaming_pyramids_previews_say_one_tile_not_one_tiles():
    base = {"move": {"type": "place"}, "outcomes": [], "choosers": []}
    one = dict(base, message="This placement will collapse: {count} tiles come back to you.",
               params={"count": 1})
    assert fp_display.preview_text(one, ["Ana", "Bo"], 0) == \
        "This placement will collapse: 1 tile comes back to you."
    three = dict(one, params={"count": 3})
    assert "3 tiles come back" in fp_display.preview_text(three, ["Ana", "Bo"], 0)
    mayhem = dict(base, message="This move causes mayhem: {count} tiles come back to you.",
                  params={"count": 1})
    with translation.override("es"):
        assert "vuelve a ti 1 ficha." in fp_display.preview_text(mayhem, ["Ana", "Bo"], 0)


def test_flaming_pyramids_log_sentences_start_with_a_capital_but_names_stay_as_typed():
    fall = {"kind": "fall", "seat": 0, "tile": "straw-blue-4", "from": [1, 1], "to": [0, 0],
            "direction": "right"}
    assert fp_display.log_line(fall, {}, ["ana", "bo"]).startswith("Blue straw 4 falls")
    with translation.override("es"):
        assert fp_display.log_line(fall, {}, ["ana", "bo"])[0].isupper()
    place = {"kind": "place", "seat": 0, "tile": "wood-red-20", "r": 0, "x": 0, "sound": True}
    assert fp_display.log_line(place, {}, ["ana", "bo"]).startswith("ana placed")


@pytest.mark.django_db
def test_live_marks_are_translated_and_only_promised_with_a_socket(running_table):
    table = running_table
    waiting = next(s.user for s in table.seats.all() if s.position not in table.to_move)
    client = client_for(waiting)
    html = page(client, table)
    assert '<span class="when-live">This page updates by itself.</span>' in html
    assert '<span class="when-not-live">Reload the page to see new moves.</span>' in html
    assert "● live" in html and "3 days per move" in html
    client.post("/i18n/setlang/", {"language": "es", "next": "/"})
    try:
        html = page(client, table)
        assert "● en directo" in html and "Recarga la página para ver las nuevas jugadas." in html
        assert "3 días por jugada" in html and "days per move" not in html
    finally:
        # The request left Spanish active in this thread.
        translation.activate("en")
