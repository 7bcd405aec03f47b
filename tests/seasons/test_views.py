"""The host's season pages: seasons, standings with charts, year-end prizes and their
tie-breaks, the rotation, the money, players' histories, and who may see them."""

import datetime as dt
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from bunco_night.groups.models import HostingTurn, Season
from bunco_night.nights.models import Attendance, Prepayment
from bunco_night.nights.services import attendance_set
from tests.factories import make_user
from tests.seasons.helpers import pay_everyone, plan, play_night, season_of

pytestmark = pytest.mark.django_db


def text(response) -> str:
    assert response.status_code == 200, response.status_code
    return response.content.decode()


@pytest.fixture
def season(group):
    season = season_of(group)
    first = plan(group, dt.date(2026, 2, 5), place="Ann's")
    attendance_set(
        attendance=first.attendances.get(player__name="Regular 12"),
        status=Attendance.Status.SENT_SUB,
        substitute=group.players.get(name="Sub 1"),
    )
    pay_everyone(first)
    play_night(first, winners=[["Regular 1"], ["Regular 1"]], buncos={0: ["Regular 2"]})
    return season


def test_start_a_season(client, group):
    page = text(client.get(reverse("seasons:list", args=[group.slug])))
    assert "Start a season" in page
    response = client.post(
        reverse("seasons:list", args=[group.slug]),
        {
            "name": "2027",
            "starts": "2027-01-01",
            "ends": "2027-12-31",
            "pot_percent": "15",
            "regulars_only": "on",
        },
    )
    season = Season.objects.get()
    assert response["Location"] == season.get_absolute_url()
    assert (season.pot_percent, season.regulars_only) == (15, True)
    assert [p.code for p in season.prizes.all()] == ["most_wins", "most_buncos", "best_attendance"]


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"ends": "2026-12-31", "starts": "2027-01-01"}, "A season ends after it starts."),
        ({"pot_percent": "120"}, "Give a percent from 0 to 100."),
        ({"name": "  "}, "Give the season a name"),
        ({"starts": "2026-06-01", "ends": "2027-05-31"}, "These dates overlap the season 2026"),
        ({"starts": "yesterday"}, "Enter a date."),
    ],
)
def test_a_bad_season_is_a_message_next_to_the_field(client, group, fields, message):
    season_of(group)
    data = {"name": "2027", "starts": "2027-01-01", "ends": "2027-12-31", "pot_percent": "10"}
    page = text(client.post(reverse("seasons:list", args=[group.slug]), {**data, **fields}))
    assert message in page
    assert Season.objects.count() == 1


def test_the_season_page_shows_standings_charts_prizes_and_nights(client, season):
    page = text(client.get(season.get_absolute_url()))
    assert "Season 2026" in page
    # Regular 2 partnered Regular 1 (two wins each) and rolled the only bunco: first alone.
    assert re.search(r"<td>1</td>\s*<td class=\"name\"><a [^>]*>Regular 2</a>", page)
    assert re.search(r"<td>2=</td>\s*<td class=\"name\"><a [^>]*>Regular 1</a>", page)
    assert 'Sub 1</a> <span class="tag">Sub</span>' in page
    # Charts are SVG made on the server, labelled for screen readers, with no style attributes.
    assert page.count('<svg class="chart-svg"') == 2
    assert '<title id="season-wins-title">Wins in the 2026 season</title>' in page
    assert "style=" not in page
    assert "Most buncos of the season" in page and "Best attendance" in page
    # The pot is 10% of the night's $60 of dues.
    assert "pot so far $6.00" in page
    # Each night: its date (a link), then where and how it stands, with no stray dot.
    nights = re.findall(r'<p class="night-line">.*?</p>', page)
    assert nights and all(re.search(r"</a><span>[^·<][^<]*</span></p>$", n) for n in nights)


def test_a_tied_year_end_prize_is_broken_by_the_host_and_can_be_cleared(client, season):
    page = text(client.get(season.get_absolute_url()))
    assert "Who won the tie-break" in page  # best attendance: everyone came once
    bea = season.group.players.get(name="Regular 2")
    url = reverse("seasons:tiebreak", args=[season.pk])
    client.post(url, {"code": "best_attendance", "player": bea.pk})
    page = text(client.get(season.get_absolute_url()))
    assert "Tie broken by the host" in page
    assert season.tiebreaks.get().player == bea
    client.post(url, {"code": "best_attendance"})
    assert not season.tiebreaks.exists()


@pytest.mark.parametrize(
    "data",
    [
        {"code": "best_attendance", "player": "999999"},
        {"code": "most_wins", "player": "1"},
        {"code": "nonsense", "player": "1"},
        {"code": "best_attendance", "player": "abc"},
    ],
)
def test_a_bad_tie_break_is_a_message(client, season, data):
    if data["player"] == "1":
        data = {**data, "player": str(season.group.players.get(name="Regular 5").pk)}
    response = client.post(reverse("seasons:tiebreak", args=[season.pk]), data)
    assert response.status_code == 200
    assert 'class="error" role="alert"' in response.content.decode()
    assert not season.tiebreaks.exists()


def test_year_end_prizes_are_chosen_like_a_night_s(client, season):
    page = text(client.get(reverse("seasons:edit", args=[season.pk])))
    assert "Most mini buncos of the season" in page
    response = client.post(
        reverse("seasons:prizes", args=[season.pk]),
        {
            "best_attendance_on": "on",
            "best_attendance_share": "60",
            "best_attendance_unit": "percent",
            "most_losses_on": "on",
            "most_losses_share": "5",
            "most_losses_unit": "dollars",
        },
    )
    assert response.status_code == 302
    assert [(p.code, p.percent, p.amount_cents) for p in season.prizes.all()] == [
        ("best_attendance", 60, None),
        ("most_losses", None, 500),
    ]
    page = text(
        client.post(
            reverse("seasons:prizes", args=[season.pk]),
            {"most_wins_on": "on", "most_wins_share": "150", "most_wins_unit": "percent"},
        )
    )
    assert "Enter a whole percent from 0 to 100" in page


def test_the_rotation_gives_each_month_a_host_and_plans_the_night_there(client, group, season):
    page = text(client.get(reverse("seasons:rotation", args=[season.pk])))
    assert page.count('<h2 id="m2026') == 12
    kay = group.players.get(name="Regular 11")
    response = client.post(
        reverse("seasons:rotation_save", args=[season.pk]),
        {
            "prefix": "m202611",
            "m202611-month": "2026-11-01",
            "m202611-host": kay.pk,
            "m202611-place": "",
            "m202611-brings": "Bea: dessert",
        },
    )
    assert response.status_code == 302
    turn = HostingTurn.objects.get()
    assert (turn.host, turn.month, turn.where, turn.brings) == (
        kay,
        dt.date(2026, 11, 1),
        "Regular 11's",
        "Bea: dessert",
    )
    client.post(reverse("seasons:rotation_fill", args=[season.pk]))
    assert season.rotation.count() == 12
    assert season.rotation.filter(host=kay).count() == 1  # Kay already hosts November


@pytest.mark.parametrize(
    "data",
    [
        {"prefix": "m202611", "m202611-month": "2031-11-01"},
        {"prefix": "m202611", "m202611-month": "2026-11-01", "m202611-host": "999999"},
        {"prefix": "nonsense"},
        {"prefix": " m202611", " m202611-month": "2026-11-01"},
        {"prefix": "m202611\n", "m202611\n-month": "2026-11-01"},
        {},
    ],
)
def test_a_bad_rotation_month_is_a_message(client, season, data):
    response = client.post(reverse("seasons:rotation_save", args=[season.pk]), data, follow=True)
    assert response.status_code == 200
    assert "error" in response.content.decode()
    assert not season.rotation.exists()


def test_planning_a_night_starts_at_the_month_s_host(client, group):
    today = timezone.localdate()
    season_of(group, year=today.year)
    season_of(group, year=today.year + 1)
    last = plan(group, today + dt.timedelta(days=2), place="Somewhere")
    date = last.date + dt.timedelta(days=28)
    season = group.seasons.covering(date).get()
    bea = group.players.get(name="Regular 2")
    from bunco_night.groups.services import hosting_turn_set

    hosting_turn_set(season=season, month=date, host=bea, brings="Cat: chips")
    page = text(client.get(reverse("nights:new", args=[group.slug])))
    assert 'value="Regular 2&#x27;s"' in page
    assert "Regular 2's turn to host" in page.replace("&#x27;", "'")


def test_the_ledger_adds_up_and_records_dues_paid_ahead(client, group, season):
    page = text(client.get(reverse("seasons:ledger", args=[season.pk])))
    # $60 collected: $6 to the year-end pot, the rest split by the night's prizes.
    assert "$60.00" in page and "$6.00" in page
    ann = group.players.get(name="Regular 1")
    response = client.post(
        reverse("seasons:prepayment_add", args=[season.pk]),
        {"player": ann.pk, "amount": "50", "starts": "2026-03-01", "note": "the rest of 2026"},
    )
    assert response.status_code == 302
    prepaid = Prepayment.objects.get()
    assert (prepaid.player, prepaid.amount_cents, prepaid.starts) == (
        ann,
        5000,
        dt.date(2026, 3, 1),
    )
    page = text(client.get(reverse("seasons:ledger", args=[season.pk])))
    assert "$50.00 paid ahead, not used yet" in page
    # A refused amount is shown where the form is, far down the page: the form's address
    # names its section, which the browser scrolls to.
    add = reverse("seasons:prepayment_add", args=[season.pk])
    assert f'<form method="post" action="{add}#prepaid" novalidate>' in page
    page = text(
        client.post(
            reverse("seasons:prepayment_add", args=[season.pk]),
            {"player": ann.pk, "amount": "-3", "starts": "2026-03-01"},
        )
    )
    assert "An amount cannot be negative." in page
    client.post(reverse("seasons:prepayment_undo", args=[season.pk, prepaid.pk]))
    assert not Prepayment.objects.exists()


def test_dues_paid_ahead_sent_twice_with_the_page_s_nonce_count_once(client, group, season):
    ann = group.players.get(name="Regular 1")
    data = {"player": ann.pk, "amount": "50", "starts": "2026-03-01", "nonce": "ahead-0001"}
    for _ in range(2):
        response = client.post(reverse("seasons:prepayment_add", args=[season.pk]), data)
        assert response.status_code == 302
    assert Prepayment.objects.get().amount_cents == 5000
    data["nonce"] = ""  # no nonce: each post is one of its own
    client.post(reverse("seasons:prepayment_add", args=[season.pk]), data)
    assert Prepayment.objects.count() == 2


def test_a_player_history_shows_nights_results_prizes_dues_and_substitutes(client, group, season):
    regular = group.players.get(name="Regular 12")
    page = text(client.get(reverse("seasons:history", args=[group.slug, regular.pk])))
    assert "Sent Sub 1" in page and "Substitutes sent" in page
    sub = group.players.get(name="Sub 1")
    page = text(client.get(reverse("seasons:history", args=[group.slug, sub.pk])))
    assert "Played for Regular 12" in page
    assert '<svg class="chart-svg" id="results-' in page
    one = group.players.get(name="Regular 1")
    page = text(
        client.get(reverse("seasons:history", args=[group.slug, one.pk]) + f"?season={season.pk}")
    )
    assert "2 wins, 0 losses" in page
    assert "Dues: owed $5.00" in page and "paid $5.00" in page


def season_urls(group, season):
    player = group.players.first()
    prepaid = Prepayment.objects.create(player=player, amount_cents=100, starts=season.starts)
    values = {
        "slug": group.slug,
        "pk": season.pk,
        "player_pk": player.pk,
        "prepayment_pk": prepaid.pk,
    }
    from django.urls import get_resolver

    resolver = get_resolver().namespace_dict["seasons"][1]
    urls = []
    for pattern in resolver.url_patterns:
        names = re.findall(r"<(?:\w+:)?(\w+)>", str(pattern.pattern))
        urls.append(reverse(f"seasons:{pattern.name}", kwargs={n: values[n] for n in names}))
    urls.append(reverse("printing:season_standings", args=[season.pk]))
    return urls


def test_season_pages_are_for_the_group_s_hosts_only(client, group, season):
    urls = season_urls(group, season)
    assert len(urls) >= 12
    client.force_login(make_user("stranger"))
    for address in urls:
        response = client.get(address)
        if response.status_code == 405:
            response = client.post(address, {"player": "1", "code": "most_wins"})
        assert response.status_code == 404, address
    client.logout()
    for address in urls:
        response = client.get(address)
        assert response.status_code in (302, 405), address
        if response.status_code == 302:
            assert response["Location"].startswith(reverse("login")), address
    assert Prepayment.objects.count() == 1
