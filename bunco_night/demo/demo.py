"""The demo group, "Maple Street Bunco", built through the services (``build_demo``).
``build_demo`` writes ``fixtures/demo.json`` without secrets; ``load_demo`` loads it with fresh
links and a random host password (``set_demo_password``)."""

import datetime as dt
import random
import secrets
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import override_settings

from bunco_night.groups.models import Player
from bunco_night.groups.selectors import hosting_turn_on
from bunco_night.groups.services import (
    group_create,
    hosting_turn_set,
    player_add,
    player_update,
    season_create,
)
from bunco_night.invites.messages import site_links
from bunco_night.invites.models import Notice, SubstituteCall
from bunco_night.invites.services import answer_record, invitations_send, offer_decline
from bunco_night.nights.models import Attendance, Night
from bunco_night.nights.selectors import current_round
from bunco_night.nights.services import (
    attendance_set,
    night_create,
    payment_record,
    prepayment_record,
    seating_draw,
)
from bunco_night.play.services import (
    entry_record,
    round_close,
    round_start,
    table_done,
    tiebreak_record,
)
from bunco_night.play.state import round_board
from bunco_night.rules.scoring import POINTS, score_roll

DEMO_USERNAME = "host"
# The fixed password older versions gave the demo host: `make run` replaces it.
OLD_DEMO_PASSWORD = "bunco"
GROUP_NAME = "Maple Street Bunco"
# Fields of the fixture that would be the same secret in every copy of the demo.
SECRET_FIELDS = {
    "auth.user": "password",
    "nights.table": "token",
    "nights.attendance": "token",
    "invites.playerlink": "token",
    "invites.substituteoffer": "token",
}

REGULARS = [
    ("Ann Marie Baxter", "555-0101", "ann@example.com"),
    ("Bea Okafor", "555-0102", "bea@example.com"),
    ("Carla Méndez", "555-0103", "carla@example.com"),
    ("Dee Whitfield", "555-0104", "dee@example.com"),
    ("Eleanor Park", "555-0105", "eleanor@example.com"),
    ("Fran Kowalski", "555-0106", "fran@example.com"),
    ("Gloria Nguyen", "555-0107", "gloria@example.com"),
    ("Hattie Johnson", "555-0108", "hattie@example.com"),
    ("Irene O'Brien", "555-0109", "irene@example.com"),
    ("Joy Lindqvist", "555-0110", "joy@example.com"),
    ("Kay Sato", "555-0111", "kay@example.com"),
    ("Lou Fontaine", "555-0112", "lou@example.com"),
]
SUBSTITUTES = [
    ("Maggie Reyes", "555-0201", "maggie@example.com"),
    ("Nell Brooks", "555-0202", ""),
    ("Opal Chen", "555-0203", "opal@example.com"),
    ("Pat Delaney", "555-0204", ""),
    ("Quinn Harper", "555-0205", "quinn@example.com"),
]


def autoplay_round(night: Night, rng: random.Random) -> None:
    """Play the round in play to its end with random dice, as the table phones would."""
    rnd = current_round(night)
    turn = {tr.table.pk: 1 for tr in round_board(rnd).tables}
    counter = 0
    for _ in range(5000):
        board = round_board(rnd)
        if board.over:
            return
        for tr in board.tables:
            table, outcome = tr.table, tr.outcome
            if outcome.done:
                if outcome.needs_tiebreak:
                    tiebreak_record(table=table, side=rng.choice(outcome.tied_sides))
                continue
            if outcome.stopped and not outcome.waiting_for and turn[table.pk] == 0:
                table_done(table=table)
                continue
            seat = turn[table.pk] or 1
            if outcome.stopped and outcome.waiting_for and seat not in outcome.waiting_for:
                seat = min(outcome.waiting_for)
            scored = score_roll([rng.randint(1, 6) for _ in range(3)], rnd.mark, night.rules_obj)
            counter += 1
            count = scored.points if scored.kind == POINTS else 0
            entry_record(
                table=table,
                nonce=f"demo-{night.pk}-{rnd.number}-{counter}",
                seat=seat,
                kind=scored.kind,
                count=count,
            )
            if not scored.roll_again:
                # The turn passes left; after the bell nobody starts a new turn.
                turn[table.pk] = 0 if outcome.stopped else seat % tr.size + 1
    raise RuntimeError("The demo round did not end.")


def play_night(night: Night, seed: int) -> None:
    """Seat and play every round of ``night``."""
    rng = random.Random(seed)
    seating_draw(night=night, seed=seed)
    while True:
        round_start(night=night)
        autoplay_round(night, rng)
        if round_close(rnd=current_round(night)) is None:
            return


def build_demo() -> Night:
    """Create the demo host, group, roster and three finished nights."""
    User = get_user_model()
    host = User.objects.create_user(DEMO_USERNAME, first_name="Helen", last_name="Host")
    group = group_create(name=GROUP_NAME, user=host, rules="house", dues_cents=500)
    regulars = [player_add(group=group, name=n, phone=p, email=e) for n, p, e in REGULARS]
    subs = [
        player_add(group=group, name=n, kind=Player.Kind.SUBSTITUTE, phone=p, email=e)
        for n, p, e in SUBSTITUTES
    ]
    player_update(player=regulars[3], usual_substitute=subs[0], notes="Brings the bell.")
    player_update(player=regulars[7], usual_substitute=subs[2])
    # The season first: a night's money is recorded as it ends (docs/rules.md section 7.9).
    season = season_create(
        group=group,
        name="2026",
        starts=dt.date(2026, 1, 1),
        ends=dt.date(2026, 12, 31),
        pot_percent=10,
    )
    dates = [dt.date(2026, 8, 13), dt.date(2026, 9, 10), dt.date(2026, 10, 8)]
    places = ["Ann Marie's", "Gloria's", "Kay's"]
    last = None
    for i, (date, place) in enumerate(zip(dates, places, strict=True)):
        night = night_create(group=group, date=date, time=dt.time(19, 0), place=place, sets=2)
        att = {a.player.name: a for a in night.attendances.select_related("player")}
        if i >= 1:
            attendance_set(
                attendance=att[REGULARS[3][0]],
                status=Attendance.Status.SENT_SUB,
                substitute=subs[0],
            )
        if i == 2:
            attendance_set(
                attendance=att[REGULARS[7][0]],
                status=Attendance.Status.SENT_SUB,
                substitute=subs[2],
            )
        for a in night.attendances.select_related("player"):
            if i == 2 and a.player.name == REGULARS[7][0]:
                continue  # Hattie's substitute did not pay: it carries over to December
            payment_record(attendance=a, amount_cents=night.dues_cents)
        play_night(night, seed=2026 + i)
        last = night
    build_season(season, regulars, subs)
    return last


def without_secrets(records: list[dict]) -> list[dict]:
    """Fixture records with no password hash and no link token: loading makes new ones."""
    for record in records:
        field = SECRET_FIELDS.get(record["model"])
        if field == "password":
            record["fields"]["password"] = "!"  # no password logs in until one is set
        elif field:
            record["fields"].pop(field, None)
    return records


def password_file() -> Path:
    """The demo password's file: beside SQLite, else in the project (env overrides)."""
    override = settings.DEMO_PASSWORD_FILE
    if override:
        return Path(override)
    name = str(connection.settings_dict["NAME"])
    if connection.vendor == "sqlite" and name and not name.startswith(":memory:"):
        path = Path(name)
        return path.with_name(path.name + ".demo-password")
    return Path(settings.BASE_DIR) / ".demo-password"


def set_demo_password() -> str:
    """Give the demo host a new random password, keep it in ``password_file``, return it."""
    password = secrets.token_urlsafe(9)
    user = get_user_model().objects.get(username=DEMO_USERNAME)
    user.set_password(password)
    user.save(update_fields=["password"])
    path = password_file()
    path.write_text(password + "\n", encoding="utf-8")
    path.chmod(0o600)
    return password


def demo_password() -> str | None:
    """The kept demo password while it still logs the demo host in, else None."""
    path = password_file()
    user = get_user_model().objects.filter(username=DEMO_USERNAME).first()
    if user is None or not path.is_file():
        return None
    password = path.read_text(encoding="utf-8").strip()
    return password if password and user.check_password(password) else None


def build_season(season, regulars: list[Player], subs: list[Player]) -> Night:
    """The 2026 season's rotation, dues ahead and December's night with answers."""
    group = season.group
    rotation = [
        (8, regulars[0], "", "Bea: dessert"),
        (9, regulars[6], "", "Carla: salad, Joy: drinks"),
        (10, regulars[10], "", ""),
        (11, None, "No Bunco this month", ""),
        (12, regulars[1], "", "Carla: dessert, Fran: drinks"),
    ]
    for month, host, place, brings in rotation:
        hosting_turn_set(
            season=season, month=dt.date(2026, month, 1), host=host, place=place, brings=brings
        )
    prepayment_record(
        player=regulars[11],
        amount_cents=2500,
        starts=dt.date(2026, 12, 1),
        note="Paid for five nights",
    )
    december = dt.date(2026, 12, 10)
    turn = hosting_turn_on(group, december)
    night = night_create(group=group, date=december, time=dt.time(19, 0), place=turn.where, sets=2)
    links = site_links()
    # The demo sends nothing: its messages stay in memory.
    with override_settings(EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend"):
        invitations_send(night=night, kind=Notice.Kind.INVITATION, links=links)
        answers = [
            (regulars[2], "coming", {"note": "Bringing dessert!"}),
            (regulars[5], "coming", {}),
            (regulars[3], "sub", {"substitute": subs[0], "note": "Maggie takes my seat."}),
            (regulars[8], "absent", {"note": "Out of town, sorry!"}),
            (regulars[4], "ask", {"note": "Work trip."}),
        ]
        for player, choice, extra in answers:
            answer_record(player=player, night=night, choice=choice, links=links, **extra)
        call = SubstituteCall.objects.get(attendance__night=night, attendance__player=regulars[4])
        offer_decline(offer=call.offers.get(player=subs[2]), links=links)
    return night
