"""No input from anyone produces a 500: random strings, numbers, dates and unicode posted to
every host form and every phone endpoint (hypothesis).

Each example posts one random set of fields to one endpoint as the group's host (the
phones need no login) and checks the answer is not a 5xx and that nothing outside the
night or group it addressed changed: another host's group and the host's other night
stay exactly as they were. The same test runs on SQLite and, with DATABASE_URL set to
PostgreSQL, on PostgreSQL.
"""

from __future__ import annotations

import hashlib
import json

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bunco_night.games.services import bonanza_table_create
from bunco_night.groups.models import Group
from bunco_night.invites.messages import Links
from bunco_night.invites.services import call_start
from bunco_night.nights.models import Attendance, Night, Payment, Round, Seat, Table
from bunco_night.nights.services import payment_record, seating_draw
from bunco_night.play.models import Entry, TablePlay
from bunco_night.play.services import round_start
from tests.factories import make_group, make_night
from tests.search import examples

pytestmark = pytest.mark.django_db

# Numbers as people (and scripts) type them: huge, negative, fractional, unicode digits.
NUMBERS = st.one_of(
    st.integers().map(str),
    st.integers(min_value=2**31 - 2, max_value=10**40).map(str),
    st.integers(min_value=-(10**40), max_value=-(2**31)).map(str),
    st.floats().map(str),
    st.sampled_from(
        [
            "9" * 5000,
            "1" + "0" * 4400,
            "-" + "9" * 5000,
            "5" * 5000 + ".00",
            "0." + "5" * 5000,
            "²",
            "1²",
            "٣",
            "Ⅻ",
            "1,2,²",
            "1e309",
            "0x10",
            "-0",
            " 7 ",
            "$1,000,000.00",
            "100%",
            "²%",
            "NaN",
            "inf",
        ]
    ),
)
DATES = st.one_of(
    st.dates().map(str),
    st.sampled_from(
        ["9999-12-31", "0001-01-01", "10000-01-01", "2026-02-30", "2026-13-01", "1-1-1"]
    ),
)
TIMES = st.one_of(
    st.times().map(str), st.sampled_from(["24:00", "23:59:60", "99:99", "7:00 PM", "-1:00"])
)
# Any text: NUL characters (PostgreSQL refuses them) and more than any column holds.
TEXT = st.one_of(
    st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=24),
    st.text(alphabet=st.characters(blacklist_categories=("Cs",)), min_size=255, max_size=400),
    st.sampled_from(["\x00", "a\x00b", "x" * 5000, "é" * 300]),
)
ANY = st.one_of(NUMBERS, DATES, TIMES, TEXT, st.just(""))

# Values that reach deeper into a view than random text does.
SPECIAL = {
    "tap": st.sampled_from(
        ["points:1", "points:3", "points:²", "points:" + "9" * 30, "bunco", "mini", "miss"]
        + ["mark:", "mark:x", "dice", "points:-1", "low", "high"]
    ),
    "action": st.sampled_from(
        ["draw", "start", "bell", "close", "winner", "finish", "undo", "add", "tiebreak"]
        + ["accept", "discard", "door", "decline"]
        + ["deal", "take", "call_bonanza", "sell_widow", "poker_bet", "settle"]
    ),
    "status": st.sampled_from(["coming", "sub", "absent", "left"]),
    "kind": st.sampled_from(["regular", "substitute"]),
    "rules": st.sampled_from(["house", "deluxe", "ladder", "one_table", "card_1904"]),
    "confirmed": st.just("1"),
    "unit": st.sampled_from(["percent", "dollars"]),
    "nonce": st.text(alphabet="abcdefghijklmnop0123456789-_", min_size=8, max_size=64),
}


def values_for(name: str):
    key = name.rsplit("_", 1)[-1] if name.endswith(("_share", "_unit", "_on")) else name
    special = SPECIAL.get(key)
    return st.one_of(special, ANY) if special is not None else ANY


RULE_FIELDS = [
    "bunco_points", "split_low_high", "mini_points", "low_points", "high_points",
    "target_teams", "target_individuals", "target_one_table", "quick_game", "round_end",
    "bunco_ends_round", "everyone_rolls_once", "tie_break", "marks", "draw_mark_with_die",
    "sets_per_night", "movement", "fill", "head_partners_stay",
    "group_marks-0-label", "group_marks-0-points", "group_marks-0-effect", "group_marks-0-code",
]  # fmt: skip
PRIZE_FIELDS = [
    f"{code}_{part}"
    for code in ("most_wins", "most_buncos", "last_bunco", "fewest_wins", "most_losses")
    for part in ("on", "share", "unit")
]
PLAYER_FIELDS = ["name", "kind", "phone", "email", "notes", "usual_substitute"]


# The round controls, each at its own address, with the fields it reads.
ROUND_CONTROLS = {
    "draw": ["money_ok"],
    "start": ["money_ok"],
    "bell": ["money_ok"],
    "close": ["money_ok"],
    "winner": ["table", "side", "money_ok"],
    "late_accept": ["entry", "money_ok"],
    "late_discard": ["entry", "money_ok"],
    "finish": ["money_ok"],
}

# The Correct page's corrections, each at its own address, with the fields it reads.
TABLE_FIXES = {
    "undo": ["entry", "round", "money_ok"],
    "put_back": ["entry", "round", "money_ok"],
    "add": ["tap", "seat", "nonce", "round", "money_ok"],
    "winner": ["side", "round", "money_ok"],
    "tiebreak": ["side", "round", "money_ok"],
}


# The Bonanza ledger's steps, each at its own address, with the fields it reads.
BONANZA_STEPS = {
    "deal": ["nonce"],
    "take": ["nonce", "space", "player"],
    "call": ["nonce", "player"],  # and each player's cards_<id>
    "sell_widow": ["nonce", "player", "chips"],
    "poker_bet": ["nonce", "player", "chips"],
    "settle": ["nonce", "space", "player"],
}


def endpoints(world) -> dict[str, tuple[str, str, list[str]]]:
    """name -> (method, url, fields): every host form and every phone endpoint."""
    g, n, t, a = world["group"].slug, world["night"].pk, world["table"].token, world["attendance"]
    player, payment = world["player"].pk, world["payment"].pk
    offer, ledger = world["offer"].token, world["ledger"].token
    cards = [f"cards_{p}" for p in world["ledger"].players]
    return {
        "new group": ("post", reverse("groups:index"), ["name", "rules", "dues"]),
        "add player": ("post", reverse("groups:player_create", args=[g]), PLAYER_FIELDS),
        "save player": ("post", reverse("groups:player_save", args=[g, player]), PLAYER_FIELDS),
        "retire player": (
            "post",
            reverse("groups:player_retire", args=[g, player]),
            ["retired", "confirmed"],
        ),
        "rules preset": ("post", reverse("groups:rules_reset", args=[g]), ["rules", "confirmed"]),
        "rules": ("post", reverse("groups:rules_save", args=[g]), RULE_FIELDS),
        "dues": ("post", reverse("groups:dues_save", args=[g]), ["dues"]),
        "prizes": ("post", reverse("groups:prizes_save", args=[g]), PRIZE_FIELDS),
        "plan a night": (
            "post",
            reverse("nights:create", args=[g]),
            ["date", "time", "place", "sets"],
        ),
        "edit night": (
            "post",
            reverse("nights:save", args=[n]),
            ["date", "time", "place", "sets", "confirmed"],
        ),
        "plan page": ("get", reverse("nights:new", args=[g]), []),
        "night page": ("get", reverse("nights:detail", args=[n]), ["pick"]),
        "attendance": (
            "post",
            reverse("nights:attendance", args=[n, a.pk]),
            ["status", "substitute"],
        ),
        "new substitute": (
            "post",
            reverse("nights:new_substitute", args=[n, a.pk]),
            ["name", "phone", "email"],
        ),
        "leaves": ("post", reverse("nights:leave", args=[n, a.pk]), ["confirmed"]),
        "guest": ("post", reverse("nights:guest_add", args=[n]), ["player"]),
        "pay": ("post", reverse("nights:pay", args=[n, a.pk]), ["nonce"]),
        "undo payment": ("post", reverse("nights:payment_undo", args=[n, payment]), ["confirmed"]),
        "draw": ("post", reverse("nights:draw", args=[n]), ["seed", "confirmed"]),
        "swap": ("post", reverse("nights:swap", args=[n]), ["seat_a", "seat_b", "confirmed"]),
        "live action": (
            "post",
            reverse("play:live_action", args=[n]),
            ["action", "table", "side", "entry"],
        ),
        **{
            f"live {name}": ("post", reverse(f"play:live_{name}", args=[n]), fields)
            for name, fields in ROUND_CONTROLS.items()
        },
        "table fix": (
            "post",
            reverse("play:table_fix", args=[n, 1]),
            ["action", "entry", "tap", "seat", "nonce", "side", "round"],
        ),
        **{
            f"table fix {name}": ("post", reverse(f"play:table_fix_{name}", args=[n, 1]), fields)
            for name, fields in TABLE_FIXES.items()
        },
        "table fix page": ("get", reverse("play:table_fix", args=[n, 1]), ["round"]),
        "standings": (
            "post",
            reverse("play:standings", args=[n]),
            ["action", "code", "player", "money_ok"],
        ),
        "standings door": ("post", reverse("play:standings_door", args=[n]), ["money_ok"]),
        "standings tie-break": (
            "post",
            reverse("play:standings_tiebreak", args=[n]),
            ["code", "player", "money_ok"],
        ),
        "live poll": ("get", reverse("play:live_state", args=[n]), ["v"]),
        "room poll": ("get", reverse("play:room_state", args=[n]), ["v"]),
        "e-mail": ("post", reverse("accounts:email"), ["email", "password"]),
        "invite": ("post", reverse("accounts:invite", args=[g]), ["email"]),
        "phone tap": (
            "post",
            reverse("play:table_entry", args=[t]),
            ["tap", "seat", "nonce", "d1", "d2", "d3"],
        ),
        "phone undo": ("post", reverse("play:table_undo", args=[t]), ["entry"]),
        "phone done": ("post", reverse("play:table_done", args=[t]), ["done"]),
        "phone tie-break": ("post", reverse("play:table_tiebreak", args=[t]), ["side"]),
        "phone extra turns": ("post", reverse("play:table_extra_turns", args=[t]), []),
        "phone poll": ("get", reverse("play:table_state", args=[t]), ["v"]),
        "offer accept": ("post", reverse("invites:offer_accept", args=[offer]), []),
        "offer decline": ("post", reverse("invites:offer_decline", args=[offer]), []),
        "offer answer": ("post", reverse("invites:offer_answer", args=[offer]), ["action"]),
        **{
            f"bonanza {name}": (
                "post",
                reverse(f"games:bonanza_{name}", args=[ledger]),
                fields + (cards if name == "call" else []),
            )
            for name, fields in BONANZA_STEPS.items()
        },
        "bonanza step": (
            "post",
            reverse("games:bonanza_step", args=[ledger]),
            ["action", "nonce", "player", "space", "chips", *cards],
        ),
        "bonanza undo": ("post", reverse("games:bonanza_undo", args=[ledger]), []),
        "player poll": ("get", reverse("play:player_state", args=[a.token]), ["v"]),
    }


def fingerprint(night: Night | None = None, group: Group | None = None) -> str:
    """A digest of every row of a night (or of a whole group and its nights)."""
    if group is not None:
        nights = Night.objects.filter(group=group)
        head = [
            list(Group.objects.filter(pk=group.pk).values()),
            list(group.players.order_by("pk").values()),
            list(group.prizes.order_by("pk").values()),
            list(group.memberships.order_by("pk").values("user_id")),
        ]
    else:
        nights = Night.objects.filter(pk=night.pk)
        head = []
    rows = head + [
        list(model.objects.filter(**{path: nights}).order_by("pk").values())
        for model, path in [
            (Night, "pk__in"),
            (Attendance, "night__in"),
            (Payment, "attendance__night__in"),
            (Table, "night__in"),
            (Round, "night__in"),
            (Seat, "round__night__in"),
            (Entry, "round__night__in"),
            (TablePlay, "round__night__in"),
        ]
    ]
    # A night's version only tells its polling pages to look again: whatever they show may
    # move it, a group's player renamed included, and it records nothing.
    for night_row in rows[len(head)]:
        night_row.pop("version")
    return hashlib.sha256(json.dumps(rows, default=str, sort_keys=True).encode()).hexdigest()


@pytest.fixture
def world(client):
    """The host's group with a night in play and another night; another host's group."""
    User = get_user_model()
    host = User.objects.create_user("host", password="bunco")
    group = make_group(user=host, regulars=9, substitutes=2)
    night = make_night(group, sets=1)
    attendance = night.attendances.order_by("pk").first()
    payment = payment_record(attendance=attendance, amount_cents=500)
    seating_draw(night=night, seed=4)
    round_start(night=night)
    other_night = make_night(group, sets=1)
    seating_draw(night=other_night, seed=5)
    # A seat of a third night offered to the substitutes, and a Bonanza ledger tonight.
    asked = make_night(group, sets=1).attendances.get(player__name="Regular 4")
    links = Links(lambda path: "http://testserver" + path)
    offer = call_start(attendance=asked, mode="all", links=links).offers.first()
    players = list(group.players.filter(kind="regular").values_list("pk", flat=True)[:3])
    ledger = bonanza_table_create(night=night, player_ids=players)
    stranger = User.objects.create_user("stranger", password="bunco")
    other_group = make_group(user=stranger, name="Elm Street", regulars=8)
    seating_draw(night=make_night(other_group, sets=1), seed=6)
    client.force_login(host)
    return {
        "group": group,
        "night": night,
        "table": night.tables.get(number=1),
        "attendance": attendance,
        "player": group.players.order_by("pk").first(),
        "payment": payment,
        "other_night": other_night,
        "offer": offer,
        "ledger": ledger,
        "other_group": other_group,
    }


ENDPOINTS = [
    "new group", "add player", "save player", "retire player", "rules preset", "rules",
    "dues", "prizes", "plan a night", "edit night", "plan page", "night page", "attendance",
    "new substitute", "leaves", "guest", "pay", "undo payment", "draw", "swap",
    "live action", *(f"live {name}" for name in ROUND_CONTROLS), "table fix",
    *(f"table fix {name}" for name in TABLE_FIXES), "table fix page", "standings",
    "standings door", "standings tie-break", "live poll", "room poll",
    "e-mail", "invite", "phone tap", "phone undo", "phone done", "phone tie-break",
    "phone extra turns", "phone poll", "player poll",
    "offer accept", "offer decline", "offer answer",
    *(f"bonanza {name}" for name in BONANZA_STEPS), "bonanza step", "bonanza undo",
]  # fmt: skip


# What a request may change beyond the night it names: retiring a player takes them off
# the lists of the group's nights not started (docs/rules.md section 8.1), the group's other
# night included. Another host's group is unrelated to every request.
GROUP_WIDE = {"retire player"}


def test_every_form_and_phone_endpoint_is_fuzzed(world):
    """The list above names every endpoint the fixture knows, so none is left out."""
    assert sorted(ENDPOINTS) == sorted(endpoints(world))


@pytest.mark.parametrize("name", ENDPOINTS)
@settings(
    max_examples=examples(20),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_no_input_makes_a_500_or_touches_unrelated_data(client, world, name, data):
    method, url, fields = endpoints(world)[name]

    def unrelated():
        if name in GROUP_WIDE:
            return (fingerprint(group=world["other_group"]),)
        return fingerprint(group=world["other_group"]), fingerprint(night=world["other_night"])

    before = unrelated()
    chosen = data.draw(st.lists(st.sampled_from(fields), unique=True) if fields else st.just([]))
    payload = {f: data.draw(values_for(f), label=f) for f in chosen}
    headers = data.draw(
        st.sampled_from([{}, {"HTTP_HX_REQUEST": "true"}, {"HTTP_ACCEPT": "application/json"}])
    )
    response = getattr(client, method)(url, payload, **headers)
    assert response.status_code < 500, (name, payload)
    assert unrelated() == before, (name, payload)


@pytest.mark.parametrize(
    ("url", "field"),
    [
        ("groups:dues_save", "dues"),
        ("groups:prizes_save", "most_wins_share"),
    ],
)
@pytest.mark.parametrize("typed", ["9" * 5000, "²", "5" * 5000 + "%", "1" + "0" * 20])
def test_huge_or_unicode_amounts_are_messages_on_the_form(client, world, url, field, typed):
    payload = {field: typed, "most_wins_on": "on", "most_wins_unit": "dollars"}
    response = client.post(reverse(url, args=[world["group"].slug]), payload)
    assert response.status_code == 200
    assert response.context["dues_form" if field == "dues" else "prizes_form"].errors


def test_a_night_dated_at_the_end_of_the_calendar_is_refused(client, world):
    slug = world["group"].slug
    response = client.post(
        reverse("nights:create", args=[slug]), {"date": "9999-12-31", "time": "19:00", "sets": 1}
    )
    assert response.status_code == 200
    assert "between 1900 and 2999" in response.content.decode()
    # Even with such a night already stored, Plan a night still opens.
    Night.objects.filter(pk=world["night"].pk).update(date="9999-12-31")
    assert client.get(reverse("nights:new", args=[slug])).status_code == 200


@pytest.mark.parametrize("marks", ["1,2,²", "٣", "1,2,3,4,5,6,7", "9" * 5000])
def test_round_numbers_other_than_die_faces_are_a_message(client, world, marks):
    from bunco_night.groups.rules_forms import RulesForm

    initial = RulesForm.initial_for(world["group"].rules_obj)
    payload = {k: v for k, v in initial.items() if v is not False}
    payload["marks"] = marks
    response = client.post(reverse("groups:rules_save", args=[world["group"].slug]), payload)
    assert response.status_code == 200
    assert "die faces 1 to 6" in response.content.decode()
