"""A substitute's offer page on a phone (docs/rules.md section 8.8): "I can't" and
"Yes, I'll play" each post to their own address and come back to the offer page,
saying what happened."""

import datetime as dt

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from bunco_night.invites.messages import Links
from bunco_night.invites.models import SubstituteOffer
from bunco_night.invites.services import call_start
from bunco_night.nights.services import night_create
from tests.browser.helpers import phone
from tests.factories import make_group

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LINKS = Links(lambda path: "http://testserver" + path)


def test_a_substitute_declines_then_accepts_on_her_phone(contexts, live_server):
    group = make_group(regulars=12, substitutes=2)
    date = timezone.localdate() + dt.timedelta(days=9)
    night = night_create(group=group, date=date, time=dt.time(19, 0), place="Kay's")
    seat = night.attendances.get(player__name="Regular 4")
    offer = call_start(attendance=seat, mode="all", links=LINKS).offers.order_by("order").first()
    url = f"{live_server.url}/sub/{offer.token}/"
    page = phone(contexts, url, width=360, height=740)

    page.get_by_role("button", name="I can't").click()
    expect(page.locator(".messages")).to_contain_text("Thank you for letting us know.")
    assert page.url == url
    assert SubstituteOffer.objects.get(pk=offer.pk).status == SubstituteOffer.Status.DECLINED
    expect(page.locator(".muted").first).to_contain_text("You said you cannot come")
    expect(page.get_by_role("button", name="I can't")).to_have_count(0)

    page.get_by_role("button", name="Yes, I'll play").click()
    expect(page.locator(".messages")).to_contain_text("You have the seat.")
    expect(page.locator(".now")).to_contain_text("You take Regular 4's seat.")
    assert page.url == url
    assert SubstituteOffer.objects.get(pk=offer.pk).status == SubstituteOffer.Status.ACCEPTED
