"""Text the database cannot hold is refused with a clear message, never a 500.

SQLite keeps a string of any length in a varchar and keeps NUL characters; PostgreSQL
refuses both. Every text a host types or a phone sends that reaches a column is tried
here, too long and with a NUL: forms and pages say what is wrong, phones get 400 JSON
with a stable code, the services refuse the same values when called directly, and
nothing is stored. `make test` runs this file on both databases.
"""

import html

import pytest
from django.urls import reverse

from bunco_night.core.errors import ServiceError
from bunco_night.groups.models import Group, Player, Prize
from bunco_night.groups.services import group_create, player_add, player_update, rules_update
from bunco_night.nights.models import Attendance, Night, Payment
from bunco_night.nights.services import night_create, night_update, payment_record
from bunco_night.play.models import Entry, PrizeTiebreak
from bunco_night.play.services import entry_record, prize_tiebreak_record
from bunco_night.rules.presets import MARK_CODE_MAX_LENGTH, GroupMark
from tests.factories import make_night, make_user
from tests.play.helpers import start_night

pytestmark = pytest.mark.django_db

NUL = "\x00"
LONG_EMAIL = "a" * 248 + "@example.com"  # 260 characters: a form's 320 allows it, the column 254
LONG_CODE = "m" * (MARK_CODE_MAX_LENGTH + 1)


def stored():
    """Every row a refused change must leave alone."""
    models = (Group, Player, Prize, Night, Attendance, Payment, Entry, PrizeTiebreak)
    return {m.__name__: sorted(map(repr, m.objects.values())) for m in models}


def page_text(response) -> str:
    return html.unescape(response.content.decode())


@pytest.fixture
def night(group):
    return make_night(group, sets=1)


# Host forms: (case, where the form posts, a valid form, the field, the value, the message).
def _group_form(group, night):
    return reverse("groups:index"), {"name": "Oak Lane", "rules": "house", "dues": "5"}


def _player_add(group, night):
    data = {"name": "Zed", "kind": "regular", "phone": "", "email": "", "notes": ""}
    return reverse("groups:player_create", args=[group.slug]), data


def _player_save(group, night):
    player = group.players.get(name="Regular 1")
    data = {"name": "Regular 1", "kind": "regular", "phone": "", "email": "", "notes": ""}
    return reverse("groups:player_save", args=[group.slug, player.pk]), data


def _night_create(group, night):
    data = {"date": "2026-12-12", "time": "19:00", "place": "", "sets": "1"}
    return reverse("nights:create", args=[group.slug]), data


def _night_save(group, night):
    data = {"date": "2026-12-05", "time": "19:00", "place": "", "sets": "1"}
    return reverse("nights:save", args=[night.pk]), data


def _new_substitute(group, night):
    attendance = night.attendances.get(player__name="Regular 1")
    url = reverse("nights:new_substitute", args=[night.pk, attendance.pk])
    return url, {"name": "New Sub", "phone": "", "email": ""}


def _rules(group, night):
    from bunco_night.groups.rules_forms import RulesForm

    initial = RulesForm.initial_for(group.rules_obj)
    data = {k: v for k, v in initial.items() if v not in (False, None) and k != "group_marks"}
    data |= {"group_marks-0-label": "Wipeout", "group_marks-0-points": "0"}
    return reverse("groups:rules_save", args=[group.slug]), data


def _prizes(group, night):
    data = {}
    for prize in group.prizes.all():
        data |= {f"{prize.code}_on": "on", f"{prize.code}_share": "25", f"{prize.code}_unit": ""}
    return reverse("groups:prizes_save", args=[group.slug]), data


TOO_LONG = "at most {n} characters"
NO_NUL = "Take out the null character"
HOST_FORMS = [
    ("group name too long", _group_form, "name", "g" * 101, TOO_LONG.format(n=100)),
    ("group name with NUL", _group_form, "name", f"Oak{NUL}Lane", NO_NUL),
    ("player name too long", _player_add, "name", "p" * 81, TOO_LONG.format(n=80)),
    ("player name with NUL", _player_add, "name", f"Ann{NUL}", NO_NUL),
    ("player phone too long", _player_add, "phone", "5" * 41, TOO_LONG.format(n=40)),
    ("player phone with NUL", _player_add, "phone", f"555{NUL}", NO_NUL),
    ("player e-mail too long", _player_add, "email", LONG_EMAIL, TOO_LONG.format(n=254)),
    ("player e-mail with NUL", _player_add, "email", f"ann{NUL}@example.com", NO_NUL),
    ("player notes with NUL", _player_add, "notes", f"brings pie{NUL}", NO_NUL),
    ("edited name too long", _player_save, "name", "p" * 81, TOO_LONG.format(n=80)),
    ("edited phone too long", _player_save, "phone", "5" * 41, TOO_LONG.format(n=40)),
    ("edited e-mail too long", _player_save, "email", LONG_EMAIL, TOO_LONG.format(n=254)),
    ("edited notes with NUL", _player_save, "notes", f"pie{NUL}", NO_NUL),
    ("night place too long", _night_create, "place", "h" * 121, TOO_LONG.format(n=120)),
    ("night place with NUL", _night_create, "place", f"Ann's{NUL}", NO_NUL),
    ("edited place too long", _night_save, "place", "h" * 121, TOO_LONG.format(n=120)),
    ("edited place with NUL", _night_save, "place", f"Ann's{NUL}", NO_NUL),
    ("new substitute name too long", _new_substitute, "name", "s" * 81, TOO_LONG.format(n=80)),
    ("new substitute name with NUL", _new_substitute, "name", f"Sue{NUL}", NO_NUL),
    ("new substitute phone too long", _new_substitute, "phone", "5" * 41, TOO_LONG.format(n=40)),
    ("new substitute e-mail too long", _new_substitute, "email", LONG_EMAIL, "at most 254"),
    (
        "mark code too long",
        _rules,
        "group_marks-0-code",
        LONG_CODE,
        f"Row 1: a mark's code is at most {MARK_CODE_MAX_LENGTH} characters",
    ),
    ("mark code with NUL", _rules, "group_marks-0-code", f"wipe{NUL}out", NO_NUL),
    ("mark label with NUL", _rules, "group_marks-0-label", f"Wipe{NUL}out", NO_NUL),
    ("prize share with NUL", _prizes, "most_wins_share", f"25{NUL}", NO_NUL),
]


@pytest.mark.parametrize(
    ("form", "field", "value", "message"),
    [case[1:] for case in HOST_FORMS],
    ids=[case[0] for case in HOST_FORMS],
)
def test_host_forms_refuse_text_the_database_cannot_hold(
    client, group, night, form, field, value, message
):
    url, data = form(group, night)
    before = stored()
    response = client.post(url, {**data, field: value})
    assert response.status_code == 200  # the form again, with the message; not a redirect
    assert message in page_text(response)
    assert stored() == before


@pytest.mark.parametrize(
    ("username", "message"),
    # Django's login form checks no length: a long name is just not a host.
    [("u" * 151, "That username and password do not match"), (f"host{NUL}", NO_NUL)],
    ids=["too long", "with NUL"],
)
def test_login_refuses_text_the_database_cannot_hold(client, username, message):
    response = client.post(reverse("login"), {"username": username, "password": "bunco"})
    assert response.status_code == 200 and message in page_text(response)


# Nonces: forms and phones send them; the column holds 64 characters and no NUL.
BAD_NONCES = [
    ("too long", "n" * 65),
    ("a newline after 64 characters", "n" * 64 + "\n"),
    ("with NUL", f"nonce-{NUL}-0001"),
]


@pytest.mark.parametrize("nonce", [n for _, n in BAD_NONCES], ids=[c for c, _ in BAD_NONCES])
def test_a_payment_with_a_bad_nonce_is_refused(client, night, nonce):
    attendance = night.attendances.first()
    before = stored()
    response = client.post(reverse("nights:pay", args=[night.pk, attendance.pk]), {"nonce": nonce})
    assert response.status_code == 200
    assert "This form has no valid id: reload the page." in page_text(response)
    assert stored() == before
    with pytest.raises(ServiceError) as caught:
        payment_record(attendance=attendance, amount_cents=500, nonce=nonce)
    assert caught.value.code == "bad_nonce"


@pytest.fixture
def playing(night):
    start_night(night)
    return night


def tap(client, table, **fields):
    fields.setdefault("round", "1")
    return client.post(
        reverse("play:table_entry", args=[table.token]), fields, HTTP_ACCEPT="application/json"
    )


PHONE_TAPS = [
    *(
        (f"nonce {case}", {"nonce": n, "seat": "1", "tap": "points:1"}, "bad_nonce")
        for case, n in BAD_NONCES
    ),
    ("tap with NUL", {"nonce": "nonce-0000001", "seat": "1", "tap": f"points{NUL}:1"}, "bad_kind"),
    (
        "unknown mark with NUL",
        {"nonce": "nonce-0000001", "seat": "1", "tap": f"mark:wipe{NUL}out"},
        "unknown_mark",
    ),
    (
        "unknown mark code too long",
        {"nonce": "nonce-0000001", "seat": "1", "tap": f"mark:{'x' * 200}"},
        "unknown_mark",
    ),
]


@pytest.mark.parametrize(
    ("fields", "code"), [c[1:] for c in PHONE_TAPS], ids=[c[0] for c in PHONE_TAPS]
)
def test_phone_taps_with_text_the_database_cannot_hold_get_400(client, playing, fields, code):
    before = stored()
    response = tap(client, playing.tables.get(number=1), **fields)
    assert response.status_code == 400
    assert response.json()["ok"] is False and response.json()["code"] == code
    assert stored() == before


def test_a_mark_whose_code_is_too_long_to_record_is_refused_not_a_500(client, playing):
    """A night whose rules were saved before such codes were refused: its taps get a 400."""
    rules = playing.rules | {
        "group_marks": [{"code": LONG_CODE, "label": "Long", "points": 0, "effect": "none"}]
    }
    Night.objects.filter(pk=playing.pk).update(rules=rules)
    before = stored()
    response = tap(
        client,
        playing.tables.get(number=1),
        nonce="nonce-0000001",
        seat="1",
        tap=f"mark:{LONG_CODE}",
    )
    assert response.status_code == 400 and response.json()["code"] == "mark_code_too_long"
    assert stored() == before


@pytest.mark.parametrize("path", ["t/{}/", "t/{}/state/", "p/{}/", "p/{}/state/"])
@pytest.mark.parametrize("token", ["a%00b", "x" * 300], ids=["with NUL", "too long"])
def test_links_with_a_token_the_database_cannot_hold_are_not_found(client, path, token):
    assert client.get("/" + path.format(token)).status_code == 404


@pytest.mark.parametrize("path", ["t/{}/entry/", "t/{}/undo/", "t/{}/done/", "t/{}/tiebreak/"])
def test_phone_posts_to_a_token_with_NUL_are_not_found(client, path):
    response = client.post("/" + path.format("a%00b"), HTTP_ACCEPT="application/json")
    assert response.status_code == 404


def test_the_host_correcting_a_table_with_a_bad_nonce_sees_why(client, playing):
    url = reverse("play:table_fix", args=[playing.pk, 1]) + "?round=1"
    before = stored()
    for _, nonce in BAD_NONCES:
        response = client.post(url, {"action": "add", "nonce": nonce, "seat": "1", "tap": "miss"})
        assert response.status_code == 302
        assert "This entry has no valid id" in page_text(client.get(response.url))
    assert stored() == before


@pytest.mark.parametrize(
    ("code", "player"),
    [(f"most{NUL}wins", False), (f"most{NUL}wins", True), ("w" * 200, True), ("w" * 200, False)],
    ids=["NUL, clearing", "NUL, recording", "too long, recording", "too long, clearing"],
)
def test_a_prize_tiebreak_for_an_unknown_prize_is_refused(client, night, code, player):
    who = night.group.players.first()
    before = stored()
    data = {"code": code, "player": str(who.pk) if player else ""}
    response = client.post(reverse("play:standings", args=[night.pk]), data)
    assert response.status_code == 302
    assert "Pick one of the prizes." in page_text(client.get(response.url))
    assert stored() == before


# The services refuse the same values when called directly (a form is not the only caller).
def _service_cases():
    def group_(g, n):
        return group_create(name="g" * 101, user=make_user("other"))

    def player(**kw):
        return lambda g, n: player_add(group=g, **({"name": "Zed"} | kw))

    def edit(**kw):
        return lambda g, n: player_update(player=g.players.first(), **kw)

    def place(value, update=False):
        if update:
            return lambda g, n: night_update(night=n, date=n.date, time=None, place=value, sets=1)
        return lambda g, n: night_create(group=g, date=n.date, place=value)

    def marks(code, label="Mark"):
        return lambda g, n: rules_update(
            group=g, changes={"group_marks": (GroupMark(code=code, label=label),)}
        )

    def tiebreak(code):
        return lambda g, n: prize_tiebreak_record(night=n, code=code, player=None)

    return [
        ("group name too long", group_, "too_long"),
        ("player name too long", player(name="p" * 81), "too_long"),
        ("player name with NUL", player(name=f"A{NUL}n"), "nul_character"),
        ("player phone too long", player(phone="5" * 41), "too_long"),
        ("player e-mail too long", player(email="a" * 243 + "@example.com"), "too_long"),
        ("player notes with NUL", player(notes=f"pie{NUL}"), "nul_character"),
        ("edited phone with NUL", edit(phone=f"5{NUL}"), "nul_character"),
        ("edited e-mail too long", edit(email=LONG_EMAIL), "too_long"),
        ("edited notes with NUL", edit(notes=NUL), "nul_character"),
        ("night place too long", place("h" * 121), "too_long"),
        ("edited place with NUL", place(f"h{NUL}", update=True), "nul_character"),
        ("mark code too long", marks(LONG_CODE), "too_long"),
        ("mark code with NUL", marks(f"m{NUL}"), "nul_character"),
        ("mark label with NUL", marks("wipeout", f"Wipe{NUL}"), "nul_character"),
        ("tie-break prize code with NUL", tiebreak(f"most{NUL}wins"), "bad_tiebreak"),
    ]


SERVICE_CASES = _service_cases()


@pytest.mark.parametrize(
    ("call", "code"), [c[1:] for c in SERVICE_CASES], ids=[c[0] for c in SERVICE_CASES]
)
def test_services_refuse_text_the_database_cannot_hold(group, night, call, code):
    before = stored()
    with pytest.raises(ServiceError) as caught:
        call(group, night)
    assert caught.value.code == code
    assert stored() == before


@pytest.mark.parametrize("nonce", [n for _, n in BAD_NONCES], ids=[c for c, _ in BAD_NONCES])
def test_entry_record_refuses_a_nonce_the_column_cannot_hold(playing, nonce):
    with pytest.raises(ServiceError) as caught:
        entry_record(table=playing.tables.get(number=1), nonce=nonce, seat=1, kind="miss")
    assert caught.value.code == "bad_nonce"
    assert not Entry.objects.exists()
