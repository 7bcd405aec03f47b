"""Prizes on the pages (docs/rules.md sections 7.4 to 7.8): every category a group can
choose, shares rounded to what a host pays in cash, the money left over and where it
goes, split ties, substitutes, and the door prize's shown, reproducible draw."""

import importlib
import re

import pytest
from django.apps import apps
from django.urls import reverse

from bunco_night.groups.services import prizes_set, rules_update
from bunco_night.nights.models import Night
from bunco_night.nights.selectors import dues_summary, seated_tables
from bunco_night.nights.services import attendance_set, payment_record
from bunco_night.play.models import PrizeTiebreak
from bunco_night.play.services import round_close
from bunco_night.play.standings import night_standings
from bunco_night.rules.presets import GroupMark
from bunco_night.rules.prizes import draw_door_prize
from tests.factories import make_group, make_night
from tests.play.helpers import play_round, start_night, tap

pytestmark = pytest.mark.django_db


def text(response) -> str:
    return re.sub(r"\s+", " ", response.content.decode())


def words(response) -> str:
    """What a page says, without its tags (entities as they are)."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode())).replace(
        " ,", ","
    )


def pay(night, cents_each=500, total=None):
    attendances = list(night.attendances.all())
    if total is not None:
        payment_record(attendance=attendances[0], amount_cents=total)
        return
    for a in attendances:
        payment_record(attendance=a, amount_cents=cents_each)


def standings_url(night):
    return reverse("play:standings", args=[night.pk])


def test_a_45_dollar_pot_pays_whole_dollars_and_says_where_the_rest_goes(client, host):
    """Section 7.8: "With a $45 pot and the shares of section 7.4, whole dollars give $18,
    $14, $7 and $3, with $3 left over", and most wins gets $21."""
    night = make_night(make_group(user=host, regulars=9, substitutes=0, name="Nine"))
    pay(night)
    for url in (standings_url(night), reverse("play:live", args=[night.pk])):
        page = words(client.get(url))
        for wrong in ("$18.90", "$14.85", "$7.65", "$3.60"):
            assert wrong not in page, url
        assert "$21.00" in page and "$14.00" in page and "$7.00" in page, url
        # The cents the shares leave over are in most wins, not more on top of it.
        assert "Most wins includes the $3.00 left over when the pot is split" in page, url
        assert "added to most wins" not in page, url
    assert "rounded down to whole dollars" in words(client.get(standings_url(night)))
    room = words(client.get(reverse("play:room", args=[night.pk])))
    assert "$21.00" in room and "Most wins includes $3.00 left over" in room


def test_quarters_and_the_leftover_for_next_month(client, host):
    group = make_group(user=host, regulars=9, substitutes=0, name="Quarters")
    rules_update(group=group, changes={"prize_rounding": "quarters", "prize_leftover": "next_pot"})
    night = make_night(group)
    pay(night)
    page = words(client.get(standings_url(night)))
    # 42% of $45 is $18.90: $18.75 in quarters; 33% $14.85 → $14.75; 17% $7.65 → $7.50;
    # 8% $3.60 → $3.50. $0.50 is left over, kept for next month.
    for amount in ("$18.75", "$14.75", "$7.50", "$3.50"):
        assert amount in page
    assert "$0.50 left over: kept for next month&#x27;s pot" in page


def test_tied_players_split_a_prize_when_the_group_says_so(client, host):
    """Section 7.6: each share rounded down; what cannot be divided is said."""
    group = make_group(user=host, regulars=8, substitutes=0, name="Splitters")
    prizes_set(
        group=group,
        prizes=[{"code": "most_wins", "percent": 50}, {"code": "fewest_wins", "percent": 50}],
        settings={"prize_ties": "split", "prize_leftover": "next_pot"},
    )
    night = make_night(group, sets=1)
    pay(night, total=4100)
    start_night(night)
    play_round(night)  # four winners, four losers
    s = night_standings(Night.objects.get(pk=night.pk))
    most = next(r for r in s.prize_rows if r.prize.code == "most_wins")
    assert most.prize.split and [cents for _, _, cents in most.lines] == [500] * 4
    assert s.awards.carried_cents == 100  # $20.50 rounded down to $20: $1 for next month
    page = words(client.get(standings_url(night)))
    assert "Split between" in page and page.count("$5.00") >= 8
    assert "$1.00 left over: kept for next month&#x27;s pot" in page


def test_a_substitute_s_prize_goes_to_the_regular_they_came_for(client, host):
    """Section 7.7, with substitute_prizes "regular"."""
    group = make_group(user=host, rules="one_table", regulars=4, substitutes=1, name="Subs")
    prizes_set(
        group=group,
        prizes=[{"code": "most_wins", "percent": 100}],
        settings={"substitute_prizes": "regular"},
    )
    night = make_night(group, sets=1)
    regular = night.attendances.get(player__name="Regular 2")
    sub = group.players.get(name="Sub 1")
    attendance_set(attendance=regular, status="sub", substitute=sub)
    pay(night)
    rnd = start_night(night)
    (table,) = seated_tables(rnd)
    seat = next(s.number for s in table.seats if s.player_id == sub.pk)
    for _ in range(7):
        tap(table.table, seat, "points", 3)  # the substitute's bunco wins the round
    round_close(rnd=rnd)
    s = night_standings(Night.objects.get(pk=night.pk))
    assert s.substitutes == {sub.pk: regular.player_id}
    (row,) = s.prize_rows
    assert row.winner == sub and row.lines[0][1].pk == regular.player_id
    page = words(client.get(standings_url(night)))
    assert "Sub 1 (a substitute: the prize is Regular 2's)" in page
    from tests.printing.helpers import prize_rows

    # The Prizes PDF says it too (its HTML).
    assert prize_rows(night)["Most wins"][0] == "Sub 1 A substitute: the prize is Regular 2's"


def test_the_door_prize_is_drawn_once_with_a_shown_number(client, host):
    group = make_group(user=host, regulars=6, substitutes=0, name="Door")
    prizes_set(group=group, prizes=[{"code": "door_prize", "amount_cents": 1000}])
    night = make_night(group)
    pay(night, 300)
    page = text(client.get(standings_url(night)))
    assert "Not drawn yet: 6 present." in page
    client.post(standings_url(night), {"action": "door"})
    night.refresh_from_db()
    seed = night.door_seed
    assert seed is not None
    client.post(standings_url(night), {"action": "door"})  # a second draw changes nothing
    night.refresh_from_db()
    assert night.door_seed == seed
    present = sorted(night.group.players.all(), key=lambda p: p.name.casefold())
    draw = draw_door_prize([p.pk for p in present], seed)
    winner = next(p for p in present if p.pk == draw.winner)
    page = words(client.get(standings_url(night)))
    assert f"The draw's number is {seed} : it picked number {draw.number}, {winner.name} ." in page
    assert text(client.get(standings_url(night))).count('<li class="drawn">') == 1


def test_the_door_draw_shown_is_the_one_that_picked_the_winner(client, host):
    """Sections 7.5 and 7.7: when substitutes cannot win, the draw is made among the others,
    and the list and number the page shows are that draw's, naming the prize's winner."""
    group = make_group(user=host, regulars=6, substitutes=1, name="Door subs")
    prizes_set(
        group=group,
        prizes=[{"code": "door_prize", "amount_cents": 1000}],
        settings={"substitute_prizes": "none"},
    )
    night = make_night(group)
    sub = group.players.get(name="Sub 1")
    attendance_set(
        attendance=night.attendances.get(player__name="Regular 2"), status="sub", substitute=sub
    )
    for seed in range(40):  # a draw among 6 and one among 7 differ for some numbers
        Night.objects.filter(pk=night.pk).update(door_seed=seed)
        s = night_standings(Night.objects.get(pk=night.pk))
        (row,) = s.prize_rows
        assert sub not in [p for _, p in s.door_rows]
        assert s.door_winner == row.winner
        assert s.door_rows[s.door.number - 1][1] == row.winner
    page = words(client.get(standings_url(night)))
    assert f"it picked number {s.door.number}, {row.winner.name} ." in page
    assert "Everyone present but the substitutes, who cannot win a prize, in name order" in page


def test_the_most_of_a_group_mark_is_chosen_and_its_tie_broken_by_its_key(client, host):
    group = make_group(user=host, regulars=8, substitutes=0, name="Marks")
    rules_update(group=group, changes={"group_marks": (GroupMark("wipeout", "Wipeout"),)})
    page = text(client.get(reverse("groups:rules", args=[group.slug])))
    assert "Most Wipeouts" in page and "Door prize" in page and "First bunco of the night" in page
    assert "Most low buncos" not in page  # house rules do not split low and high
    response = client.post(
        reverse("groups:prizes_save", args=[group.slug]),
        {
            "most_mark-3a-wipeout_on": "on",
            "most_mark-3a-wipeout_share": "5",
            "most_mark-3a-wipeout_unit": "dollars",
            "prize_ties": "roll_off",
        },
    )
    assert response.status_code == 302
    (prize,) = group.prizes.all()
    assert (prize.code, prize.mark, prize.amount_cents) == ("most_mark", "wipeout", 500)
    night = make_night(group, sets=1)
    pay(night)
    rnd = start_night(night)
    t1, t2 = (t.table for t in seated_tables(rnd))
    tap(t1, 1, "mark", mark_code="wipeout")
    tap(t2, 1, "mark", mark_code="wipeout")
    play_round(night)
    s = night_standings(Night.objects.get(pk=night.pk))
    (row,) = s.prize_rows
    assert row.prize.title == "Most Wipeouts" and row.prize.tied
    loser = row.candidates[1]
    response = client.post(standings_url(night), {"code": "most_mark:wipeout", "player": loser.pk})
    assert response.status_code == 302
    assert PrizeTiebreak.objects.get(night=night).code == "most_mark:wipeout"
    page = text(client.get(standings_url(night)))
    assert f'{loser.name} <span class="muted">(won the tie-break' in page


def test_nights_planned_before_prize_rounding_keep_their_cents():
    """A night keeps its rules (section 8.5): the migration gives nights planned before
    the prize settings existed the cents and the host's leftover they were paid with."""
    migration = importlib.import_module(
        "bunco_night.nights.migrations.0007_door_seed_and_prize_results"
    )
    night = make_night(make_group(regulars=12, substitutes=0))
    old = {k: v for k, v in night.rules.items() if not k.startswith("prize_")}
    Night.objects.filter(pk=night.pk).update(rules=old)
    night = Night.objects.get(pk=night.pk)
    assert night.rules_obj.prize_rounding == "dollars"  # what the engine reads without them
    migration.keep_cents_on_planned_nights(apps, None)
    night = Night.objects.get(pk=night.pk)
    assert (night.rules_obj.prize_rounding, night.rules_obj.prize_leftover) == ("cents", "host")
    pay(night)
    assert [p.amount_cents for p in dues_summary(night).payouts] == [2520, 1980, 1020, 480]


def test_the_live_board_and_room_say_the_prizes_count_rounds_that_have_ended(client, host):
    """A bunco rolled in the round in play shows as the last bunco at once, and counts for
    most buncos when its round ends: the prize list says the tallies are of ended rounds,
    so "nobody yet" beside the last bunco reads right."""
    night = make_night(make_group(user=host, regulars=12, substitutes=0, name="Twelve"))
    pay(night)
    start_night(night, seed=2)
    tap(night.tables.get(number=2), 1, "bunco")
    urls = [reverse("play:live", args=[night.pk]), reverse("play:room", args=[night.pk])]
    for url in urls:
        assert "tallied as each round ends" in words(client.get(url)), url
    play_round(night)
    for url in urls:
        assert "tallies after 1 round " in words(client.get(url)), url
