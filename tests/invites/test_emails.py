"""Invitations, reminders and substitute offers by e-mail (Django's locmem backend in
tests): each with the player's own link and the night as an .ics calendar invite."""

import datetime as dt
import re
import smtplib
from zoneinfo import ZoneInfo

import pytest
from django.conf import settings as site_settings
from django.core import mail
from django.core.mail.backends.locmem import EmailBackend
from django.utils import timezone

from bunco_night.groups.services import player_update
from bunco_night.invites.ical import escape_text, fold, night_event
from bunco_night.invites.messages import Links
from bunco_night.invites.models import Notice, PlayerLink, SubstituteCall
from bunco_night.invites.services import answer_record, invitations_send, offer_accept
from bunco_night.nights.models import Attendance
from bunco_night.nights.services import attendance_set, night_create
from tests.factories import make_group

pytestmark = pytest.mark.django_db

SITE = "https://bunco.example.com"
LINKS = Links(lambda path: SITE + path)


@pytest.fixture
def group():
    group = make_group(regulars=6, substitutes=2)
    player_update(player=group.players.get(name="Regular 6"), email="")
    player_update(player=group.players.get(name="Sub 1"), email="sub1@example.com")
    return group


@pytest.fixture
def night(group):
    date = timezone.localdate() + dt.timedelta(days=12)
    return night_create(
        group=group, date=date, time=dt.time(19, 0), place="Kay's; 12 Elm St, Apt 3"
    )


def link_of(group, name):
    return f"{SITE}/me/{PlayerLink.objects.get(player__name=name).token}/"


def calendar(message):
    ((filename, content, mimetype),) = message.attachments
    assert (filename, mimetype) == ("bunco-night.ics", "text/calendar")
    return content


def unfold(ics):
    return ics.replace("\r\n ", "")


def test_the_invitation_goes_to_every_regular_with_her_own_link_and_a_calendar_invite(group, night):
    report = invitations_send(night=night, kind=Notice.Kind.INVITATION, links=LINKS)
    assert [p.name for p in report.no_email] == ["Regular 6"]
    assert len(report.sent) == 5 and len(mail.outbox) == 5
    for message in mail.outbox:
        (to,) = message.to
        name = group.players.get(email=to).name
        mine = link_of(group, name)
        assert mine in message.body
        others = [link_of(group, f"Regular {i}") for i in range(1, 6) if f"Regular {i}" != name]
        assert not any(link in message.body for link in others)
        assert message.subject.startswith("Bunco on ")
        ics = calendar(message)
        assert f"URL:{mine}" in unfold(ics)
    assert Notice.objects.filter(kind="invitation", ok=True).count() == 5


def test_the_calendar_invite_has_the_time_the_place_and_the_link(group, night):
    invitations_send(night=night, kind=Notice.Kind.INVITATION, links=LINKS)
    ics = calendar(mail.outbox[0])
    assert ics.startswith("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n") and ics.endswith(
        "END:VCALENDAR\r\n"
    )
    assert "\n" not in ics.replace("\r\n", "")  # CRLF line endings only
    assert all(len(line.encode()) <= 75 for line in ics.split("\r\n"))
    lines = unfold(ics).split("\r\n")
    # 7:00 PM in the site's time zone, written in UTC.
    zone = ZoneInfo(site_settings.TIME_ZONE)
    start = dt.datetime.combine(night.date, dt.time(19, 0), tzinfo=zone)
    utc = start.astimezone(dt.UTC)
    assert f"DTSTART:{utc:%Y%m%dT%H%M%SZ}" in lines
    assert f"DTEND:{utc + dt.timedelta(hours=3):%Y%m%dT%H%M%SZ}" in lines
    assert "LOCATION:Kay's\\; 12 Elm St\\, Apt 3" in lines
    assert "SUMMARY:Bunco: Maple Street" in lines
    assert any(line.startswith(f"UID:night-{night.pk}@") for line in lines)
    assert any(line.startswith("DESCRIPTION:Coming? Answer here: https://") for line in lines)


def test_a_night_without_a_time_is_a_whole_day_on_the_calendar(night):
    night.time = None
    ics = unfold(night_event(night, url="https://x.example/me/abc/"))
    assert f"DTSTART;VALUE=DATE:{night.date:%Y%m%d}" in ics
    assert f"DTEND;VALUE=DATE:{night.date + dt.timedelta(days=1):%Y%m%d}" in ics


@pytest.mark.parametrize(
    ("raw", "escaped"),
    [
        ("Kay's, 12 Elm", "Kay's\\, 12 Elm"),
        ("a;b", "a\\;b"),
        ("c:\\d", "c:\\\\d"),
        ("1\n2", "1\\n2"),
    ],
)
def test_calendar_text_is_escaped(raw, escaped):
    assert escape_text(raw) == escaped


def test_long_lines_fold_at_75_octets_without_splitting_a_character():
    line = "DESCRIPTION:" + "é" * 100
    folded = fold(line)
    pieces = folded.split("\r\n ")
    assert all(len(p.encode()) <= 75 for p in pieces)
    assert "".join(pieces) == line


def test_the_reminder_says_where_each_player_stands_and_reaches_the_substitutes_playing(
    group, night
):
    attendance_set(
        attendance=night.attendances.get(player__name="Regular 2"),
        status=Attendance.Status.SENT_SUB,
        substitute=group.players.get(name="Sub 1"),
    )
    invitations_send(night=night, kind=Notice.Kind.REMINDER, links=LINKS)
    by_to = {m.to[0]: m for m in mail.outbox}
    assert "regular2@example.com" not in by_to  # not playing: no reminder
    assert "You are down as: coming." in by_to["regular1@example.com"].body
    assert link_of(group, "Sub 1") in by_to["sub1@example.com"].body
    assert by_to["regular1@example.com"].subject.startswith("Reminder: Bunco on")


def test_substitutes_hear_of_the_seat_and_then_that_it_is_filled(
    group, night, django_capture_on_commit_callbacks
):
    player_update(player=group.players.get(name="Sub 2"), email="sub2@example.com")
    with django_capture_on_commit_callbacks(execute=True):
        answer_record(
            player=group.players.get(name="Regular 1"), night=night, choice="ask", links=LINKS
        )
    offers = {o.player.name: o for o in SubstituteCall.objects.get().offers.all()}
    assert sorted(m.to[0] for m in mail.outbox) == ["sub1@example.com", "sub2@example.com"]
    for message in mail.outbox:
        name = "Sub 1" if message.to == ["sub1@example.com"] else "Sub 2"
        assert f"{SITE}/sub/{offers[name].token}/" in message.body
        assert "Regular 1 cannot come" in message.body
        assert "BEGIN:VEVENT" in calendar(message)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        offer_accept(offer=offers["Sub 2"], links=LINKS)
    by_to = {m.to[0]: m for m in mail.outbox}
    assert set(by_to) == {"sub1@example.com", "regular1@example.com"}
    assert "Sub 2 takes Regular 1's seat" in by_to["sub1@example.com"].body
    assert by_to["regular1@example.com"].subject.startswith("Sub 2 takes your seat")
    assert link_of(group, "Regular 1") in by_to["regular1@example.com"].body


class RefusingBackend(EmailBackend):
    """A mail server that refuses one address."""

    def send_messages(self, messages):
        if any("regular3@" in m.to[0] for m in messages):
            raise smtplib.SMTPRecipientsRefused({"regular3@example.com": (550, b"no")})
        return super().send_messages(messages)


def test_a_refused_address_is_reported_and_the_rest_still_go(group, night, settings):
    settings.EMAIL_BACKEND = f"{__name__}.RefusingBackend"
    report = invitations_send(night=night, kind=Notice.Kind.INVITATION, links=LINKS)
    assert [p.name for p in report.failed] == ["Regular 3"]
    assert len(report.sent) == 4 and len(mail.outbox) == 4
    assert Notice.objects.filter(ok=False).get().player.name == "Regular 3"


def test_no_e_mail_names_another_player_s_link(group, night):
    invitations_send(night=night, kind=Notice.Kind.INVITATION, links=LINKS)
    tokens = set(PlayerLink.objects.values_list("token", flat=True))
    for message in mail.outbox:
        found = set(re.findall(r"/me/([\w-]+)/", message.body))
        assert len(found) == 1 and found <= tokens


def test_the_daily_reminder_goes_once_to_the_nights_three_days_away(group, capsys):
    from django.core.management import call_command

    soon = night_create(group=group, date=timezone.localdate() + dt.timedelta(days=3))
    night_create(group=group, date=timezone.localdate() + dt.timedelta(days=4))
    call_command("send_reminders")
    assert len(mail.outbox) == 5 and {m.subject.split(":")[0] for m in mail.outbox} == {"Reminder"}
    assert "5 sent, 0 failed, 1 without e-mail." in capsys.readouterr().out
    assert all(f"{soon.pk}@" in calendar(m) for m in mail.outbox)
    call_command("send_reminders")
    assert len(mail.outbox) == 5
