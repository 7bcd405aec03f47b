"""The host's night pages: planning, attendance, dues, seating and the TV chart."""

import datetime as dt
import re
import threading

import pytest
from django.db import connection
from django.urls import URLPattern, get_resolver, reverse

from bunco_night.groups.models import Player
from bunco_night.groups.services import rules_update
from bunco_night.nights.models import Attendance, Night, Payment, Round
from bunco_night.nights.services import attendance_set, payment_record, seating_draw
from tests.conftest import TESTS_TODAY, today_is
from tests.factories import make_group, make_night, make_user
from tests.locks import held_elsewhere
from tests.play.helpers import nonce, play_round, start_night

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def night(group):
    return make_night(group)


def nurl(name, night, *args):
    return reverse(f"nights:{name}", args=[night.pk, *args])


def att(night, name):
    return night.attendances.get(player__name=name)


def text(response) -> str:
    return response.content.decode()


def section(page: str, id_: str) -> str:
    """The HTML of the <section id=...> on a page."""
    start = page.index(f'<section id="{id_}"')
    return page[start : page.index("</section>", start)]


# Privacy: the roster is for hosts only ----------------------------------------------------


def every_url(group, night):
    """Every address of the groups and nights apps, filled in with real rows."""
    player = group.players.get(name="Regular 1")
    payment = payment_record(attendance=att(night, "Regular 1"), amount_cents=500)
    values = {
        "slug": group.slug,
        "pk": night.pk,
        "attendance_pk": payment.attendance_id,
        "player_pk": player.pk,
        "payment_pk": payment.pk,
    }
    urls = []
    for namespace in ("groups", "nights"):
        resolver = get_resolver().namespace_dict[namespace][1]
        for pattern in resolver.url_patterns:
            assert isinstance(pattern, URLPattern)
            names = re.findall(r"<(?:\w+:)?(\w+)>", str(pattern.pattern))
            urls.append(
                reverse(f"{namespace}:{pattern.name}", kwargs={n: values[n] for n in names})
            )
    return urls


def test_an_anonymous_visitor_sees_no_name_phone_or_email_anywhere(client, night):
    group = night.group
    seating_draw(night=night, seed=1)
    private = [p.name for p in group.players.all()]
    private += [p.phone for p in group.players.all()] + [p.email for p in group.players.all()]
    urls = every_url(group, night)
    assert len(urls) >= 25
    client.logout()
    for address in urls:
        response = client.get(address)
        assert response.status_code == 302, address
        assert response["Location"].startswith(reverse("login")), address
        # htmx is sent to the login page as a whole page, not a fragment (HX-Redirect).
        response = client.get(address, **HX)
        assert response.status_code == 204 and response.content == b"", address
        assert response["HX-Redirect"].startswith(reverse("login")), address
        followed = text(client.get(address, follow=True))
        leaked = [value for value in private if value and value in followed]
        assert leaked == [], address


def test_another_host_gets_404_on_every_night_page(client, night):
    urls = [u for u in every_url(night.group, night) if u.startswith("/nights/")]
    client.force_login(make_user("stranger"))
    for address in urls:
        response = client.get(address)
        if response.status_code == 405:
            response = client.post(address, {"status": "absent", "seed": "1"})
        assert response.status_code == 404, address
    assert att(night, "Regular 2").status == Attendance.Status.COMING
    assert not night.rounds.exists()


# Planning a night -------------------------------------------------------------------------


def test_a_groups_first_night_starts_a_week_out_with_the_group_s_sets(client, group, monkeypatch):
    """On December 4 the first night is planned for December 11, not January 1."""
    today_is(monkeypatch, dt.date(2026, 12, 4))
    page = text(client.get(reverse("nights:new", args=[group.slug])))
    assert 'value="2026-12-11"' in page
    assert 'name="sets" value="4"' in page  # the house preset plays four sets
    assert "A set is 6 rounds, one for each number rolled for: 4 sets = 24 rounds." in page


@pytest.mark.parametrize(
    ("today", "last", "planned"),
    [
        (dt.date(2026, 12, 4), None, dt.date(2026, 12, 11)),  # a week on
        (dt.date(2026, 12, 18), None, dt.date(2027, 1, 8)),  # not on Christmas, nor New Year's
        (dt.date(2026, 11, 27), dt.date(2026, 12, 1), dt.date(2026, 12, 29)),  # four weeks on
        (dt.date(2026, 11, 27), dt.date(2026, 12, 4), dt.date(2027, 1, 8)),  # not January 1
        (dt.date(2026, 11, 27), dt.date(2026, 3, 6), dt.date(2026, 11, 27)),  # never past
        (dt.date(2026, 11, 27), dt.date(2026, 10, 5), dt.date(2026, 11, 30)),  # a week at a time
    ],
)
def test_the_next_night_is_a_sensible_date(client, group, monkeypatch, today, last, planned):
    today_is(monkeypatch, today)
    if last is not None:
        make_night(group, date=last)
    page = text(client.get(reverse("nights:new", args=[group.slug])))
    assert f'name="date" value="{planned:%Y-%m-%d}"' in page


def test_the_next_night_is_four_weeks_after_the_last(client, group):
    last = make_night(group, date=TESTS_TODAY + dt.timedelta(days=3))
    last.place = "Gloria's"
    last.save(update_fields=["place"])
    page = text(client.get(reverse("nights:new", args=[group.slug])))
    assert f'value="{last.date + dt.timedelta(days=28):%Y-%m-%d}"' in page
    # No hosting rotation names this month's host: the place is left for the host to fill.
    assert "Gloria" not in page


def test_plan_a_night(client, group):
    response = client.post(
        reverse("nights:create", args=[group.slug]),
        {"date": "2027-01-12", "time": "19:00", "place": "Ann's house", "sets": "3"},
    )
    night = Night.objects.get()
    assert response.status_code == 302 and response["Location"] == night.get_absolute_url()
    assert (night.date, night.time, night.place, night.sets) == (
        dt.date(2027, 1, 12),
        dt.time(19, 0),
        "Ann's house",
        3,
    )
    assert night.attendances.count() == 12
    page = text(client.get(night.get_absolute_url()))
    for shown in (
        "Tuesday, January 12, 2027",
        "7:00 PM",
        "Ann&#x27;s house",
        "House rules",
        "3 sets",
    ):
        assert shown in page


def test_the_plan_form_sent_twice_plans_one_night(client, group):
    """A double click, or the browser's Back and the form sent again: the form's id
    finds the night it planned, instead of a second night on the same date."""
    page = text(client.get(reverse("nights:new", args=[group.slug])))
    nonce = re.search(r'name="nonce" value="([^"]+)"', page)[1]
    data = {"date": "2027-01-12", "time": "19:00", "place": "Ann's", "sets": "3", "nonce": nonce}
    first = client.post(reverse("nights:create", args=[group.slug]), data)
    again = client.post(reverse("nights:create", args=[group.slug]), {**data, "sets": "2"})
    night = Night.objects.get()
    assert first["Location"] == again["Location"] == night.get_absolute_url()
    assert (night.sets, night.attendances.count()) == (3, 12)  # as the first send planned it
    page = text(client.get(again["Location"]))
    assert "This form planned this night already: change it with Edit night." in page
    # A new form has a new id: a second night on the same date is the host's to plan, once
    # they have said yes to it.
    fresh = text(client.get(reverse("nights:new", args=[group.slug])))
    assert f'value="{nonce}"' not in fresh
    second = {**data, "nonce": "n" * 22}
    asked = text(client.post(reverse("nights:create", args=[group.slug]), second))
    assert "The group already has a night on Tuesday, January 12, 2027." in asked
    assert Night.objects.count() == 1
    client.post(
        reverse("nights:create", args=[group.slug]), {**second, "confirmed_date": "2027-01-12"}
    )
    assert Night.objects.count() == 2


def test_a_date_in_the_past_is_asked_about_and_shown_with_its_year(client, group, monkeypatch):
    """A typo in the year (1999 for 2029) is asked about; an old night entered afterwards
    is planned once the host says yes. Today is the tests' day (tests/conftest.py)."""
    data = {"date": "1999-01-01", "time": "19:00", "sets": "3"}
    asked = text(client.post(reverse("nights:create", args=[group.slug]), data))
    assert "Friday, January 1, 1999 is in the past." in asked
    assert 'name="confirmed_date" value="1999-01-01"' in asked
    assert not Night.objects.exists()
    # Yes to one date is not yes to another.
    other = {**data, "date": "2001-01-01", "confirmed_date": "1999-01-01"}
    assert "Monday, January 1, 2001 is in the past." in text(
        client.post(reverse("nights:create", args=[group.slug]), other)
    )
    response = client.post(
        reverse("nights:create", args=[group.slug]), {**data, "confirmed_date": "1999-01-01"}
    )
    night = Night.objects.get()
    assert response["Location"] == night.get_absolute_url()
    assert "Fri Jan 1, 1999" in text(client.get(nurl("edit", night)))
    # Tomorrow is no slip.
    today_is(monkeypatch, dt.date(1998, 12, 31))
    client.post(reverse("nights:create", args=[group.slug]), {**data, "date": "1999-01-02"})
    assert Night.objects.count() == 2


def test_a_plan_form_id_from_another_group_plans_nothing(client, group):
    other = make_night(make_group(name="Elm Court Bunco", user=make_user("elm")))
    other.nonce = "elm-court-plan-form-0001"
    other.save(update_fields=["nonce"])
    data = {"date": "2027-01-12", "sets": "3", "nonce": other.nonce}
    response = client.post(reverse("nights:create", args=[group.slug]), data)
    assert response.status_code == 200
    assert "This form has no valid id: reload the page." in text(response)
    assert not group.nights.exists()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"date": "", "sets": "3"}, "Choose the night&#x27;s date."),
        ({"date": "someday", "sets": "3"}, "Enter a real date, like 2027-03-14."),
        ({"date": "2027-02-30", "sets": "3"}, "Enter a real date, like 2027-03-14."),
        ({"date": "2027-01-12", "time": "7 o'clock", "sets": "3"}, "Enter a time like 7:00 PM."),
        ({"date": "2027-01-12", "sets": "0"}, "A night has 1 to 12 sets."),
        ({"date": "2027-01-12", "sets": "13"}, "A night has 1 to 12 sets."),
    ],
)
def test_plan_a_night_refuses_bad_input(client, group, data, message):
    response = client.post(reverse("nights:create", args=[group.slug]), data)
    assert response.status_code == 200
    assert message in text(response)
    assert not Night.objects.exists()


@pytest.mark.parametrize("typed", ["19:30", "7:30 PM", "7:30pm", "7:30 pm", "7pm"])
def test_a_time_typed_as_people_write_it(client, group, typed):
    """A browser without a time picker sends what the host typed."""
    client.post(
        reverse("nights:create", args=[group.slug]),
        {"date": "2027-01-12", "time": typed, "sets": "3"},
    )
    hour, minute = (19, 0) if typed == "7pm" else (19, 30)
    assert Night.objects.get().time == dt.time(hour, minute)


def test_change_a_night_s_place(client, night):
    assert "Change the night" in text(client.get(nurl("edit", night)))
    response = client.post(
        nurl("save", night), {"date": "2026-12-05", "time": "", "place": "Bea's", "sets": "2"}
    )
    assert response.status_code == 302
    night.refresh_from_db()
    assert (night.place, night.sets, night.time) == ("Bea's", 2, None)


# Attendance ---------------------------------------------------------------------------------


def test_night_page_lists_everyone_with_dues_and_seating(client, night):
    page = text(client.get(night.get_absolute_url()))
    attendance = section(page, "attendance")
    assert attendance.count('class="att-row') == 12
    assert "12 playing" in attendance
    assert "Expected" in section(page, "dues") and "$60.00" in section(page, "dues")
    assert "Draw seating" in section(page, "seating")


def test_a_regular_who_sends_nobody_still_owes_and_a_ghost_takes_the_seat(client, group):
    rules_update(group=group, changes={"fill": "ghosts"})
    night = make_night(group)
    ann = att(night, "Regular 3")
    response = client.post(nurl("attendance", night, ann.pk), {"status": "absent"})
    assert response.status_code == 302
    assert response["Location"] == f"{night.get_absolute_url()}#attendance"
    ann.refresh_from_db()
    assert ann.status == Attendance.Status.ABSENT
    page = text(client.get(night.get_absolute_url()))
    row = page[page.index(f'id="att-{ann.pk}"') :]
    row = row[: row.index("</li>")]
    assert "Not coming, no substitute" in row
    assert "Ghost takes the seat" in row and "Still owes dues" in row
    assert "11 playing" in page


def test_no_ghost_is_promised_when_the_group_seats_small_tables(client, night):
    ann = att(night, "Regular 3")
    client.post(nurl("attendance", night, ann.pk), {"status": "absent"})
    page = text(client.get(night.get_absolute_url()))
    assert "Still owes dues" in page and "Ghost takes the seat" not in page


def test_send_a_substitute_from_the_list(client, night):
    ann, sub = att(night, "Regular 4"), night.group.players.get(name="Sub 1")
    response = client.post(
        nurl("attendance", night, ann.pk), {"status": "sub", "substitute": sub.pk}
    )
    assert response.status_code == 302
    ann.refresh_from_db()
    assert (ann.status, ann.substitute) == (Attendance.Status.SENT_SUB, sub)
    page = text(client.get(night.get_absolute_url()))
    assert "Sends a substitute: <strong>Sub 1</strong>" in page
    # Sub… is shown chosen, as Coming and Not coming are when they are.
    start = page.index(f'id="att-{ann.pk}"')
    row = page[start : page.index('<li class="att-row', start)]
    assert '<details class="sub-picker on">' in row and "Sends a substitute (chosen)" in row
    assert 'aria-pressed="true"' not in row  # neither Coming nor Not coming


def test_send_a_new_substitute_added_on_the_spot(client, night):
    ann = att(night, "Regular 4")
    response = client.post(
        nurl("new_substitute", night, ann.pk), {"name": "Cora New", "phone": "555-4242"}
    )
    assert response.status_code == 302
    cora = night.group.players.get(name="Cora New")
    assert (cora.kind, cora.phone) == (Player.Kind.SUBSTITUTE, "555-4242")
    ann.refresh_from_db()
    assert ann.substitute == cora


@pytest.mark.parametrize(
    ("name", "message"),
    [("  ", "Give the new substitute&#x27;s name."), ("sub 2", "sub 2 is already on the roster.")],
)
def test_a_new_substitute_needs_a_new_name(client, night, name, message):
    ann = att(night, "Regular 4")
    response = client.post(
        nurl("new_substitute", night, ann.pk), {"name": name, "phone": "555-0000"}
    )
    assert response.status_code == 200
    row = text(response)[text(response).index(f'id="att-{ann.pk}"') :]
    assert message in row[: row.index("</li>")]
    assert 'value="555-0000"' in row  # what was typed is kept
    assert att(night, "Regular 4").status == Attendance.Status.COMING


def test_someone_coming_cannot_send_a_substitute(client, night):
    ann, sub = att(night, "Regular 4"), night.group.players.get(name="Sub 1")
    response = client.post(
        nurl("attendance", night, ann.pk), {"status": "coming", "substitute": sub.pk}
    )
    assert "Only someone who is not coming sends a substitute." in text(response)
    assert att(night, "Regular 4").substitute is None


def test_a_substitute_plays_once_a_night(client, night):
    sub = night.group.players.get(name="Sub 1")
    client.post(
        nurl("attendance", night, att(night, "Regular 4").pk),
        {"status": "sub", "substitute": sub.pk},
    )
    bea = att(night, "Regular 5")
    response = client.post(
        nurl("attendance", night, bea.pk), {"status": "sub", "substitute": sub.pk}
    )
    assert response.status_code == 200
    assert "Sub 1 is already on tonight&#x27;s list." in text(response)
    assert att(night, "Regular 5").status == Attendance.Status.COMING


def test_sending_a_substitute_needs_one_picked(client, night):
    ann = att(night, "Regular 4")
    response = client.post(nurl("attendance", night, ann.pk), {"status": "sub", "substitute": ""})
    assert "Pick the substitute, or add a new one." in text(response)


def test_attendance_with_htmx_returns_the_row_and_refreshes_dues_and_seating(client, night):
    seating_draw(night=night, seed=3)
    ann = att(night, "Regular 6")
    response = client.post(nurl("attendance", night, ann.pk), {"status": "absent"}, **HX)
    page = text(response)
    assert page.lstrip().startswith(f'<li class="att-row status-absent" id="att-{ann.pk}"')
    assert "<html" not in page and "site-header" not in page
    tags = re.findall(r'<section id="(\w+)"([^>]*)>', page)
    sections = [(id_, 'hx-swap-oob="true"' in attrs) for id_, attrs in tags]
    # The row is the target; the seating changed too, so it comes out of band (the dues
    # come as the row's line and the totals: tests/nights/test_attendance_rows.py).
    assert sections == [("seating", True)]
    # Who plays changed: the seating is re-planned around the leaver (docs/rules.md section 10).
    seating = page[page.index('<section id="seating"') :]
    assert "Regular 6" not in seating and seating.count('class="seat-name"') == 11


def test_a_late_arrival_joins_the_list(client, night):
    sub = night.group.players.get(name="Sub 2")
    response = client.post(nurl("guest_add", night), {"player": sub.pk})
    assert response.status_code == 302
    guest = att(night, "Sub 2")
    assert guest.status == Attendance.Status.COMING
    page = text(client.get(night.get_absolute_url()))
    assert "13 playing" in page
    late = page[page.index('id="guest"') :]
    late = late[: late.index("</select>")]
    assert "Sub 2" not in late and "Sub 1" in late  # only people not on the list are offered


def test_a_late_arrival_already_on_the_list_is_refused(client, night):
    regular = night.group.players.get(name="Regular 1")
    response = client.post(nurl("guest_add", night), {"player": regular.pk})
    assert response.status_code == 200
    assert "Regular 1 is already on tonight&#x27;s list." in section(text(response), "attendance")
    assert night.attendances.count() == 12


def test_a_late_arrival_must_be_chosen(client, night):
    response = client.post(nurl("guest_add", night), {"player": "", "name": "  "}, **HX)
    assert "Choose who arrived, or type a new name." in text(response)
    both = {"player": night.group.players.get(name="Sub 2").pk, "name": "Zelda"}
    response = client.post(nurl("guest_add", night), both, **HX)
    assert "not both" in text(response) and night.attendances.count() == 12


def test_someone_new_at_the_door_joins_the_roster_as_a_substitute_and_plays(client, night):
    response = client.post(nurl("guest_add", night), {"player": "", "name": " Zelda Quinn "})
    assert response.status_code == 302
    zelda = night.group.players.get(name="Zelda Quinn")
    assert not zelda.is_regular and att(night, "Zelda Quinn").status == Attendance.Status.COMING
    assert "13 playing" in text(client.get(night.get_absolute_url()))
    # The same name again (any case) is someone already on the roster: said, not doubled.
    response = client.post(nurl("guest_add", night), {"name": "zelda quinn"}, **HX)
    assert "already on the roster" in text(response)
    assert night.group.players.filter(name__iexact="zelda quinn").count() == 1


def test_a_guest_added_by_mistake_is_removed(client, night):
    sub = night.group.players.get(name="Sub 2")
    client.post(nurl("guest_add", night), {"player": sub.pk})
    response = client.post(nurl("leave", night, att(night, "Sub 2").pk), **HX)
    assert response.status_code == 200
    assert not night.attendances.filter(player=sub).exists()
    assert "12 playing" in text(response)


# Dues ------------------------------------------------------------------------------------------


def test_record_dues_and_see_the_pot(client, night):
    for name in ("Regular 1", "Regular 2", "Regular 3"):
        response = client.post(nurl("pay", night, att(night, name).pk))
        assert response.status_code == 302
        assert response["Location"] == f"{night.get_absolute_url()}#dues"
    dues = section(text(client.get(night.get_absolute_url())), "dues")
    assert re.search(r"Expected</dt><dd>\$60.00", dues)
    assert re.search(r"Collected \(the pot\)</dt><dd>\$15.00", dues)
    assert re.search(r"Outstanding</dt><dd>\$45.00", dues)
    # The house prizes are shares of the pot: 42%, 33%, 17% and 8% of $15, in whole
    # dollars ($6, $4, $2, $1), the $2 left over to the first prize (docs/rules.md 7.8).
    assert "Most wins</span> <strong>$8.00" in dues
    assert "Fewest wins</span> <strong>$1.00" in dues
    assert dues.count("✓ paid") == 3


def test_pay_with_htmx_returns_the_dues_line_and_the_totals(client, night):
    ann = att(night, "Regular 1")
    response = client.post(nurl("pay", night, ann.pk), **HX)
    page = text(response)
    assert page.lstrip().startswith(f'<li class="dues-row paid" id="dues-{ann.pk}"')
    assert page.count('class="dues-row') == 1 and 'id="attendance"' not in page
    oob = re.findall(r'id="([\w-]+)"[^>]*hx-swap-oob="true"', page)
    assert oob == ["dues-version", "dues-totals", "history-count"]
    totals = page[page.index('id="dues-totals"') :]
    assert "<dt>Collected (the pot)</dt><dd>$5.00</dd>" in totals
    assert Payment.objects.get().amount_cents == 500
    assert "Take back $5.00" in page


def test_undo_a_payment_asks_first(client, night):
    payment = payment_record(attendance=att(night, "Regular 1"), amount_cents=500)
    asked = client.post(nurl("payment_undo", night, payment.pk), **HX)
    assert "Take back $5.00 paid for Regular 1?" in text(asked)
    assert Payment.objects.exists()  # not yet
    response = client.post(nurl("payment_undo", night, payment.pk), {"confirmed": "1"})
    assert response.status_code == 302
    assert not Payment.objects.exists()


def test_a_page_out_of_date_does_not_take_the_dues_twice(client, night):
    """Two tabs (or two co-hosts) show Regular 1's dues unpaid: the first tap takes them,
    the second is refused with the row as it is now. The first tap sent again (its answer
    lost on the Wi-Fi) is the same payment, not a refusal."""
    ann = att(night, "Regular 1")
    drawn = text(client.get(night.get_absolute_url()))  # both tabs, drawn before any payment
    assert 'name="last_seen" value="0"' in section(drawn, "dues")
    tap = {"nonce": nonce(), "last_seen": "0"}
    assert "✓ paid" in text(client.post(nurl("pay", night, ann.pk), tap, **HX))
    other_tab = {"nonce": nonce(), "last_seen": "0"}
    second = text(client.post(nurl("pay", night, ann.pk), other_tab, **HX))
    assert "Regular 1&#x27;s dues changed since this page was drawn" in second
    assert "✓ paid" in second
    assert Payment.objects.filter(attendance=ann).count() == 1
    retried = text(client.post(nurl("pay", night, ann.pk), tap, **HX))
    assert "changed since" not in retried
    assert Payment.objects.filter(attendance=ann).count() == 1


def test_a_payment_taken_back_in_another_tab_is_said_so(client, night):
    ann = att(night, "Regular 1")
    payment = payment_record(attendance=ann, amount_cents=500)
    form = {"confirmed": "1", "attendance": str(ann.pk)}
    client.post(nurl("payment_undo", night, payment.pk), form, **HX)
    again = client.post(nurl("payment_undo", night, payment.pk), form, **HX)
    assert again.status_code == 200
    assert "That payment is already taken back (in another tab, or by a co-host)." in text(again)
    assert "$5.00 due" in text(again)
    # Without the row it names, a payment never there is not found.
    stranger = client.post(nurl("payment_undo", night, payment.pk + 99), {"confirmed": "1"})
    assert stranger.status_code == 404


def test_a_payout_that_does_not_fit_the_pot_is_explained(client, group):
    group.prizes.update(percent=None, amount_cents=2000)
    night = make_night(group)  # a night keeps the prizes it was planned with
    payment_record(attendance=att(night, "Regular 1"), amount_cents=500)
    dues = section(text(client.get(night.get_absolute_url())), "dues")
    assert "Prizes: The prizes add up to more than the pot." in dues


# Seating --------------------------------------------------------------------------------------


def test_draw_the_seating_with_a_seed(client, night):
    response = client.post(nurl("draw", night), {"seed": "42"})
    assert response.status_code == 302
    assert response["Location"] == f"{night.get_absolute_url()}#seating"
    page = section(text(client.get(night.get_absolute_url())), "seating")
    assert '<strong class="seed-used">42</strong>' in page
    assert page.count('class="table-card') == 3
    assert "Table 1 · Head table" in page
    assert len(re.findall(r'class="seat[ "]', page)) == 12
    assert "Teams: seats 1 + 3 vs 2 + 4" in page
    assert page.count("partner: ") == 12
    first = [s.player_id for s in Round.objects.get().seats.order_by("table__number", "number")]
    client.post(nurl("draw", night), {"seed": "42"})
    again = [s.player_id for s in Round.objects.get().seats.order_by("table__number", "number")]
    assert again == first  # the same seed draws the same seating


def test_draw_with_htmx_returns_just_the_seating_and_the_history_s_count(client, night):
    response = client.post(nurl("draw", night), {"seed": ""}, **HX)
    page = text(response)
    assert page.lstrip().startswith('<section id="seating"')
    oob = re.findall(r'id="([\w-]+)"[^>]*hx-swap-oob="true"', page)
    assert "<html" not in page and oob == ["history-count"]
    assert page.count('class="table-card') == 3


def test_ghosts_are_marked_in_the_chart(client, group):
    rules_update(group=group, changes={"fill": "ghosts"})
    night = make_night(group)
    client.post(nurl("attendance", night, att(night, "Regular 7").pk), {"status": "absent"})
    client.post(nurl("draw", night), {"seed": "5"})
    page = section(text(client.get(night.get_absolute_url())), "seating")
    assert page.count('class="seat ghost') == 1
    assert "Ghost (for Regular 7)" in page


@pytest.mark.parametrize(
    ("seed", "message"),
    [("abc", "The seed is a whole number"), ("-1", "The seed is a whole number from 0 up.")],
)
def test_draw_refuses_a_bad_seed(client, night, seed, message):
    response = client.post(nurl("draw", night), {"seed": seed})
    assert message in section(text(response), "seating")
    # The refused seed stays in its box, to be mended, with htmx or without.
    box = f'<input id="seed" name="seed" inputmode="numeric" autocomplete="off" value="{seed}">'
    assert box in section(text(response), "seating")
    assert box in text(client.post(nurl("draw", night), {"seed": seed}, **HX))
    assert not night.rounds.exists()


def test_a_night_needs_two_players_to_seat(client, host):
    group = make_group(user=host, name="Tiny", regulars=2, substitutes=0)
    night = make_night(group)
    client.post(nurl("attendance", night, att(night, "Regular 1").pk), {"status": "absent"})
    response = client.post(nurl("draw", night), {"seed": "1"})
    assert response.status_code == 200
    assert "A night needs at least 2 players." in section(text(response), "seating")
    assert not Round.objects.filter(seats__isnull=False).exists()


def test_pick_a_seat_then_another_to_swap(client, night):
    seating_draw(night=night, seed=7)
    seats = list(Round.objects.get().seats.order_by("table__number", "number"))
    a, b = seats[0], seats[5]
    before = (a.player_id, b.player_id)
    page = text(client.get(f"{night.get_absolute_url()}?pick={a.pk}"))
    seating = section(page, "seating")
    assert f'name="seat_a" value="{a.pk}"' in seating
    assert f'name="seat_b" value="{b.pk}"' in seating
    fragment = text(client.get(f"{nurl('seating', night)}?pick={a.pk}", **HX))
    assert fragment.lstrip().startswith('<section id="seating"') and "seat_a" in fragment
    response = client.post(nurl("swap", night), {"seat_a": a.pk, "seat_b": b.pk}, **HX)
    assert response.status_code == 200 and "seat_a" not in text(response)
    a.refresh_from_db()
    b.refresh_from_db()
    assert (b.player_id, a.player_id) == before


def test_the_seating_link_without_htmx_goes_back_to_the_page(client, night):
    response = client.get(f"{nurl('seating', night)}?pick=3")
    assert response["Location"] == f"{night.get_absolute_url()}?pick=3#seating"


def test_two_ghosts_cannot_be_partners(client, host):
    group = make_group(user=host, name="Ghosts", regulars=6, substitutes=0, fill="ghosts")
    night = make_night(group)
    client.post(nurl("draw", night), {"seed": "1"})
    rnd = Round.objects.get()
    ghost, other = rnd.seats.filter(player__isnull=True)
    assert ghost.table != other.table  # one ghost a table (docs/rules.md section 4.2)
    partner = rnd.seats.get(table=ghost.table, number=(ghost.number + 1) % 4 + 1)
    response = client.post(nurl("swap", night), {"seat_a": other.pk, "seat_b": partner.pk})
    assert "Two ghosts cannot be partners." in section(text(response), "seating")
    assert rnd.seats.filter(player__isnull=True).count() == 2


def test_the_tv_chart_is_full_screen_without_navigation(client, night):
    seating_draw(night=night, seed=9)
    page = text(client.get(nurl("tv", night)))
    assert '<body hx-headers=\'{"X-CSRFToken"' in page and 'class="tv"' in page
    assert "site-header" not in page and "Log out" not in page
    assert page.count('class="table-card') == 3 and "Head table" in page
    fragment = text(client.get(nurl("tv", night), **HX))
    assert fragment.lstrip().startswith('<div id="tv-chart"') and "<html" not in fragment


def test_the_tv_chart_of_many_tables_comes_in_pages_none_hidden(client, host):
    """21 tables: two pages, of 11 and 10, on a TV that cannot scroll (js/pages.js shows
    one at a time and turns them); the poll brings both again. No page comes hidden: a
    TV without scripts shows them all, one under another."""
    night = make_night(make_group(user=host, regulars=84, substitutes=0))
    seating_draw(night=night, seed=9)
    for response in (client.get(nurl("tv", night)), client.get(nurl("tv", night), **HX)):
        page = text(response)
        pages = re.findall(r'<section class="tv-page" data-page="(\d)"( hidden)?>', page)
        assert pages == [("1", ""), ("2", "")]
        assert " hidden" not in page
        first, second = page.split('data-page="2"')
        assert first.count('class="table-card') == 11 and "Page 1 of 2" in first
        assert second.count('class="table-card') == 10 and "Page 2 of 2" in second
        assert "Table 21" in second and 'class="chart tv-grid tv-grid-4x3 tv-compact"' in first
    whole = text(client.get(nurl("tv", night)))
    assert 'src="/static/js/pages.js"' in whole and 'src="/static/js/fit.js"' in whole


def test_the_tv_chart_waits_for_a_draw(client, night):
    assert "The seating has not been drawn yet." in text(client.get(nurl("tv", night)))


def test_the_tv_chart_says_the_night_is_over_once_it_is(client, night):
    """Left on the TV after the host ends the night, it does not ask for a draw."""
    from bunco_night.play.services import night_finish

    start_night(night, seed=9)
    play_round(night)
    night_finish(night=night)
    for response in (client.get(nurl("tv", night)), client.get(nurl("tv", night), **HX)):
        page = text(response)
        assert "The night is over." in page and "not been drawn" not in page


# Host slips: a change that replaces or ends something asks first --------------------------


def played_round_one(night):
    """Round 1 played and closed, so round 2 is seated by the movement."""
    from tests.play.helpers import play_round, start_night

    start_night(night, seed=4)
    play_round(night)
    return night.rounds.get(number=2)


def seats_of(rnd) -> list:
    return list(rnd.seats.order_by("table__number", "number").values_list("player_id", flat=True))


def test_a_redraw_after_a_round_asks_first_then_can_be_undone(client, night):
    rnd = played_round_one(night)
    moved = seats_of(rnd)
    asked = section(text(client.post(nurl("draw", night), {"seed": "9"}, **HX)), "seating")
    assert "Draw the seating again?" in asked
    assert "seated by the movement from round 1" in asked
    assert 'name="seed" value="9"' in asked and 'name="confirmed" value="1"' in asked
    assert seats_of(rnd) == moved  # nothing drawn yet
    client.post(nurl("draw", night), {"seed": "9", "confirmed": "1"})
    drawn = seats_of(rnd)
    assert drawn != moved
    page = section(text(client.get(night.get_absolute_url())), "seating")
    assert "Undo the draw" in page
    client.post(nurl("draw_undo", night))
    assert seats_of(rnd) == moved
    assert "Undo the draw" not in section(text(client.get(night.get_absolute_url())), "seating")


def test_a_redraw_cannot_be_undone_once_the_round_started(client, night):
    from bunco_night.play.services import round_start

    rnd = played_round_one(night)
    client.post(nurl("draw", night), {"seed": "9", "confirmed": "1"})
    round_start(night=night)
    response = client.post(nurl("draw_undo", night), **HX)
    assert "A round is being played" in text(response)
    rnd.refresh_from_db()
    assert rnd.is_playing


def test_a_first_draw_can_be_undone_back_to_no_seating(client, night):
    drawn = section(text(client.post(nurl("draw", night), {"seed": "1"}, **HX)), "seating")
    assert "Seed used: <strong" in drawn
    assert "Undo the draw: back to no seating" in drawn
    undone = section(text(client.post(nurl("draw_undo", night), **HX)), "seating")
    assert "Undo the draw" not in undone and "Seed used" not in undone
    assert ">Draw seating</button>" in undone
    assert "Who plays changed since the last draw" not in undone
    assert not night.rounds.exists()
    live = text(client.get(reverse("play:live", args=[night.pk])))
    draw = reverse("play:live_draw", args=[night.pk])
    assert "No seating yet." in live and f'action="{draw}">' in live
    assert ">Draw seating</button>" in live


def test_a_first_draw_and_a_redraw_before_round_one_do_not_ask(client, night):
    client.post(nurl("draw", night), {"seed": "1"})
    response = client.post(nurl("draw", night), {"seed": "2"}, **HX)
    assert "Draw the seating again?" not in text(response)
    assert Night.objects.get(pk=night.pk).seed == 2  # the second draw happened


def night_data(night, **changes):
    data = {"date": night.date.isoformat(), "time": "19:00", "place": "", "sets": night.sets}
    return {**data, **changes}


def test_fewer_sets_that_would_end_the_night_asks_first_and_says_so(client, group):
    from bunco_night.play.services import round_start
    from tests.play.helpers import play_round, start_night

    night = make_night(group, sets=2)
    start_night(night, seed=1)
    for number in range(1, 7):
        if number > 1:
            round_start(night=night)
        play_round(night)
    asked = client.post(nurl("save", night), night_data(night, sets=1))
    page = text(asked)
    assert asked.status_code == 200 and "Change the night to 1 set?" in page
    assert "Round 7 is already seated" in page
    assert "The night ends now: round 6" in page
    night.refresh_from_db()
    assert night.sets == 2 and not night.is_over
    response = client.post(nurl("save", night), night_data(night, sets=1, confirmed="1"))
    assert response.status_code == 302
    night.refresh_from_db()
    assert night.sets == 1 and night.is_over


def test_more_sets_or_other_changes_do_not_ask(client, night):
    response = client.post(nurl("save", night), night_data(night, sets=3, place="Kay's"))
    assert response.status_code == 302


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's row locks")
@pytest.mark.django_db(transaction=True)
def test_a_payment_sent_again_while_its_first_send_is_in_flight_is_that_payment():
    """A double tap: the second send waits for the first's lock, then finds its payment,
    instead of saying that the dues changed meanwhile."""
    night = make_night(make_group(user=make_user()))
    attendance = night.attendances.order_by("pk").first()
    tap = {"attendance": attendance, "amount_cents": 500, "nonce": nonce(), "last_seen": 0}
    answers = []

    def second_send():
        try:
            answers.append(payment_record(**tap))
        except Exception as error:  # noqa: BLE001 - the test reports it
            answers.append(error)
        finally:
            connection.close()

    with held_elsewhere(lambda: payment_record(**tap), commit=True):
        sender = threading.Thread(target=second_send)
        sender.start()
        sender.join(0.5)
        assert sender.is_alive(), "the second send waits for the first one's lock"
    sender.join(10)
    assert len(answers) == 1 and isinstance(answers[0], Payment), answers
    assert Payment.objects.filter(attendance=attendance).count() == 1


def test_leaves_early_names_the_substitute_who_plays_in_a_regular_s_place(client, group):
    night = make_night(group, sets=2)
    place = att(night, "Regular 2")
    sub = group.players.get(name="Sub 1")
    attendance_set(attendance=place, status=Attendance.Status.SENT_SUB, substitute=sub)
    start_night(night)
    play_round(night)
    attendance_section = section(text(client.get(night.get_absolute_url())), "attendance")
    assert "Sub 1 leaves early</button>" in attendance_section


def _swap_in_partner_of(rnd_before, rnd, table_number):
    """Swap, in ``rnd`` (not started), the round-before partner of the player at seat 1
    of table ``table_number`` into seat 3 there, across from them; their names."""
    seat = rnd.seats.get(table__number=table_number, number=1)
    was = rnd_before.seats.get(player=seat.player)
    partner = rnd_before.seats.get(table=was.table, number=(was.number + 1) % 4 + 1)
    partner_now = rnd.seats.get(player=partner.player)
    across = rnd.seats.get(table__number=table_number, number=3)
    return seat, partner.player, across, partner_now


def test_a_swap_that_pairs_last_rounds_partners_again_is_named(client, night):
    """docs/rules.md sections 4.4 and 5.3: allowed, and the night page says so."""
    start_night(night)
    play_round(night)
    first, second = night.rounds.get(number=1), night.rounds.get(number=2)
    assert "Partners again" not in section(text(client.get(night.get_absolute_url())), "seating")

    seat, partner, across, partner_now = _swap_in_partner_of(first, second, 2)
    client.post(nurl("swap", night), {"seat_a": across.pk, "seat_b": partner_now.pk})
    seating = section(text(client.get(night.get_absolute_url())), "seating")
    assert "Partners again, as in round 1:" in seating
    assert f"<b>{seat.player.name} &amp; {partner.name}</b>" in seating

    client.post(nurl("swap", night), {"seat_a": across.pk, "seat_b": partner_now.pk})
    assert "Partners again" not in section(text(client.get(night.get_absolute_url())), "seating")


def _ladder_after_round_one(host, name, regulars):
    """A ladder night whose head-table partners stay (docs/rules.md section 5.4), round 1
    played (seat 1's side wins every table): the night, round 1 and round 2."""
    group = make_group(
        user=host,
        name=name,
        regulars=regulars,
        substitutes=0,
        movement="ladder",
        fill="ghosts",
        head_partners_stay=True,
    )
    night = make_night(group)
    start_night(night)
    play_round(night)
    return night, night.rounds.get(number=1), night.rounds.get(number=2)


def _partners_at_the_head_table(client, night, second, pair, numbers):
    """Swap ``pair`` by hand into seats ``numbers`` of table 1 in round 2: the seating
    section the night page shows then."""
    for number, player in zip(numbers, pair, strict=True):
        there = second.seats.get(table__number=1, number=number)
        now = second.seats.get(player=player)
        if now.pk != there.pk:
            client.post(nurl("swap", night), {"seat_a": now.pk, "seat_b": there.pk})
    return section(text(client.get(night.get_absolute_url())), "seating")


def test_head_table_partners_kept_by_the_rules_are_not_named(client, host):
    """docs/rules.md section 5.4: with the knob on, head-table partners stay."""
    night, first, second = _ladder_after_round_one(host, "Ladder", 8)
    head_pairs = {
        frozenset((s.player_id, second.seats.get(table=s.table, number=s.number + 2).player_id))
        for s in second.seats.filter(table__number=1, number__lte=2)
    }
    before = {
        frozenset((s.player_id, first.seats.get(table=s.table, number=s.number + 2).player_id))
        for s in first.seats.filter(number__lte=2)
    }
    assert head_pairs & before  # the rules kept a pair together at the head table
    assert "Partners again" not in section(text(client.get(night.get_absolute_url())), "seating")


def test_partners_brought_to_the_head_table_by_hand_are_named_there_too(client, host):
    """docs/rules.md sections 4.4 and 5.4: only the pairs the rules keep are not named."""
    night, first, second = _ladder_after_round_one(host, "Ladder of three", 12)
    pair = [first.seats.get(table__number=3, number=n).player for n in (1, 3)]
    seating = _partners_at_the_head_table(client, night, second, pair, (1, 3))
    assert f"<b>{pair[0].name} &amp; {pair[1].name}</b>" in seating


def test_losing_partners_put_together_again_at_the_head_table_are_named(client, host):
    """docs/rules.md section 5.4 keeps the winners together, not the losers."""
    night, first, second = _ladder_after_round_one(host, "Ladder losers", 12)
    pair = [first.seats.get(table__number=1, number=n).player for n in (2, 4)]
    assert not any(first.seats.get(player=p).won for p in pair)
    seating = _partners_at_the_head_table(client, night, second, pair, (2, 4))
    assert f"<b>{pair[0].name} &amp; {pair[1].name}</b>" in seating
