"""Players' own pages, substitutes' offer pages, and the host's answers panel,
invitations and text messages."""

import datetime as dt
import re

import pytest
from django.core import mail
from django.urls import get_resolver, reverse
from django.utils import timezone

from bunco_night.groups.services import hosting_turn_set, player_update, season_create
from bunco_night.invites.messages import Links
from bunco_night.invites.models import Answer, SubstituteCall, SubstituteOffer
from bunco_night.invites.services import call_start, link_for
from bunco_night.nights.models import Attendance
from bunco_night.nights.services import night_create
from tests.factories import make_user

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}
LINKS = Links(lambda path: "http://testserver" + path)


def text(response) -> str:
    assert response.status_code == 200, response.status_code
    return response.content.decode()


@pytest.fixture
def night(group):
    date = timezone.localdate() + dt.timedelta(days=9)
    return night_create(group=group, date=date, time=dt.time(19, 0), place="Kay's")


def att(night, name):
    return night.attendances.get(player__name=name)


def mine_url(group, name):
    return reverse("invites:mine", args=[link_for(group.players.get(name=name)).token])


# A player's own page -----------------------------------------------------------------


def test_her_own_page_shows_the_next_night_and_the_rotation_without_anyone_s_contacts(
    client, group, night
):
    client.logout()
    today = timezone.localdate()
    season = season_create(
        group=group,
        name="Now",
        starts=today - dt.timedelta(days=30),
        ends=today + dt.timedelta(days=300),
    )
    ann = group.players.get(name="Regular 1")
    hosting_turn_set(season=season, month=night.date, host=ann, brings="Bea: dessert")
    page = text(client.get(mine_url(group, "Regular 1")))
    assert "Hi Regular 1!" in page
    assert night.date.strftime("%A, %B") in page and "7:00 PM" in page and "Kay&#x27;s" in page
    assert "Not answered yet." in page
    assert "Your turn to host:" in page and "Bringing: Bea: dessert" in page
    private = [p.phone for p in group.players.all()] + [p.email for p in group.players.all()]
    assert [v for v in private if v and v in page] == []
    assert "style=" not in page and "onclick" not in page


def test_before_she_answers_her_page_says_so_and_highlights_no_answer(client, group, night):
    """The host's list has every regular as coming; that is not her answer: her page says
    she has not answered, and neither "I'm coming" nor "I can't come" is highlighted, until
    she answers."""
    client.logout()
    url = mine_url(group, "Regular 1")
    page = text(client.get(url))
    assert "Not answered yet." in page
    assert "Until you answer, the host has you down as coming." in page
    assert "You are down as" not in page and 'aria-pressed="true"' not in page
    # The two answers look alike: neither is filled in as if chosen.
    assert page.count('<button type="submit" name="choice" value="coming" class="secondary">') == 1
    assert page.count('name="choice" value="absent" class="secondary">') == 1
    answer_url = reverse("invites:mine_answer", args=[url.split("/")[2], night.pk])
    page = text(client.post(answer_url, {"choice": "coming"}, follow=True))
    assert "You are down as: coming ✓" in page and "Not answered yet." not in page
    coming = page[: page.index("I'm coming</button>")]
    assert coming.rsplit("<button", 1)[1].count('aria-pressed="true"') == 1


def test_an_unknown_link_is_a_404(client):
    assert client.get(reverse("invites:mine", args=["not-a-real-token-123"])).status_code == 404
    assert client.get(reverse("invites:offer", args=["not-a-real-token-123"])).status_code == 404


@pytest.mark.parametrize(
    ("data", "status"),
    [
        ({"choice": "absent", "note": "Out of town"}, Attendance.Status.ABSENT),
        ({"choice": "coming"}, Attendance.Status.COMING),
        (
            {"choice": "sub", "new_name": "Walk In", "new_phone": "555-8888"},
            Attendance.Status.SENT_SUB,
        ),
    ],
)
def test_she_answers_from_her_phone(client, group, night, data, status):
    client.logout()
    url = mine_url(group, "Regular 1")
    answer_url = reverse("invites:mine_answer", args=[url.split("/")[2], night.pk])
    response = client.post(answer_url, data, follow=True)
    page = text(response)
    assert "Thank you! Your answer for" in page
    assert att(night, "Regular 1").status == status
    if data.get("note"):
        assert Answer.objects.get().note == "Out of town"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"choice": "sub"}, "Pick your substitute, or give the name of someone new."),
        ({"choice": "sub", "substitute": "999999"}, "Pick a substitute from the list."),
        ({"choice": "sub", "new_name": "Bo", "new_email": "bo@"}, "Enter an e-mail address"),
        ({"choice": "sub", "new_name": "Regular 2"}, "Regular 2 is already on the roster."),
        ({"choice": "dance"}, "Choose coming, not coming, or a substitute."),
        ({"note": "x" * 400, "choice": "coming"}, "Keep the note under 300 characters."),
    ],
)
def test_a_wrong_answer_is_a_clear_message_on_her_page(client, group, night, data, message):
    client.logout()
    token = link_for(group.players.get(name="Regular 1")).token
    page = text(client.post(reverse("invites:mine_answer", args=[token, night.pk]), data))
    assert message in page
    assert att(night, "Regular 1").is_coming and not Answer.objects.exists()


def test_another_group_s_night_is_not_hers(client, group, night):
    other = night_create(group=make_other_group(), date=night.date)
    token = link_for(group.players.get(name="Regular 1")).token
    response = client.post(
        reverse("invites:mine_answer", args=[token, other.pk]), {"choice": "absent"}
    )
    assert response.status_code == 404


def make_other_group():
    from tests.factories import make_group

    return make_group(user=make_user("other"), name="Elsewhere", regulars=4)


def test_her_night_as_a_calendar_file(client, group, night):
    token = link_for(group.players.get(name="Regular 1")).token
    response = client.get(reverse("invites:mine_calendar", args=[token, night.pk]))
    assert response["Content-Type"] == "text/calendar"
    assert "attachment" in response["Content-Disposition"]
    assert b"BEGIN:VEVENT" in response.content and token.encode() in response.content.replace(
        b"\r\n ", b""
    )


# A substitute's offer page -----------------------------------------------------------


def test_a_substitute_accepts_from_the_offer_page_and_the_other_sees_it_filled(
    client, group, night
):
    client.logout()
    call = call_start(attendance=att(night, "Regular 4"), mode="all", links=LINKS)
    first, second = call.offers.all()
    page = text(client.get(reverse("invites:offer", args=[first.token])))
    assert "Regular 4 cannot come. Can you take the seat?" in page
    page = text(
        client.post(
            reverse("invites:offer_answer", args=[first.token]), {"action": "accept"}, follow=True
        )
    )
    assert "You have the seat." in page and "take Regular 4" in page
    assert att(night, "Regular 4").substitute == first.player
    page = text(
        client.post(
            reverse("invites:offer_answer", args=[second.token]), {"action": "accept"}, follow=True
        )
    )
    assert "Someone else has already taken the seat." in page
    assert f"{first.player.name} took Regular 4" in page


def test_a_substitute_declines(client, group, night):
    call = call_start(attendance=att(night, "Regular 4"), mode="turn", links=LINKS)
    first = call.offers.first()
    page = text(
        client.post(
            reverse("invites:offer_answer", args=[first.token]), {"action": "decline"}, follow=True
        )
    )
    assert "Thank you for letting us know." in page
    assert call.offers.filter(status=SubstituteOffer.Status.ASKED).get().order == 1
    bad = client.post(reverse("invites:offer_answer", args=[first.token]), {"action": "maybe"})
    assert bad.status_code == 302


# The host's answers panel -------------------------------------------------------------


def test_the_night_page_loads_the_answers_panel(client, night):
    page = text(client.get(night.get_absolute_url()))
    url = reverse("invites:answers", args=[night.pk])
    assert f'hx-get="{url}?embedded=1" hx-trigger="load"' in page
    assert page.count('class="night-version"') == 3


def test_the_panel_answers_204_until_something_changes_then_brings_the_sections(
    client, group, night
):
    url = reverse("invites:answers", args=[night.pk]) + "?embedded=1"
    first = client.get(url, **HX)
    assert first.status_code == 200
    # The first load brings the panel alone: the page's sections were just drawn.
    assert "hx-swap-oob" not in first.content.decode()
    version = re.search(r'class="night-version" name="v" value="(\d+)"', first.content.decode())[1]
    assert client.get(f"{url}&v={version}&v=1", **HX).status_code == 204
    token = link_for(group.players.get(name="Regular 2")).token
    client.post(
        reverse("invites:mine_answer", args=[token, night.pk]),
        {"choice": "absent", "note": "Sick kid"},
    )
    changed = client.get(f"{url}&v={version}", **HX)
    page = text(changed)
    assert "“Sick kid”" in page
    # The night page's own sections, and the history's count, come along out of band.
    for section in ("attendance", "dues", "seating"):
        assert f'<section id="{section}"' in page
    assert page.count('hx-swap-oob="true"') == 4 and 'id="history-count"' in page


def test_the_host_asks_the_substitutes_from_the_panel(client, group, night):
    a = att(night, "Regular 3")
    url = reverse("invites:call_start", args=[night.pk, a.pk])
    page = text(client.post(url, {"mode": "turn", "embedded": "1"}, **HX))
    assert (
        "asked in turn" in page and "Sub 1: asked" in page and "Sub 2: waiting their turn" in page
    )
    call = SubstituteCall.objects.get()
    page = text(
        client.post(reverse("invites:call_next", args=[night.pk, call.pk]), {"embedded": "1"}, **HX)
    )
    assert "Sub 2: asked" in page
    text(client.post(reverse("invites:call_stop", args=[night.pk, call.pk]), **HX))
    call.refresh_from_db()
    assert call.status == SubstituteCall.Status.STOPPED
    page = text(client.post(url, {"mode": "sometimes"}, **HX))
    assert "Choose all at once or one at a time." in page


def test_a_panel_s_post_without_javascript_comes_back_where_it_was_sent_from(client, night):
    """Only ``embedded`` 1 is the night page's panel: back to it, at the panel."""
    mode = reverse("invites:ask_mode", args=[night.pk])
    response = client.post(mode, {"mode": "turn", "embedded": "1"})
    assert response.url == f"{night.get_absolute_url()}#answers"
    for data in ({"mode": "all"}, {"mode": "turn", "embedded": "yes"}):
        assert client.post(mode, data).url == reverse("invites:answers", args=[night.pk])
    panel = reverse("invites:answers", args=[night.pk])
    assert '<section id="attendance"' not in text(client.get(panel + "?embedded=2&v=0", **HX))
    assert '<section id="attendance"' in text(client.get(panel + "?embedded=1&v=0", **HX))


def test_the_invitation_is_sent_only_after_the_host_confirms(client, group, night):
    player_update(player=group.players.get(name="Regular 12"), email="")
    url = reverse("invites:send", args=[night.pk, "invitation"])
    page = text(client.get(url))
    assert "Send 11 e-mails" in page and "Regular 12" in page
    assert mail.outbox == []
    response = client.post(url)
    assert response.status_code == 302
    assert response["Location"] == reverse("invites:texts", args=[night.pk]) + "?kind=invitation"
    assert len(mail.outbox) == 11
    page = text(client.get(response["Location"]))
    assert "Regular 12" in page
    token = link_for(group.players.get(name="Regular 12")).token
    assert f"http://testserver/me/{token}/" in page
    assert 'data-copy="msg-1" hidden' in page and "js/copy.js" in page
    assert "sms:555-0112?&amp;body=" in page
    assert "onclick" not in page and "style=" not in page
    assert client.get(reverse("invites:send", args=[night.pk, "spam"])).status_code == 302
    # A link that went astray is replaced; the old one stops working.
    regular = group.players.get(name="Regular 12")
    client.post(reverse("invites:link_new", args=[night.pk, regular.pk]))
    assert client.get(f"/me/{token}/").status_code == 404
    assert link_for(regular).token != token


def test_the_texts_page_lists_the_substitutes_asked(client, group, night):
    call_start(attendance=att(night, "Regular 3"), mode="all", links=LINKS)
    page = text(client.get(reverse("invites:texts", args=[night.pk])))
    assert "Can you sub for Regular 3" in page
    for offer in SubstituteOffer.objects.all():
        assert f"/sub/{offer.token}/" in page


def invite_urls(night, group):
    attendance = att(night, "Regular 1")
    call = call_start(attendance=attendance, mode="all", links=LINKS)
    values = {
        "pk": night.pk,
        "attendance_pk": attendance.pk,
        "call_pk": call.pk,
        "kind": "invitation",
        "player_pk": attendance.player_id,
    }
    resolver = get_resolver().namespace_dict["invites"][1]
    urls = []
    for pattern in resolver.url_patterns:
        names = re.findall(r"<(?:\w+:)?(\w+)>", str(pattern.pattern))
        if "token" in names:
            continue
        urls.append(reverse(f"invites:{pattern.name}", kwargs={n: values[n] for n in names}))
    return urls


def test_the_host_pages_are_for_the_group_s_hosts_only(client, group, night):
    urls = invite_urls(night, group)
    assert len(urls) == 8
    client.force_login(make_user("stranger"))
    for address in urls:
        response = client.get(address)
        if response.status_code == 405:
            response = client.post(address, {"mode": "all"})
        assert response.status_code == 404, address
    client.logout()
    for address in urls:
        response = client.get(address)
        if response.status_code == 405:
            response = client.post(address, {"mode": "all"})
        assert response.status_code == 302, address
        assert response["Location"].startswith(reverse("login")), address
    assert mail.outbox == []
