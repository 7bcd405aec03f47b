"""The seed the night page shows with a seating (docs/rules.md section 4.4): only with a
seating a draw made, the host's swaps included, since that seed makes the same draw again;
never with a seating the movement made when a round closed, or that the app made again
when who plays changed (section 10) or a correction moved a winner (section 6.2)."""

import importlib

import pytest
from django.urls import reverse

from bunco_night.nights.models import Round
from bunco_night.nights.services import guest_add, seating_draw, seating_draw_undo, seating_swap
from bunco_night.play.services import winner_set
from tests.factories import make_group, make_night, make_user
from tests.play.helpers import play_round, start_night

pytestmark = pytest.mark.django_db

SEED = '<strong class="seed-used">'


def seating_section(client, night) -> str:
    client.login(username="host", password="bunco")
    page = client.get(reverse("nights:detail", args=[night.pk])).content.decode()
    start = page.index('<section id="seating"')
    return page[start : page.index("</section>", start)]


def seed_shown(client, night) -> str | None:
    """The seed the seating section shows, or None."""
    part = seating_section(client, night)
    if "Seed used" not in part:
        return None
    return part.split(SEED, 1)[1].split("<", 1)[0]


def test_the_first_draw_s_seed_is_shown_before_and_while_round_one_is_played(client):
    night = make_night(make_group())
    seating_draw(night=night, seed=2024)
    assert seed_shown(client, night) == "2024"
    assert night.rounds.get(number=1).draw_seed == 2024
    start_night(night, seed=2024)  # drawn again with the same seed, and started
    assert seed_shown(client, night) == "2024"  # the seating being played is the draw's


def test_a_round_the_movement_seated_shows_no_seed(client):
    night = make_night(make_group())
    start_night(night, seed=2024)
    play_round(night)
    part = seating_section(client, night)
    assert "round 2" in part and "Seed used" not in part
    nxt = night.rounds.get(number=2)
    assert nxt.seats.exists() and nxt.draw_seed is None
    assert night.rounds.get(number=1).draw_seed == 2024  # round 1's draw is still known


def test_a_draw_of_a_later_round_shows_its_seed_and_its_undo_shows_none_again(client):
    night = make_night(make_group())
    start_night(night, seed=2024)
    play_round(night)
    seating_draw(night=night, seed=77)
    assert seed_shown(client, night) == "77"
    seating_draw_undo(night=night)  # the movement's seating is back
    assert seed_shown(client, night) is None
    assert night.rounds.get(number=2).draw_seed is None


def test_undoing_a_redraw_puts_back_the_seed_of_the_draw_it_replaced(client):
    night = make_night(make_group())
    seating_draw(night=night, seed=5)
    seating_draw(night=night, seed=9)
    assert seed_shown(client, night) == "9"
    seating_draw_undo(night=night)
    assert seed_shown(client, night) == "5"


def test_a_swap_by_hand_keeps_the_draw_s_seed(client):
    night = make_night(make_group())
    rnd = seating_draw(night=night, seed=31)
    a, b = rnd.seats.get(table__number=1, number=1), rnd.seats.get(table__number=3, number=2)
    seating_swap(seat_a=a, seat_b=b)
    assert seed_shown(client, night) == "31"


def test_a_seating_made_again_for_a_late_arrival_shows_no_seed(client):
    group = make_group(regulars=8, substitutes=1)
    night = make_night(group)
    seating_draw(night=night, seed=12)
    guest_add(night=night, player=group.players.get(name="Sub 1"))
    assert seed_shown(client, night) is None
    rnd = night.rounds.get(number=1)
    assert rnd.seats.exists() and rnd.draw_seed is None


def test_a_correction_that_seats_a_drawn_round_again_takes_its_seed_away(client):
    night = make_night(make_group())
    start_night(night, seed=2024)
    play_round(night)
    seating_draw(night=night, seed=77)
    winner_set(rnd=night.rounds.get(number=1), table=night.tables.get(number=1), side=1)
    assert seed_shown(client, night) is None
    assert night.rounds.get(number=2).draw_seed is None


def test_rounds_seated_before_the_seed_was_kept_get_the_night_s_last_draw():
    """The migration: the latest round whose draw was kept for undoing gets the night's
    seed; a round the movement seated, and an earlier drawn round, get none."""
    from django.apps import apps

    migration = importlib.import_module("bunco_night.nights.migrations.0012_round_draw_seed")
    night = make_night(make_group())
    start_night(night, seed=2024)
    play_round(night)
    other = make_night(make_group(name="Elm Street", user=make_user("host2")))
    start_night(other, seed=8)
    play_round(other)  # round 2 seated by the movement
    seating_draw(night=night, seed=77)
    Round.objects.update(draw_seed=None)
    migration.seed_of_the_last_draw(apps, None)
    seeds = dict(Round.objects.values_list("pk", "draw_seed"))
    assert seeds == {
        night.rounds.get(number=1).pk: None,
        night.rounds.get(number=2).pk: 77,
        other.rounds.get(number=1).pk: 8,
        other.rounds.get(number=2).pk: None,
    }
