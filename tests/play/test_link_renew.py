"""A table's link is renewed (a lost phone, a link posted by mistake): the old one stops
at once, the new one works and shows on the links page and the table cards."""

import pytest
from django.urls import reverse

from bunco_night.play.services import table_link_renew
from tests.factories import make_night, make_user
from tests.play.helpers import nonce, start_night

pytestmark = pytest.mark.django_db


@pytest.fixture
def night(group):
    night = make_night(group, sets=1)
    start_night(night)
    return night


def test_the_old_link_stops_at_once_and_the_new_one_works(client, night):
    table = night.tables.get(number=2)
    old = table.token
    renewed = table_link_renew(table=table)
    assert renewed.token != old and len(renewed.token) >= 22
    assert client.get(reverse("play:table", args=[old])).status_code == 404
    assert client.get(reverse("play:table_state", args=[old])).status_code == 404
    tap = {"seat": "1", "tap": "points:1", "nonce": nonce(), "round": "1"}
    refused = client.post(
        reverse("play:table_entry", args=[old]), tap, HTTP_ACCEPT="application/json"
    )
    assert refused.status_code == 404
    assert client.get(reverse("play:table", args=[renewed.token])).status_code == 200
    done = client.post(
        reverse("play:table_entry", args=[renewed.token]), tap, HTTP_ACCEPT="application/json"
    )
    assert done.status_code == 200 and done.json()["ok"] is True


def test_the_host_renews_from_the_links_page(client, night):
    table = night.tables.get(number=1)
    old = table.token
    response = client.post(reverse("play:table_link_renew", args=[night.pk, 1]), follow=True)
    table.refresh_from_db()
    html = response.content.decode()
    assert "Table 1 has a new link" in html
    assert f"/t/{table.token}/" in html and old not in html
    assert "no-store" in response["Cache-Control"]


def test_only_the_host_renews_a_link(client, night):
    old = night.tables.get(number=1).token
    client.force_login(make_user("stranger"))
    assert client.post(reverse("play:table_link_renew", args=[night.pk, 1])).status_code == 404
    assert client.get(reverse("play:table_link_renew", args=[night.pk, 1])).status_code in (
        404,
        405,
    )
    assert night.tables.get(number=1).token == old
