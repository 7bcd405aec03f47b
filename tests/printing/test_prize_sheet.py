"""The prizes sheet prints what the standings page shows: the night's own prizes (docs/rules.md
section 8.5), the door prize's draw (section 7.5), and each amount with the share of the pot
it is (sections 7.4 and 7.8)."""

import datetime as dt
import re

import pytest
from django.urls import reverse

from bunco_night.groups.services import prizes_set
from bunco_night.nights.models import Attendance
from bunco_night.nights.services import attendance_set, payment_record
from bunco_night.play.services import door_prize_draw
from bunco_night.play.standings import night_standings
from bunco_night.rules.prizes import draw_door_prize
from tests.factories import make_night
from tests.play.helpers import play_round, start_night, tap

from .helpers import get_pdf, prize_rows, sheet_html, words
from .pdftools import text

pytestmark = pytest.mark.django_db

HOUSE = [
    {"code": "most_wins", "percent": 42},
    {"code": "most_buncos", "percent": 33},
    {"code": "last_bunco", "percent": 17},
    {"code": "fewest_wins", "percent": 8},
]
DOOR = {"code": "door_prize", "amount_cents": 500}


def paid_night(group, prizes, *, settings=None, date=None):
    """A night planned with ``prizes``, everyone paid $5 (a $60 pot), nothing played."""
    prizes_set(group=group, prizes=prizes, settings=settings)
    night = make_night(group, sets=1, date=date)
    for a in night.attendances.all():
        payment_record(attendance=a, amount_cents=500)
    return night


def play_with_a_bunco(night):
    """Round 1 played and closed, with a bunco at table 2; the bunco's roller."""
    rnd = start_night(night)
    seat = rnd.seats.get(table__number=2, number=1)
    tap(seat.table, 1, "points", 3)
    play_round(night, winners=[1, 1, 1])
    return seat.player


def standings_page(client, night) -> str:
    return client.get(reverse("play:standings", args=[night.pk])).content.decode()


def door_list(markup: str) -> list[str]:
    """The names of a page's door prize list, in order."""
    ol = re.search(r'<ol class="door-list">(.*?)</ol>', markup, re.S).group(1)
    return [words(re.sub(r"</span> drawn", "</span>", li)) for li in re.findall(r"<li.*?</li>", ol)]


def numbered(flat: str, number: int, name: str) -> bool:
    """``name`` is printed as number ``number`` of a list."""
    return bool(re.search(rf"(?<!\d){number}\. {re.escape(name)}(?!\d)", flat))


# Section 7.5: the door prize, drawn with a number that is shown.


def test_a_door_prize_not_drawn_yet_is_said_so_and_names_no_winner(client, group):
    night = paid_night(group, [*HOUSE[:2], DOOR])
    play_with_a_bunco(night)
    winner, amount = prize_rows(night)["Door prize"]
    # Everyone present is in line for it: nobody (not the first name on the list) has won.
    assert winner == "Not drawn yet 12 present"
    assert amount == "$5.00"
    assert "Not drawn yet: 12 present." in words(standings_page(client, night))
    flat = text(get_pdf(client, night, "prizes"))
    assert "Door prize Not drawn yet" in flat
    assert "door prize draw" not in flat


def test_a_drawn_door_prize_prints_the_draw_the_standings_page_shows(client, group):
    night = paid_night(group, [*HOUSE[:2], DOOR])
    play_with_a_bunco(night)
    door_prize_draw(night=night)
    night.refresh_from_db()
    seed = night.door_seed
    present = sorted(group.players.filter(kind="regular"), key=lambda p: p.name.casefold())
    draw = draw_door_prize([p.pk for p in present], seed)
    drawn = next(p for p in present if p.pk == draw.winner)

    winner, _ = prize_rows(night)["Door prize"]
    assert winner == f"{drawn.name} Drawn with number {seed}: see the list below"
    sheet = sheet_html(night, "prizes")
    said = f"The draw's number is {seed} : it picked number {draw.number} , {drawn.name} ."
    assert said in words(sheet)
    assert said in words(standings_page(client, night))
    assert door_list(sheet) == door_list(standings_page(client, night))
    assert door_list(sheet) == [p.name for p in present]
    assert "Everyone present, in name order" in words(sheet)

    flat = text(get_pdf(client, night, "prizes"))
    assert f"it picked number {draw.number}, {drawn.name}." in flat
    for number, p in enumerate(present, start=1):
        shown = f"{p.name} drawn" if number == draw.number else p.name
        assert numbered(flat, number, shown), (number, p.name)


def test_the_door_list_leaves_out_substitutes_who_cannot_win(client, group):
    """Section 7.7: a substitute cannot win, so is not on the list the draw was made from."""
    night = paid_night(group, [DOOR], settings={"substitute_prizes": "none"})
    attendance_set(
        attendance=night.attendances.get(player__name="Regular 4"),
        status=Attendance.Status.SENT_SUB,
        substitute=group.players.get(name="Sub 1"),
    )
    door_prize_draw(night=night)
    night.refresh_from_db()
    s = night_standings(night)
    sheet = sheet_html(night, "prizes")
    assert "Sub 1" not in door_list(sheet) and len(door_list(sheet)) == 11
    assert "Everyone present but the substitutes, who cannot win a prize" in words(sheet)
    assert prize_rows(night)["Door prize"][0].startswith(s.door_winner.name + " Drawn")


# Section 8.5: a night keeps the prizes it was planned with; the fuzzy die among them or not.


def test_the_fuzzy_die_shows_only_on_a_night_that_awards_it(client, group):
    with_die = paid_night(group, [*HOUSE[:3], {"code": "fuzzy_die", "percent": 0}])
    # The group then drops the fuzzy die: the night planned before keeps it, the next has none.
    without = paid_night(group, HOUSE, date=dt.date(2027, 1, 9))
    roller = play_with_a_bunco(with_die)
    play_with_a_bunco(without)

    assert "fuzzy die" in words(standings_page(client, with_die)).lower()
    flat = text(get_pdf(client, with_die, "prizes"))
    assert re.search(rf"FUZZY DIE .*{roller.name}", flat)
    assert prize_rows(with_die)["Fuzzy die"][0] == roller.name

    assert "fuzzy die" not in words(standings_page(client, without)).lower()
    assert "fuzzy die" not in text(get_pdf(client, without, "prizes")).lower()


# Sections 7.4 and 7.8: a percent is of the whole pot, rounded down; what is left over is
# said apart from it.


@pytest.mark.parametrize(
    ("prizes", "settings", "first", "after"),
    [
        # 42% of $60 is $25.20: $25 in whole dollars; with the others', $2 is left over
        # and goes to the first prize.
        (
            HOUSE,
            {},
            "$27.00 42% of the pot: $25.00 + $2.00 left over",
            r"Most wins includes the \$2\.00 left over when the pot is split",
        ),
        # Kept for next month: most wins is its 42% alone.
        (
            HOUSE,
            {"prize_leftover": "next_pot"},
            "$25.00 42% of the pot",
            r"\$\d+\.\d\d left over: kept for next month",
        ),
        # A fixed first prize: 33% of $60 is $19.80, $19 paid, $0.80 added to the $10.
        (
            [{"code": "most_wins", "amount_cents": 1000}, {"code": "most_buncos", "percent": 33}],
            {},
            "$10.80 $10.00 + $0.80 left over",
            r"Most wins includes the \$0\.80 left over when the pot is split",
        ),
    ],
    ids=["to the first prize", "to next month", "to a fixed first prize"],
)
def test_the_percent_beside_an_amount_is_of_that_amount(
    client, group, prizes, settings, first, after
):
    night = paid_night(group, prizes, settings={"prize_rounding": "dollars", **settings})
    play_with_a_bunco(night)
    rows = prize_rows(night)
    assert rows["Most wins"][1] == first
    # Every other percent is beside the amount it gives: the pot's percent, rounded down.
    for title, (_, amount) in rows.items():
        if title != "Most wins" and "% of the pot" in amount:
            cents, percent = re.fullmatch(r"\$(\d+)\.00 (\d+)% of the pot", amount).groups()
            assert int(cents) == 60 * int(percent) // 100, title
    flat = text(get_pdf(client, night, "prizes"))
    assert re.search(after, flat)
    assert re.search(after, words(standings_page(client, night)))


def test_no_percent_beside_amounts_not_paid_yet(client, group):
    """Section 7.4: fixed amounts bigger than the pot show $0.00 until enough dues are in;
    a percent beside $0.00 would not be that amount."""
    night = paid_night(
        group,
        [{"code": "most_wins", "amount_cents": 10000}, {"code": "most_buncos", "percent": 33}],
    )
    play_with_a_bunco(night)
    rows = prize_rows(night)
    assert {amount for _, amount in rows.values()} == {"$0.00"}
    flat = text(get_pdf(client, night, "prizes"))
    assert "The amounts show once enough dues are in." in flat
    assert "% of the pot" not in flat


def test_players_sharing_a_place_are_in_name_order_as_on_the_standings_page(client, group):
    # Names in the opposite order to the players' ids, which break no tie.
    for i, player in enumerate(group.players.order_by("pk")):
        player.name = f"{chr(ord('Z') - i)} Player"
        player.save(update_fields=["name"])
    night = paid_night(group, HOUSE)
    play_with_a_bunco(night)
    html = sheet_html(night, "prizes")
    grid = re.search(r'<table class="grid list standings-grid">(.*?)</table>', html, re.S)
    printed = re.findall(r'<td class="name">(.*?)</td>', grid.group(1))
    rows = night_standings(night).rows
    assert printed == [p.name for _, p in rows]
    shared = [p.name for s, p in rows if s.rank == 2]
    assert len(shared) > 2 and shared == sorted(shared, key=str.casefold)
