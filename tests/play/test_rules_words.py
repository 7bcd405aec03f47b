"""The prize standings name the night's own rules and counters: a house-rules night is not
"Deluxe", a Deluxe night counts low/high buncos, a card party has no buncos; and every
prize so far is counted alike, from the closed rounds."""

import re

import pytest

from bunco_night.nights.selectors import seated_tables
from bunco_night.play.services import round_start
from bunco_night.play.standings import night_standings
from tests.factories import make_group, make_night
from tests.play.helpers import play_round, start_night, tap
from tests.printing.helpers import words

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("rules", "label", "said", "not_said"),
    [
        ("house", "House rules", "Mini buncos", ["Deluxe", "Low/high"]),
        ("deluxe", "Deluxe rules", "Low/high buncos", ["House rules", "Mini buncos"]),
        ("card_1904", "1904 card party", "ranked by wins (punches)", ["Buncos", "buncos"]),
    ],
)
def test_the_standings_page_says_the_night_s_own_rules(client, host, rules, label, said, not_said):
    night = make_night(make_group(user=host, rules=rules, regulars=8, substitutes=0), sets=1)
    start_night(night)
    if rules != "card_1904":
        play_round(night)
    page = words(client.get(f"/nights/{night.pk}/standings/").content.decode())
    standings = page[page.index("Standings #") :]
    assert f"{label}: ranked by" in standings and said in standings
    for words_ in not_said:
        assert not re.search(rf"\b{re.escape(words_)}", standings), words_


def test_prizes_so_far_count_closed_rounds_only_and_the_facts_the_round_in_play(client, host):
    """docs/rules.md section 7.2: a bunco in the round in play shows in the live facts
    (the latest bunco) and joins most buncos and last bunco of the night together, at the
    round's close."""
    night = make_night(make_group(user=host, regulars=8, substitutes=0), sets=1)
    start_night(night)
    play_round(night)
    rnd = round_start(night=night)
    table = seated_tables(rnd)[0]
    roller = table.seats[0]
    tap(table.table, roller.number, "bunco")
    s = night_standings(night)
    assert s.last_bunco.roller == roller.player  # the fact, live
    prizes = {row.prize.code: row for row in s.prize_rows}
    assert prizes["last_bunco"].winner is None and prizes["most_buncos"].winner is None
    page = words(client.get(f"/nights/{night.pk}/live/").content.decode())
    assert f"Last bunco: {roller.player.name}" in page
    assert "Last bunco of the night nobody yet" in page
    play_round(night)
    prizes = {row.prize.code: row for row in night_standings(night).prize_rows}
    assert prizes["last_bunco"].winner == prizes["most_buncos"].winner == roller.player
