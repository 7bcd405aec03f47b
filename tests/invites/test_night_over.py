"""Substitutes asked for a seat of a night that is over (docs/rules.md section 8.8): the
asking ends with the night. The host's pages say so, the substitutes' links say the night
is over with nothing to answer, and an answer sent anyway changes nothing."""

import html
import re

import pytest
from django.core import mail
from django.urls import reverse

from bunco_night.core.errors import ServiceError
from bunco_night.invites.messages import Links
from bunco_night.invites.models import SubstituteCall, SubstituteOffer
from bunco_night.invites.services import call_start, link_for, link_reset
from bunco_night.nights.models import Attendance
from bunco_night.nights.services import guest_add
from bunco_night.play.services import night_finish
from tests.factories import make_night
from tests.play.helpers import play_round, start_night

pytestmark = pytest.mark.django_db

LINKS = Links(lambda path: "http://testserver" + path)
HX = {"HTTP_HX_REQUEST": "true"}


def words(response) -> str:
    assert response.status_code == 200, response.status_code
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode())))


@pytest.fixture
def night(group):
    """Regular 4's seat asked of the substitutes in turn (Sub 1 asked, Sub 2 waiting),
    never filled; the night played one round and ended."""
    night = make_night(group, sets=1)
    call_start(attendance=night.attendances.get(player__name="Regular 4"), mode="turn", links=LINKS)
    start_night(night)
    play_round(night)
    night_finish(night=night)
    night.refresh_from_db()
    mail.outbox.clear()
    return night


def offer_of(name) -> SubstituteOffer:
    return SubstituteOffer.objects.get(player__name=name)


def test_the_host_panel_says_the_asking_closed_with_the_night(client, night):
    url = reverse("invites:answers", args=[night.pk])
    for page in (words(client.get(url)), words(client.get(url + "?embedded=1", **HX))):
        assert "Closed: the night is over" in page
        assert "Asking" not in page
        assert "Sub 1: asked, no answer" in page
        assert "Sub 2: not asked" in page and "waiting their turn" not in page


def test_the_texts_page_offers_no_text_for_a_seat_of_a_night_that_is_over(client, night):
    page = words(client.get(reverse("invites:texts", args=[night.pk]) + "?all=1"))
    assert "Can you sub" not in page
    assert offer_of("Sub 1").token not in page


@pytest.mark.parametrize("name", ["Sub 1", "Sub 2"])
def test_the_substitute_s_link_says_the_night_is_over_with_no_buttons(client, night, name):
    client.logout()
    response = client.get(reverse("invites:offer", args=[offer_of(name).token]))
    page = words(response)
    assert "This night is over: Regular 4's seat no longer needs a substitute." in page
    assert "Can you take the seat?" not in page
    assert "<form" not in response.content.decode()
    assert "Yes, I'll play" not in page and "I can't" not in page


@pytest.mark.parametrize("action", ["accept", "decline"])
def test_an_answer_for_a_night_that_is_over_is_refused_and_changes_nothing(client, night, action):
    client.logout()
    offer = offer_of("Sub 1")
    before = list(SubstituteOffer.objects.values_list("pk", "status").order_by("pk"))
    url = reverse("invites:offer_answer", args=[offer.token])
    page = words(client.post(url, {"action": action}, follow=True))
    assert "This night is over: there is nothing to answer. Thank you!" in page
    assert list(SubstituteOffer.objects.values_list("pk", "status").order_by("pk")) == before
    assert SubstituteCall.objects.get().status == SubstituteCall.Status.OPEN
    assert night.attendances.get(player__name="Regular 4").status == Attendance.Status.ABSENT
    assert mail.outbox == []  # nobody else is asked for a night that is over


def test_once_the_night_has_started_the_link_asks_nothing_but_she_keeps_her_seat(client, group):
    night = make_night(group, sets=1)
    seat = night.attendances.get(player__name="Regular 4")
    call = call_start(attendance=seat, mode="all", links=LINKS)
    taken = call.offers.get(player__name="Sub 1")
    client.post(reverse("invites:offer_answer", args=[taken.token]), {"action": "accept"})
    other = call_start(
        attendance=night.attendances.get(player__name="Regular 5"), mode="all", links=LINKS
    ).offers.get()
    start_night(night)
    client.logout()

    page = words(client.get(reverse("invites:offer", args=[other.token])))
    assert "The night has started: if you can still come, tell the host." in page
    assert "Can you take the seat?" not in page and "Yes, I'll play" not in page
    url = reverse("invites:offer_answer", args=[other.token])
    page = words(client.post(url, {"action": "accept"}, follow=True))
    assert "The night has started: if you can still come, tell the host." in page
    assert SubstituteOffer.objects.get(pk=other.pk).status == SubstituteOffer.Status.ASKED

    # Sub 1 took her seat before the start: a second tap still says so.
    url = reverse("invites:offer_answer", args=[taken.token])
    page = words(client.post(url, {"action": "accept"}, follow=True))
    assert "You have the seat. Thank you, see you there!" in page


def test_a_finished_night_s_page_leaves_the_answers_out_and_counts_who_played(client, night):
    """The answers were for before the night: the page of a night that is over leads with
    what happened (attendance: who played), not with answers still being waited for."""
    response = client.get(night.get_absolute_url())
    html = response.content.decode()
    assert reverse("invites:answers", args=[night.pk]) + "?embedded=1" not in html
    assert 'href="#answers"' not in html
    page = words(response)
    assert "Players' answers" not in page and "No answer yet" not in page
    assert "Attendance 11 played" in page


def test_the_answers_page_of_a_finished_night_is_a_record_of_the_night(client, night):
    seat = night.attendances.get(player__name="Regular 4")
    page = words(client.get(reverse("invites:answers", args=[night.pk])))
    assert "Players' answers 11 played" in page
    assert "The night is over: what each regular answered before it" in page
    assert "you can still change anything" not in page
    assert "Regular 4 · did not come" in page and "No answer sent." in page
    assert "No answer yet" not in page
    assert "Played, no answer sent: Regular 1, Regular 10," in page
    for asking in ("Send the invitation", "Send a reminder", "Ask all substitutes", "Stop asking"):
        assert asking not in page
    assert seat.status == Attendance.Status.ABSENT


def test_a_substitute_already_on_the_list_reads_it_said_to_her(client, group):
    """The host put Sub 1 on the list meanwhile (a guest): her link for Regular 4's seat
    speaks to her, "You are already on tonight's list", not of her by name."""
    night = make_night(group, sets=1)
    call = call_start(
        attendance=night.attendances.get(player__name="Regular 4"), mode="all", links=LINKS
    )
    guest_add(night=night, player=group.players.get(name="Sub 1"))
    offer = call.offers.get(player__name="Sub 1")
    client.logout()

    page = words(client.get(reverse("invites:offer", args=[offer.token])))
    assert "You are already on tonight's list: Regular 4's seat needs someone else." in page
    assert "Yes, I'll play" not in page

    url = reverse("invites:offer_answer", args=[offer.token])
    page = words(client.post(url, {"action": "accept"}, follow=True))
    assert "You are already on tonight's list" in page
    assert "Sub 1 is already" not in page
    assert night.attendances.get(player__name="Regular 4").status == Attendance.Status.ABSENT


@pytest.mark.parametrize("kind", ["invitation", "reminder"])
def test_the_send_page_of_a_finished_night_says_it_is_over_with_nothing_to_send(
    client, night, kind
):
    response = client.get(reverse("invites:send", args=[night.pk, kind]))
    page = words(response)
    assert "This night is over: there is nothing to send." in page
    assert "e-mail" not in page.replace("each player's own link", "")
    assert "<form" not in response.content.decode().split("<main", 1)[1]
    assert "Text messages to copy" not in page


def test_the_texts_page_of_a_finished_night_offers_no_invitation_and_no_new_link(client, night):
    for query in ("", "?all=1", "?kind=reminder&all=1"):
        response = client.get(reverse("invites:texts", args=[night.pk]) + query)
        page = words(response)
        assert "This night is over: there is nothing to send." in page
        assert "Coming? Answer here" not in page and "New link for" not in page
        assert "<form" not in response.content.decode().split("<main", 1)[1]


def test_the_send_page_counts_the_players_sent_to_not_the_e_mails(client, group):
    night = make_night(group, sets=1)
    url = reverse("invites:send", args=[night.pk, "invitation"])
    client.post(url)
    page = words(client.get(url))
    assert "The invitation was already sent to 12 players for this night." in page
    assert "12 times" not in page
    client.post(url)
    assert "already sent to 12 players" in words(client.get(url))


def test_a_new_link_posted_for_a_finished_night_is_refused_and_changes_nothing(client, night):
    """Its button is gone from the finished night's texts page; posted anyway, the link is
    kept and the host is told why, in the site's words."""
    regular = night.group.players.get(name="Regular 3")
    token = link_for(regular).token
    url = reverse("invites:link_new", args=[night.pk, regular.pk])
    page = words(client.post(url, follow=True))
    assert (
        "This night is over: give Regular 3 a new link from the texts page of a night to come."
        in page
    )
    assert "has a new link" not in page
    assert link_for(regular).token == token
    with pytest.raises(ServiceError) as refused:
        link_reset(player=regular, night=night)
    assert refused.value.code == "night_over"
    assert link_for(regular).token == token
