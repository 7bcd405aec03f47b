"""An address that only takes a form, opened as a page (a reload after a refused form, a
bookmark), says so with a link to the page above it, instead of an empty 405."""

import pytest
from django.urls import reverse

from tests.factories import make_night
from tests.play.helpers import start_night

pytestmark = pytest.mark.django_db


def test_the_roster_s_add_address_opened_as_a_page_leads_back_to_the_roster(client, group):
    response = client.get(reverse("groups:player_create", args=[group.slug]))
    assert response.status_code == 405
    assert response["Allow"] == "POST"
    page = response.content.decode()
    assert "This address takes a form sent from a page" in page
    assert f'href="/groups/{group.slug}/roster/"' in page


def test_the_link_goes_to_the_nearest_page_the_site_has(client, group):
    night = make_night(group)
    attendance = night.attendances.first()
    url = reverse("nights:attendance", args=[night.pk, attendance.pk])
    page = client.get(url).content.decode()
    assert f'href="/nights/{night.pk}/"' in page  # /nights/<pk>/attendance/ is no page


def test_a_table_phone_s_tap_address_leads_back_to_the_table(client, group):
    night = make_night(group)
    start_night(night)
    table = night.tables.get(number=1)
    page = client.get(reverse("play:table_entry", args=[table.token])).content.decode()
    assert f'href="/t/{table.token}/"' in page


def test_htmx_and_other_methods_keep_the_bare_answer(client, group):
    url = reverse("groups:player_create", args=[group.slug])
    htmx = client.get(url, HTTP_HX_REQUEST="true")
    assert htmx.status_code == 405 and htmx.content == b""
    put = client.put(url)
    assert put.status_code == 405 and put.content == b""
