"""A substitute's offer page (docs/rules.md section 8.8): accepting and declining each
post to their own address and come back to the offer page saying what happened; the
one address they had before still answers a page drawn before (its ``action`` names
the answer)."""

import datetime as dt
import re

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse
from django.utils import timezone

from bunco_night.invites.messages import Links
from bunco_night.invites.models import SubstituteOffer
from bunco_night.invites.services import call_start
from bunco_night.nights.services import night_create
from bunco_night.play.services import night_finish
from tests.play.helpers import play_round, start_night

pytestmark = pytest.mark.django_db

LINKS = Links(lambda path: "http://testserver" + path)


@pytest.fixture
def night(group):
    date = timezone.localdate() + dt.timedelta(days=9)
    return night_create(group=group, date=date, time=dt.time(19, 0), place="Kay's")


@pytest.fixture
def offers(client, night):
    """Regular 4's seat asked of both substitutes at once; nobody logged in."""
    client.logout()
    call = call_start(
        attendance=night.attendances.get(player__name="Regular 4"), mode="all", links=LINKS
    )
    return list(call.offers.order_by("order"))


def url(name, offer):
    return reverse(f"invites:offer_{name}", args=[offer.token])


def page(offer):
    return reverse("invites:offer", args=[offer.token])


def said(response) -> str:
    return [str(m) for m in get_messages(response.wsgi_request)][-1]


def status(offer):
    return SubstituteOffer.objects.get(pk=offer.pk).status


def test_the_offer_page_s_buttons_post_to_their_own_addresses(client, offers):
    html = client.get(page(offers[0])).content.decode()
    form = re.search(r'<form method="post"([^>]*)>(.*?)</form>', html, re.S)
    assert f'action="{url("accept", offers[0])}"' in form[1]
    buttons = re.findall(r"<button[^>]*>[^<]*</button>", form[2])
    assert len(buttons) == 2 and not any('name="action"' in b for b in buttons)
    assert "Yes, I'll play" in buttons[0] and "formaction" not in buttons[0]
    assert f'formaction="{url("decline", offers[0])}"' in buttons[1] and "I can't" in buttons[1]


def test_a_substitute_accepts_at_its_address_and_the_other_finds_the_seat_taken(client, offers):
    first, second = offers
    response = client.post(url("accept", first))
    assert response.status_code == 302 and response.url == page(first)
    assert said(response) == "You have the seat. Thank you, see you there!"
    assert status(first) == SubstituteOffer.Status.ACCEPTED
    response = client.post(url("accept", second))
    assert response.url == page(second) and said(response) == (
        "Thank you! Someone else has already taken the seat."
    )
    assert status(second) != SubstituteOffer.Status.ACCEPTED


def test_a_substitute_declines_at_its_address(client, offers):
    response = client.post(url("decline", offers[0]))
    assert response.status_code == 302 and response.url == page(offers[0])
    assert said(response) == "Thank you for letting us know."
    assert status(offers[0]) == SubstituteOffer.Status.DECLINED
    # She changed her mind: she can still accept.
    assert (
        said(client.post(url("accept", offers[0])))
        == "You have the seat. Thank you, see you there!"
    )


def test_the_old_address_still_takes_a_page_drawn_before(client, offers):
    first, second = offers
    old = reverse("invites:offer_answer", args=[second.token])
    response = client.post(old, {"action": "decline"})
    assert response.url == page(second) and said(response) == "Thank you for letting us know."
    assert status(second) == SubstituteOffer.Status.DECLINED
    response = client.post(old, {"action": "maybe"})
    assert response.url == page(second) and said(response) == "Tap Accept or Decline."
    old = reverse("invites:offer_answer", args=[first.token])
    response = client.post(old, {"action": "accept"})
    assert said(response) == "You have the seat. Thank you, see you there!"
    assert status(first) == SubstituteOffer.Status.ACCEPTED


def test_the_answers_are_posts_to_a_link_that_exists(client, offers):
    for name in ("accept", "decline"):
        assert client.get(url(name, offers[0])).status_code == 405
        unknown = reverse(f"invites:offer_{name}", args=["no-such-offer-token"])
        assert client.post(unknown).status_code == 404
    assert status(offers[0]) == SubstituteOffer.Status.ASKED


@pytest.mark.parametrize("name", ["accept", "decline"])
def test_an_answer_at_its_address_for_a_night_that_is_over_changes_nothing(client, offers, name):
    night = offers[0].call.attendance.night
    start_night(night)
    play_round(night)
    night_finish(night=night)
    response = client.post(url(name, offers[0]))
    assert response.url == page(offers[0])
    assert said(response) == "This night is over: there is nothing to answer. Thank you!"
    assert status(offers[0]) == SubstituteOffer.Status.ASKED
