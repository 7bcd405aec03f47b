"""Every page type reads as the site's own words: the host's pages, a table's phone, a
player's page, a player's answer link, a substitute's offer, the TV and room screens and
the printing index, at three moments of a night (planned, playing, finished), and every
form posted empty and with bad values. A page fails on template syntax printed as text
(``{#``, ``#}``, ``{%``, ``%}``, ``{{``) and on a Django stock message shown in place of the
site's own words ("This field is required.", "Enter a valid ...").

Django's test client, no browser: tests/browser/ looks at the same pages in Chromium.
"""

from __future__ import annotations

import datetime as dt
import html

import pytest
from django.http import HttpResponse
from django.test import Client
from django.urls import reverse

from bunco_night.games.services import buck_table_open
from bunco_night.groups.models import Player
from bunco_night.groups.services import hosting_turn_set, player_update, season_create
from bunco_night.invites.messages import Links
from bunco_night.invites.services import answer_record, call_start, link_for
from bunco_night.nights.models import Attendance
from bunco_night.nights.services import attendance_set, night_create, payment_record
from bunco_night.play.services import round_start
from tests.conftest import TESTS_TODAY
from tests.factories import make_group
from tests.play.helpers import play_round, start_night, tap
from tests.seasons.helpers import pay_everyone, play_night

pytestmark = pytest.mark.django_db

LINKS = Links(lambda path: "http://testserver" + path)

# Template syntax a page must never print: a tag or comment Django did not read.
SYNTAX = ("{#", "#}", "{%", "%}", "{{")
# Django's own form messages, which the site says in its own words instead.
STOCK = (
    "This field is required.",
    "Enter a valid",
    "Enter a whole number.",
    "Enter a number.",
    "Ensure this value",
    "Ensure that there are no more than",
    "Select a valid choice",
    "is not one of the available choices",
    "Enter a list of values",
    "Enter a complete value",
    "No file was submitted",
    "The submitted file is empty",
    "The submitted data was not a file",
    "Null characters are not allowed",
    "ManagementForm data is missing",
    "Please submit at most",
    "Please submit at least",
)


def problems_in(where: str, response) -> list[str]:
    """What is wrong with an answer: a server error, syntax or a stock message."""
    if response.status_code >= 500:
        return [f"{where}: {response.status_code}"]
    if response.status_code in (204, 301, 302, 303) or "html" not in response.get(
        "Content-Type", ""
    ):
        return []
    text = html.unescape(response.content.decode())
    found = [f"{where}: {s!r} printed" for s in SYNTAX if s in text]
    found += [f"{where}: Django's {s!r}" for s in STOCK if s in text]
    return found


@pytest.fixture
def world(client, host, group):
    """The host's group on every moment of a night, a season, the people's links."""
    for i, sub in enumerate(group.players.filter(kind=Player.Kind.SUBSTITUTE), 1):
        player_update(player=sub, email=f"sub{i}@example.com")
    season = season_create(
        group=group, name="2026-27", starts=dt.date(2026, 9, 1), ends=dt.date(2027, 8, 31)
    )
    hosting_turn_set(
        season=season, month=dt.date(2027, 1, 1), host=group.players.get(name="Regular 2")
    )
    finished = night_create(group=group, date=dt.date(2026, 11, 14), sets=1)
    pay_everyone(finished)
    play_night(finished, winners=[["Regular 1"]] * 2, buncos={0: ["Regular 3"]})
    playing = night_create(group=group, date=TESTS_TODAY, sets=1)
    payment_record(attendance=playing.attendances.first(), amount_cents=500)
    start_night(playing, seed=3)
    play_round(playing)
    rnd = round_start(night=playing)
    table = rnd.seats.order_by("table__number").first().table
    tap(table, 1, "points", 2)
    planned = night_create(group=group, date=TESTS_TODAY + dt.timedelta(days=10), sets=1)
    answer_record(
        player=group.players.get(name="Regular 4"),
        night=planned,
        choice="absent",
        note="Out of town",
        links=LINKS,
    )
    attendance_set(
        attendance=planned.attendances.get(player__name="Regular 5"),
        status=Attendance.Status.SENT_SUB,
        substitute=group.players.get(name="Sub 2"),
    )
    call = call_start(
        attendance=planned.attendances.get(player__name="Regular 6"), mode="all", links=LINKS
    )
    buck = make_group(user=host, name="Buck Friday", rules="buck_dice", regulars=5, substitutes=0)
    buck_night = night_create(group=buck, date=TESTS_TODAY, sets=1)
    return {
        "group": group,
        "season": season,
        "nights": {"planned": planned, "playing": playing, "finished": finished},
        "offer": call.offers.first(),
        "buck": buck_table_open(night=buck_night),
    }


def host_pages(world, night) -> dict[str, str]:
    group, season = world["group"], world["season"]
    g, n = group.slug, night.pk
    player = group.players.get(name="Regular 1")
    pages = {
        "groups": reverse("groups:index"),
        "group": reverse("groups:detail", args=[g]),
        "roster": reverse("groups:roster", args=[g]),
        "player": reverse("groups:player_edit", args=[g, player.pk]),
        "roster import": reverse("groups:roster_import", args=[g]),
        "rules": reverse("groups:rules", args=[g]),
        "how we play": reverse("groups:how_we_play", args=[g]),
        "hosts": reverse("accounts:hosts", args=[g]),
        "account": reverse("accounts:account"),
        "plan a night": reverse("nights:new", args=[g]),
        "night": reverse("nights:detail", args=[n]),
        "night edit": reverse("nights:edit", args=[n]),
        "answers": reverse("invites:answers", args=[n]),
        "texts": reverse("invites:texts", args=[n]),
        "live board": reverse("play:live", args=[n]),
        "links": reverse("play:links", args=[n]),
        "prize standings": reverse("play:standings", args=[n]),
        "room screen": reverse("play:room", args=[n]),
        "seating on TV": reverse("nights:tv", args=[n]),
        "print": reverse("printing:index", args=[n]),
        "seasons": reverse("seasons:list", args=[g]),
        "season": reverse("seasons:detail", args=[season.pk]),
        "season edit": reverse("seasons:edit", args=[season.pk]),
        "season money": reverse("seasons:ledger", args=[season.pk]),
        "rotation": reverse("seasons:rotation", args=[season.pk]),
        "history": reverse("seasons:history", args=[g, player.pk]),
    }
    if night.rounds.closed().exists():
        pages["correct a table"] = reverse("play:table_fix", args=[n, 1]) + "?round=1"
    return pages


def phone_pages(world, night) -> dict[str, str]:
    group = world["group"]
    table = night.tables.order_by("number").first()
    row = night.attendances.get(player__name="Regular 1")
    token = link_for(group.players.get(name="Regular 1")).token
    pages = {
        "player page": reverse("play:player", args=[row.token]),
        "player's rules": reverse("play:player_rules", args=[row.token]),
        "answer link": reverse("invites:mine", args=[token]),
        "offer": reverse("invites:offer", args=[world["offer"].token]),
        "buck dice table": reverse("games:buck", args=[world["buck"].token]),
        "home": reverse("home"),
        "log in": reverse("login"),
        "sign up": reverse("accounts:signup"),
        "password reset": reverse("password_reset"),
    }
    if table is not None:
        pages["table phone"] = reverse("play:table", args=[table.token])
        pages["table's rules"] = reverse("play:table_rules", args=[table.token])
    return pages


def forms(world, night) -> dict[str, tuple[str, list[dict]]]:
    """Each form: its address and what is posted to it, empty and with bad values."""
    group, season = world["group"], world["season"]
    g, n = group.slug, night.pk
    player = group.players.get(name="Regular 1")
    row = night.attendances.get(player__name="Regular 1")
    token = link_for(player).token
    bad_money = {"dues": "five dollars"}
    return {
        "new group": (reverse("groups:index"), [{}, {"name": "x" * 300, "rules": "nope"}]),
        "add player": (
            reverse("groups:player_create", args=[g]),
            [{}, {"name": "", "kind": "boss", "email": "ann@", "phone": "x" * 90}],
        ),
        "save player": (
            reverse("groups:player_save", args=[g, player.pk]),
            [{}, {"name": "Ann", "kind": "boss", "email": "ann@", "usual_substitute": "x"}],
        ),
        "roster import": (reverse("groups:roster_import", args=[g]), [{}, {"text": " "}]),
        "dues": (reverse("groups:dues_save", args=[g]), [{}, bad_money]),
        "rules": (
            reverse("groups:rules_save", args=[g]),
            [{}, {"bunco_points": "lots", "sets_per_night": "-1", "movement": "x", "fill": "x"}],
        ),
        "prizes": (
            reverse("groups:prizes_save", args=[g]),
            [{}, {"most_wins_on": "1", "most_wins_share": "x", "most_wins_unit": "x"}],
        ),
        "plan a night": (
            reverse("nights:create", args=[g]),
            [{}, {"date": "2026-02-30", "time": "25:00", "sets": "many"}],
        ),
        "edit night": (
            reverse("nights:save", args=[n]),
            [{}, {"date": "soon", "time": "noon", "sets": "-1"}],
        ),
        "attendance": (
            reverse("nights:attendance", args=[n, row.pk]),
            [{}, {"status": "maybe", "substitute": "x"}],
        ),
        "new substitute": (
            reverse("nights:new_substitute", args=[n, row.pk]),
            [{}, {"name": "", "email": "bo@"}],
        ),
        "guest": (reverse("nights:guest_add", args=[n]), [{}, {"player": "x", "name": ""}]),
        "draw": (reverse("nights:draw", args=[n]), [{"seed": "x"}, {"seed": "-5"}]),
        "swap": (reverse("nights:swap", args=[n]), [{}, {"seat_a": "x", "seat_b": "-1"}]),
        "answer": (
            reverse("invites:mine_answer", args=[token, n]),
            [{}, {"choice": "sub", "substitute": "x", "new_email": "bo@"}],
        ),
        "offer": (reverse("invites:offer_answer", args=[world["offer"].token]), [{}]),
        "offer declined": (reverse("invites:offer_decline", args=[world["offer"].token]), [{}]),
        "offer accepted": (reverse("invites:offer_accept", args=[world["offer"].token]), [{}]),
        "ask mode": (reverse("invites:ask_mode", args=[n]), [{}, {"mode": "loudly"}]),
        "new season": (
            reverse("seasons:list", args=[g]),
            [{}, {"name": "", "starts": "2027-13-01", "ends": "x", "season_share": "lots"}],
        ),
        "season edit": (
            reverse("seasons:edit", args=[season.pk]),
            [{}, {"name": "", "starts": "x", "ends": "2020-01-01"}],
        ),
        "rotation": (
            reverse("seasons:rotation_save", args=[season.pk]),
            [{}, {"month": "x", "host": "x"}],
        ),
        "paid ahead": (
            reverse("seasons:prepayment_add", args=[season.pk]),
            [{}, {"player": "x", "amount": "lots", "starts": "x"}],
        ),
        "e-mail": (reverse("accounts:email"), [{}, {"email": "ann@", "password": ""}]),
        "password": (reverse("password_change"), [{}, {"old_password": "x" * 5000}]),
        "invite a host": (reverse("accounts:invite", args=[g]), [{}, {"email": "bo@"}]),
        "standings": (reverse("play:standings", args=[n]), [{}, {"code": "x", "player": "x"}]),
        "standings tie-break": (
            reverse("play:standings_tiebreak", args=[n]),
            [{}, {"code": "x", "player": "x"}],
        ),
        "standings door": (reverse("play:standings_door", args=[n]), [{"money_ok": "x" * 201}]),
        "live action": (reverse("play:live_action", args=[n]), [{}, {"action": "x"}]),
    }


MOMENTS = ["planned", "playing", "finished"]


@pytest.mark.parametrize("moment", MOMENTS)
def test_every_page_and_form_reads_as_the_site_s_own_words(client, world, moment, settings):
    settings.SIGNUP = "open"  # the sign-up page, which a deployment may close
    night = world["nights"][moment]
    problems = []
    for name, url in host_pages(world, night).items():
        response = client.get(url)
        if response.status_code != 200:
            problems.append(f"{name}: {response.status_code}")
        problems += problems_in(name, response)
    phone = Client()
    for name, url in phone_pages(world, night).items():
        response = phone.get(url)
        if response.status_code != 200:
            problems.append(f"{name}: {response.status_code}")
        problems += problems_in(name, response)
    for data in ({}, {"username": "a b", "email": "bo@", "password1": "x", "password2": "y"}):
        response = phone.post(reverse("accounts:signup"), data)
        problems += problems_in(f"sign up {sorted(data)}", response)
    for name, (url, posts) in forms(world, night).items():
        for i, data in enumerate(posts):
            what = f"{name} ({'empty' if not data else f'bad values {i}'})"
            problems += problems_in(what, client.post(url, data, follow=True))
            hx = client.post(url, data, HTTP_HX_REQUEST="true")
            problems += problems_in(f"{what}, htmx", hx)
    assert problems == [], "\n".join(problems)


def test_the_checks_catch_what_they_look_for():
    """The checks above find a comment printed as text and a stock message."""
    page = HttpResponse("<p>{# a note\n#}</p><p>This field is required.</p>")
    assert problems_in("page", page) == [
        "page: '{#' printed",
        "page: '#}' printed",
        "page: Django's 'This field is required.'",
    ]
    assert problems_in("page", HttpResponse("<p>Fine words.</p>")) == []


@pytest.mark.parametrize("moment", MOMENTS)
def test_every_page_answers_head_as_it_answers_get(client, world, moment):
    """A HEAD (a link checker, an uptime monitor) gets what a GET gets, without the body:
    Django's ``require_safe``. The phones' polls are GET only (tests/play/test_polls.py)."""
    night = world["nights"][moment]
    pages = host_pages(world, night) | phone_pages(world, night)
    differ = {}
    for name, url in pages.items():
        got, head = client.get(url), client.head(url)
        if head.status_code != got.status_code or head.content:
            differ[name] = (url, got.status_code, head.status_code)
    assert differ == {}
    client.logout()
    assert client.head(reverse("home")).status_code == 200
