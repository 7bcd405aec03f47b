"""The host's group pages: dashboard, hub, roster, rules, dues and prizes."""

import datetime as dt

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from bunco_night.core.money import parse_money
from bunco_night.core.templatetags.money import cents
from bunco_night.groups.models import Group, Player
from bunco_night.groups.services import player_retire
from bunco_night.nights.models import Attendance
from bunco_night.nights.services import attendance_set, guest_add
from tests.factories import make_group, make_night, make_user

pytestmark = pytest.mark.django_db


def url(name, group, *args):
    """A group page's address; planning a night lives with the nights."""
    name = {"night_new": "nights:new", "night_create": "nights:create"}.get(name, f"groups:{name}")
    return reverse(name, args=[group.slug, *args])


def text(response) -> str:
    return response.content.decode()


# Money: what a host types, and what a page shows ----------------------------------------


@pytest.mark.parametrize(
    ("typed", "cents_"),
    [("5", 500), ("5.00", 500), ("$5", 500), (" $ 5.5 ", 550), (".75", 75), ("1,250", 125000)],
)
def test_money_is_typed_in_dollars_and_kept_in_cents(typed, cents_):
    assert parse_money(typed) == cents_


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("-5", "cannot be negative"),
        ("$-5", "cannot be negative"),
        ("5.001", "at most two decimals"),
        ("five", "like 5 or 5.00"),
        ("5.0.0", "like 5 or 5.00"),
        ("1,00", "like 5 or 5.00"),
        ("", "Enter an amount"),
        ("20000", "more than $10,000"),
    ],
)
def test_money_refuses_what_is_not_an_amount(typed, message):
    with pytest.raises(ValidationError) as error:
        parse_money(typed)
    assert message in error.value.messages[0]


@pytest.mark.parametrize(
    ("value", "shown"), [(500, "$5.00"), (5, "$0.05"), (150000, "$1,500.00"), (-250, "-$2.50")]
)
def test_cents_filter_shows_dollars(value, shown):
    assert cents(value) == shown


# Who may see what ---------------------------------------------------------------------


def test_dashboard_needs_a_login(client):
    response = client.get(reverse("groups:index"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_a_host_sees_only_their_own_groups(client, host, group):
    make_group(user=make_user("other"), name="Elm Court", regulars=0, substitutes=0)
    page = text(client.get(reverse("groups:index")))
    assert "Maple Street" in page
    assert "Elm Court" not in page


def test_another_host_gets_404_on_every_group_page(client, group):
    client.force_login(make_user("stranger"))
    player = group.players.first()
    for name, args in [
        ("detail", []),
        ("roster", []),
        ("player_edit", [player.pk]),
        ("rules", []),
        ("night_new", []),
    ]:
        assert client.get(url(name, group, *args)).status_code == 404, name
    for name, args in [
        ("player_create", []),
        ("player_save", [player.pk]),
        ("player_retire", [player.pk]),
        ("rules_reset", []),
        ("rules_save", []),
        ("dues_save", []),
        ("prizes_save", []),
        ("night_create", []),
    ]:
        assert client.post(url(name, group, *args), {"name": "X"}).status_code == 404, name
    player.refresh_from_db()
    assert not player.retired


# The dashboard: starting a group ------------------------------------------------------


def test_create_a_group_with_a_preset_and_dues_in_dollars(client, host):
    response = client.post(
        reverse("groups:index"), {"name": "Tuesday Bunco", "rules": "ladder", "dues": "$3"}
    )
    group = Group.objects.get(name="Tuesday Bunco")
    assert response.status_code == 302
    assert response["Location"] == group.get_absolute_url()
    assert group.is_host(host)
    assert group.rules_obj.name == "ladder"
    assert group.dues_cents == 300


def primary_tile(page: str) -> str:
    """The group hub's highlighted tile: its link and its title."""
    tile = page[page.index('class="hub-link primary"') :]
    href = tile[tile.index('href="') + 6 :].split('"')[0]
    title = tile[tile.index('<span class="hub-title">') + 24 :].split("<")[0]
    return f"{title} -> {href}"


def test_a_new_group_with_an_empty_roster_highlights_adding_players(client, host):
    """The banner says to add the players: the hub highlights that, not planning a night,
    until the roster has a regular."""
    response = client.post(
        reverse("groups:index"),
        {"name": "Tuesday Bunco", "rules": "house", "dues": "5"},
        follow=True,
    )
    page = text(response)
    group = Group.objects.get(name="Tuesday Bunco")
    assert "Add your players to the roster." in page
    roster = reverse("groups:roster", args=[group.slug])
    assert primary_tile(page) == f"Add your players -> {roster}#add"
    assert page.count("hub-link primary") == 1
    client.post(
        reverse("groups:player_create", args=[group.slug]), {"name": "Ann", "kind": "regular"}
    )
    page = text(client.get(group.get_absolute_url()))
    assert primary_tile(page) == f"Plan a night -> {reverse('nights:new', args=[group.slug])}"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"name": "  ", "rules": "house", "dues": "5"}, "Give the group a name."),
        ({"name": "A", "rules": "house", "dues": "-5"}, "An amount cannot be negative."),
        ({"name": "A", "rules": "house", "dues": "5.005"}, "at most two decimals"),
        ({"name": "A", "rules": "house", "dues": "lots"}, "like 5 or 5.00"),
        ({"name": "A", "rules": "poker", "dues": "5"}, "Choose one of the choices given."),
    ],
)
def test_create_a_group_refuses_bad_input_with_a_message(client, host, data, message):
    response = client.post(reverse("groups:index"), data)
    assert response.status_code == 200
    assert message in text(response)
    assert not Group.objects.exists()


# The hub --------------------------------------------------------------------------------


def test_group_page_links_to_everything(client, group):

    from django.utils import timezone

    today = timezone.localdate()
    coming = make_night(group, date=today + dt.timedelta(days=7))
    past = make_night(group, date=today - dt.timedelta(days=21))
    page = text(client.get(group.get_absolute_url()))
    for link in [
        url("roster", group),
        url("rules", group),
        url("night_new", group),
        f"{coming.get_absolute_url()}#attendance",
        f"{coming.get_absolute_url()}#dues",
        f"{past.get_absolute_url()}#seating",
    ]:
        assert f'href="{link}"' in page, link
    assert page.index("Upcoming nights") < page.index("Past nights")
    assert "12 playing" in page


# The roster ------------------------------------------------------------------------------


def test_roster_shows_regulars_substitutes_and_how_to_reach_them(client, group):
    page = text(client.get(url("roster", group)))
    assert page.index("Regular 1") < page.index('id="substitutes"') < page.index("Sub 1")
    assert 'href="tel:555-0101"' in page
    assert 'href="mailto:regular1@example.com"' in page


def test_add_a_player(client, group):
    sub = group.players.get(name="Sub 1")
    response = client.post(
        url("player_create", group),
        {
            "name": "  Ann   Lee ",
            "kind": "regular",
            "phone": "555-1234",
            "email": "ann@example.com",
            "notes": "Brings pie",
            "usual_substitute": sub.pk,
        },
    )
    assert response.status_code == 302
    ann = group.players.get(name="Ann Lee")
    assert (ann.phone, ann.email, ann.notes, ann.usual_substitute) == (
        "555-1234",
        "ann@example.com",
        "Brings pie",
        sub,
    )


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"name": " ", "kind": "regular"}, "A player needs a name."),
        ({"name": "regular 1", "kind": "regular"}, "regular 1 is already on the roster."),
        ({"name": "Bo", "kind": "regular", "email": "bo@"}, "Enter an e-mail address"),
        ({"name": "Bo", "kind": "boss"}, "Choose one of the choices given."),
    ],
)
def test_add_a_player_refuses_bad_input_with_a_message(client, group, data, message):
    response = client.post(url("player_create", group), data)
    assert response.status_code == 200
    assert message in text(response)
    assert group.players.count() == 14


def test_edit_a_player(client, group):
    player = group.players.get(name="Regular 2")
    page = text(client.get(url("player_edit", group, player.pk)))
    assert 'value="Regular 2"' in page and 'value="555-0102"' in page
    response = client.post(
        url("player_save", group, player.pk),
        {"name": "Bea", "kind": "regular", "phone": "555-7777", "email": ""},
    )
    assert response.status_code == 302
    player.refresh_from_db()
    assert (player.name, player.phone, player.email) == ("Bea", "555-7777", "")


def test_edit_a_player_refuses_a_taken_name(client, group):
    player = group.players.get(name="Regular 2")
    response = client.post(
        url("player_save", group, player.pk), {"name": "REGULAR 3", "kind": "regular"}
    )
    assert "REGULAR 3 is already on the roster." in text(response)
    player.refresh_from_db()
    assert player.name == "Regular 2"


def test_retire_asks_first_and_bring_back_does_not(client, group):
    """A mis-tap on Retire changes nothing: the first tap only asks (it works without
    JavaScript, as deleting a night does); Yes retires. Bringing back is one tap
    (docs/rules.md section 8.1)."""
    player = group.players.get(name="Regular 5")
    retire = url("player_retire", group, player.pk)
    question = client.post(retire, {"retired": "1"})
    assert question.status_code == 200
    page = text(question)
    assert 'role="alertdialog"' in page and "Retire Regular 5?" in page
    assert "off the lists of the nights not started yet" in page
    assert 'name="confirmed" value="1"' in page and "Yes, retire Regular 5" in page
    assert f'href="{url("roster", group)}#player-{player.pk}"' in page  # No, keep them
    player.refresh_from_db()
    assert not player.retired
    response = client.post(retire, {"retired": "1", "confirmed": "1"})
    assert response.status_code == 302
    player.refresh_from_db()
    assert player.retired
    page = text(client.get(url("roster", group)))
    assert "Regular 5" in page[page.index('id="retired"') :]
    client.post(url("player_retire", group, player.pk), {"retired": "0"})
    player.refresh_from_db()
    assert not player.retired


def test_only_a_yes_of_1_retires_and_only_0_brings_back(client, group):
    """A post without ``retired`` means retire, and only ``confirmed`` 1 is a yes: any
    other value asks again (the page sends these; a script may not)."""
    player = group.players.get(name="Regular 5")
    retire = url("player_retire", group, player.pk)
    for data in ({}, {"confirmed": "yes"}, {"retired": "", "confirmed": "1 "}):
        assert "Retire Regular 5?" in text(client.post(retire, data))
        assert not Player.objects.get(pk=player.pk).retired
    assert client.post(retire, {"confirmed": "1"}).status_code == 302
    assert Player.objects.get(pk=player.pk).retired
    assert client.post(retire, {"retired": " 0"}).status_code == 302  # not a 0: retired still
    assert Player.objects.get(pk=player.pk).retired
    client.post(retire, {"retired": "0"})
    assert not Player.objects.get(pk=player.pk).retired


def test_bring_back_on_the_roster_puts_back_what_a_place_said(client, group):
    """docs/rules.md section 8.1: a regular who said they were not coming for next month,
    retired and brought back from the roster, is still not coming; one who had not
    answered is coming; a substitute added as a guest is a guest again."""
    night = make_night(group, date=dt.date(2027, 1, 2))
    ann, cid = group.players.get(name="Regular 1"), group.players.get(name="Regular 3")
    sub = group.players.get(name="Sub 1")
    attendance_set(attendance=night.attendances.get(player=ann), status=Attendance.Status.ABSENT)
    guest_add(night=night, player=sub)
    for player in (ann, cid, sub):
        retire = url("player_retire", group, player.pk)
        question = text(client.post(retire, {"retired": "1"}, HTTP_HX_REQUEST="true"))
        assert "what they answered for them is kept" in question
        client.post(retire, {"retired": "1", "confirmed": "1"}, HTTP_HX_REQUEST="true")
    assert not night.attendances.filter(player__in=[ann, cid, sub]).exists()
    for player in (ann, cid, sub):
        back = client.post(url("player_retire", group, player.pk), {"retired": "0"})
        assert back.status_code == 302
    status = dict(night.attendances.values_list("player__name", "status"))
    assert status["Regular 1"] == Attendance.Status.ABSENT
    assert status["Regular 3"] == Attendance.Status.COMING
    assert status["Sub 1"] == Attendance.Status.COMING


def test_retire_with_htmx_asks_in_the_player_s_card_then_returns_just_the_roster_lists(
    client, group
):
    player = group.players.get(name="Sub 2")
    retire = url("player_retire", group, player.pk)
    question = text(client.post(retire, {"retired": "1"}, HTTP_HX_REQUEST="true"))
    assert question.lstrip().startswith('<div id="roster"') and "<html" not in question
    card = question[question.index(f'id="player-{player.pk}"') :]
    card = card[: card.index("</article>")]
    assert 'role="alertdialog"' in card and "Retire Sub 2?" in card
    assert 'name="confirmed" value="1"' in card
    assert question.count('role="alertdialog"') == 1  # only the card tapped asks
    assert not Player.objects.get(pk=player.pk).retired
    # No: the lists again, without the question.
    kept = text(client.get(url("roster", group), HTTP_HX_REQUEST="true"))
    assert kept.lstrip().startswith('<div id="roster"') and "<html" not in kept
    assert 'role="alertdialog"' not in kept and "Retire<span" in kept
    response = client.post(retire, {"retired": "1", "confirmed": "1"}, HTTP_HX_REQUEST="true")
    page = text(response)
    assert page.lstrip().startswith('<div id="roster"')
    assert "<html" not in page and "Add a player" not in page
    assert "Sub 2" in page[page.index('id="retired"') :]
    assert Player.objects.get(pk=player.pk).retired


def test_retired_players_are_not_offered_as_usual_substitutes(client, group):
    sub = group.players.get(name="Sub 1")
    player_retire(player=sub)
    page = text(client.get(url("roster", group)))
    form = page[page.index('id="add"') :]
    assert "Sub 1" not in form and "Sub 2" in form


# Rules, dues and prizes ------------------------------------------------------------------


def rules_data(group, **changes):
    """The rules form as the page fills it in, with some knobs changed."""
    r = group.rules_obj
    data = {
        "bunco_points": r.bunco_points,
        "mini_points": r.mini_points,
        "low_points": r.low_points,
        "high_points": r.high_points,
        "target_teams": r.target_teams,
        "target_individuals": r.target_individuals,
        "target_one_table": r.target_one_table,
        "round_end": r.round_end,
        "tie_break": r.tie_break,
        "marks": ",".join(map(str, r.marks)),
        "sets_per_night": r.sets_per_night,
        "movement": r.movement,
        "fill": r.fill,
        "dice": r.dice,
        "mark_die_points": r.mark_die_points,
        "mark_pair_points": r.mark_pair_points,
        "round_minutes": r.round_minutes,
        "buck_target": r.buck_target,
        "little_buck_points": r.little_buck_points,
    }
    for knob in ("split_low_high", "quick_game", "bunco_ends_round", "everyone_rolls_once"):
        if getattr(r, knob):
            data[knob] = "on"
    data.update(changes)
    return data


def mark_rows(*rows):
    """House marks as the rules page posts them: (name, points, effect[, code]) a row."""
    data = {}
    for i, row in enumerate(rows):
        label, points, effect, code = (*row, "")[:4]
        data |= {
            f"group_marks-{i}-label": label,
            f"group_marks-{i}-points": points,
            f"group_marks-{i}-effect": effect,
            f"group_marks-{i}-code": code,
        }
    return data


def test_rules_page_shows_the_group_s_knobs(client, group):
    page = text(client.get(url("rules", group)))
    assert 'value="1,2,3,4,5,6"' in page
    assert "House rules" in page
    for label in ("Most wins", "Most buncos", "Fuzzy die", "Dues per night"):
        assert label in page


def test_save_rules_knob_by_knob(client, group):
    data = rules_data(
        group,
        bunco_points="25",
        split_low_high="on",
        marks="2, 3,4,5,6",
        fill="ghosts",
        sets_per_night="3",
        **mark_rows(
            ("Wipeout", "0", "reset_round_score"), ("Snake eyes", "", "none"), ("", "", "")
        ),
    )
    response = client.post(url("rules_save", group), data)
    assert response.status_code == 302
    rules = Group.objects.get(pk=group.pk).rules_obj
    assert (rules.bunco_points, rules.split_low_high, rules.fill, rules.sets_per_night) == (
        25,
        True,
        "ghosts",
        3,
    )
    assert rules.marks == (2, 3, 4, 5, 6)
    assert [(m.code, m.label, m.effect) for m in rules.group_marks] == [
        ("wipeout", "Wipeout", "reset_round_score"),
        ("snake_eyes", "Snake eyes", "none"),
    ]
    page = text(client.get(url("rules", group)))
    assert 'name="group_marks-0-label" value="Wipeout"' in page
    assert 'name="group_marks-0-code" value="wipeout"' in page
    assert 'name="group_marks-1-label" value="Snake eyes"' in page
    assert 'name="group_marks-3-label" value=""' in page  # blank rows to add more
    assert "code,label" not in page


def test_a_house_mark_renamed_keeps_its_code_and_one_cleared_is_removed(client, group):
    client.post(
        url("rules_save", group),
        rules_data(
            group, **mark_rows(("Wipeout", "0", "reset_round_score"), ("Monte Carlo", "2", "none"))
        ),
    )
    rules = Group.objects.get(pk=group.pk).rules_obj
    assert [(m.code, m.label, m.points) for m in rules.group_marks] == [
        ("wipeout", "Wipeout", 0),
        ("monte_carlo", "Monte Carlo", 2),
    ]
    client.post(
        url("rules_save", group),
        rules_data(
            group,
            **mark_rows(
                ("Wipe-out!", "0", "reset_round_score", "wipeout"), ("", "2", "none", "monte_carlo")
            ),
        ),
    )
    rules = Group.objects.get(pk=group.pk).rules_obj
    assert [(m.code, m.label) for m in rules.group_marks] == [("wipeout", "Wipe-out!")]


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"marks": "1,2,7"}, "die faces 1 to 6"),
        ({"bunco_points": "-1"}, "Points cannot be below 0."),
        ({"mini_points": "5000"}, "Points cannot be more than 1000."),
        ({"target_teams": "0"}, "A target is at least 1."),
        ({"sets_per_night": "x"}, "Enter a whole number, like 5."),
        ({"round_minutes": ""}, "Give the minutes: 0 for no clock."),
        ({"movement": "ladder", "fill": "tables"}, "fill empty seats with ghosts"),
        (mark_rows(("Wipeout", "lots", "none")), "Row 1: points must be a whole number"),
        (mark_rows(("Wipeout", "500", "none")), "from -100 to 100"),
        (mark_rows(("W", "0", "explode")), "Row 1: choose what the mark does"),
        (mark_rows(("Wipeout", "0", "none"), ("wipeout", "1", "none")), "Two marks are called"),
        (mark_rows(("", "5", "none")), "Row 1: give the mark a name"),
        (mark_rows(("W" * 41, "5", "none")), "at most 40 characters"),
    ],
)
def test_save_rules_refuses_what_makes_no_sense(client, group, changes, message):
    before = Group.objects.get(pk=group.pk).rules
    response = client.post(url("rules_save", group), rules_data(group, **changes))
    assert response.status_code == 200
    assert message in text(response)
    assert Group.objects.get(pk=group.pk).rules == before


def test_reset_the_rules_to_a_preset_asks_first_and_says_what_changes(client, group):
    client.post(url("rules_save", group), rules_data(group, bunco_points="30"))
    asked = client.post(url("rules_reset", group), {"rules": "deluxe"})
    page = text(asked)
    assert asked.status_code == 200 and "Replace your rules with" in page
    assert "Points for a bunco: 30 → 21" in page
    assert "A round ends when: The head table rings the bell for everyone → Every table" in page
    assert Group.objects.get(pk=group.pk).rules_obj.bunco_points == 30  # nothing changed yet
    response = client.post(url("rules_reset", group), {"rules": "deluxe", "confirmed": "1"})
    assert response.status_code == 302
    rules = Group.objects.get(pk=group.pk).rules_obj
    assert rules.name == "deluxe" and rules.bunco_points == 21


def test_a_preset_the_rules_already_match_applies_without_asking(client, group):
    response = client.post(url("rules_reset", group), {"rules": "house"})
    assert response.status_code == 302


def test_set_the_dues(client, group):
    assert client.post(url("dues_save", group), {"dues": "7.50"}).status_code == 302
    group.refresh_from_db()
    assert group.dues_cents == 750


@pytest.mark.parametrize(
    ("typed", "message"),
    [("-3", "An amount cannot be negative."), ("3.333", "at most two decimals"), ("x", "like 5")],
)
def test_set_the_dues_refuses_bad_money(client, group, typed, message):
    response = client.post(url("dues_save", group), {"dues": typed})
    assert message in text(response)
    group.refresh_from_db()
    assert group.dues_cents == 500


def test_choose_prizes_in_percent_or_dollars(client, group):
    data = {
        "most_buncos_on": "on",
        "most_buncos_share": "50",
        "most_buncos_unit": "percent",
        "fuzzy_die_on": "on",
        "fuzzy_die_share": "$3",
        "fuzzy_die_unit": "dollars",
        "most_wins_share": "42",  # not ticked: dropped
        "most_wins_unit": "percent",
    }
    assert client.post(url("prizes_save", group), data).status_code == 302
    prizes = [(p.code, p.percent, p.amount_cents) for p in group.prizes.all()]
    assert prizes == [("most_buncos", 50, None), ("fuzzy_die", None, 300)]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            {"most_wins_on": "on", "most_wins_share": "150", "most_wins_unit": "percent"},
            "whole percent from 0 to 100",
        ),
        (
            {"most_wins_on": "on", "most_wins_share": "-2", "most_wins_unit": "dollars"},
            "cannot be negative",
        ),
        (
            {
                "most_wins_on": "on",
                "most_wins_share": "60",
                "most_wins_unit": "percent",
                "most_losses_on": "on",
                "most_losses_share": "60",
                "most_losses_unit": "percent",
            },
            "The shares add up to 120%: at most 100%.",
        ),
    ],
)
def test_choose_prizes_refuses_bad_shares(client, group, data, message):
    before = list(group.prizes.values_list("code", "percent"))
    response = client.post(url("prizes_save", group), data)
    assert message in text(response)
    assert list(group.prizes.values_list("code", "percent")) == before


def test_after_login_a_host_with_one_group_lands_on_it(client):
    user = make_user("solo", "pw-solo-123")
    group = make_group(user=user, regulars=2, substitutes=0)
    response = client.post(reverse("login"), {"username": "solo", "password": "pw-solo-123"})
    assert response["Location"] == reverse("start")
    assert client.get(reverse("start"))["Location"] == group.get_absolute_url()
    make_group(user=user, regulars=2, substitutes=0, name="Second")
    assert client.get(reverse("start"))["Location"] == reverse("groups:index")


def test_during_a_night_the_group_page_links_to_the_live_board(client, group):
    from tests.play.helpers import start_night

    night = make_night(group)
    assert reverse("play:live", args=[night.pk]) not in text(client.get(group.get_absolute_url()))
    start_night(night)
    page = text(client.get(group.get_absolute_url()))
    assert f'href="{reverse("play:live", args=[night.pk])}"' in page
    assert "is being played" in page
