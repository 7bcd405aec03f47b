"""Phone links use the site's public address, whatever address the host's browser is on.

The host often runs the night from the laptop that serves it, at 127.0.0.1, which no phone
can reach. Table and player links, their QR codes on screen and on the printed cards, and
the links in players' e-mails use ``PUBLIC_URL`` (``DJANGO_PUBLIC_URL``); without one, the
links and print pages say in plain words that phones cannot open them.
"""

import pytest
from django.test import override_settings
from django.urls import reverse

from bunco_night.core.address import is_loopback, reachable_url
from bunco_night.core.links import unreachable_host
from bunco_night.invites.messages import site_links
from tests.factories import make_night
from tests.play.helpers import start_night

from .helpers import get_pdf
from .pdftools import qr_codes

pytestmark = pytest.mark.django_db

WIFI = "http://192.168.1.20:8000"
WARNING = "Phones can't open these links yet"


@pytest.fixture
def seated(group):
    night = make_night(group, sets=1)
    start_night(night)
    return night


@pytest.fixture
def laptop(client):
    """The host's browser on the laptop that serves the night."""
    client.defaults["HTTP_HOST"] = "127.0.0.1:8000"
    return client


@override_settings(PUBLIC_URL=WIFI + "/")
def test_links_and_table_card_qr_codes_use_the_public_address(laptop, seated):
    html = laptop.get(reverse("play:links", args=[seated.pk])).content.decode()
    for table in seated.tables.filter(active=True):
        assert f'href="{WIFI}/t/{table.token}/"' in html
    for a in seated.attendances.all():
        assert f'href="{WIFI}/p/{a.token}/"' in html
    assert "127.0.0.1" not in html and WARNING not in html
    pdf = get_pdf(laptop, seated, "table_cards")
    tables = seated.tables.filter(active=True).order_by("number")
    assert qr_codes(pdf) == [[f"{WIFI}/t/{t.token}/"] for t in tables]
    print_page = laptop.get(reverse("printing:index", args=[seated.pk])).content.decode()
    assert WARNING not in print_page


@override_settings(PUBLIC_URL="https://example.org/bunco")
def test_a_public_address_with_a_path_keeps_it_on_screen_and_on_paper(laptop, seated):
    """A site behind a proxy under a path: the printed QR codes open what the links page
    links, path included."""
    table = seated.tables.get(number=1)
    link = f"https://example.org/bunco/t/{table.token}/"
    html = laptop.get(reverse("play:links", args=[seated.pk])).content.decode()
    assert f'href="{link}"' in html
    assert qr_codes(get_pdf(laptop, seated, "table_cards"))[0] == [link]


@override_settings(PUBLIC_URL="")
def test_without_a_public_address_a_laptop_host_is_warned_before_printing(laptop, seated):
    for name in ("play:links", "printing:index"):
        html = laptop.get(reverse(name, args=[seated.pk])).content.decode()
        assert WARNING in html and "<b>127.0.0.1</b>" in html, name
        assert "DJANGO_PUBLIC_URL" in html


@override_settings(PUBLIC_URL="", ALLOWED_HOSTS=["192.168.1.20"])
def test_a_host_on_the_wifi_address_gets_working_links_and_no_warning(client, host, seated):
    client.defaults["HTTP_HOST"] = "192.168.1.20:8000"
    html = client.get(reverse("play:links", args=[seated.pk])).content.decode()
    table = seated.tables.get(number=1)
    assert f'href="{WIFI}/t/{table.token}/"' in html and WARNING not in html


@pytest.mark.parametrize(
    "host, loopback",
    [
        ("127.0.0.1", True),
        ("127.1.2.3", True),
        ("localhost", True),
        ("LOCALHOST", True),
        ("app.localhost", True),
        ("[::1]", True),
        ("::1", True),
        ("192.168.1.20", False),
        ("10.0.0.5", False),
        ("bunco.example.com", False),
        ("localhost.example.com", False),
        ("", False),
    ],
)
def test_loopback_addresses(host, loopback):
    assert is_loopback(host) is loopback


@override_settings(PUBLIC_URL="", SITE_URL="https://bunco.example.com/")
def test_without_a_request_links_use_the_site_address():
    assert site_links().absolute("/t/abc/") == "https://bunco.example.com/t/abc/"


def test_unreachable_reads_the_public_address_first(rf):
    request = rf.get("/", HTTP_HOST="127.0.0.1:8000")
    with override_settings(PUBLIC_URL="http://localhost:8000"):
        assert unreachable_host(request) == "localhost"
    with override_settings(PUBLIC_URL="https://bunco.example.com"):
        assert unreachable_host(request) is None


@pytest.mark.parametrize(
    "host, found, url",
    [
        ("0.0.0.0", "192.168.1.20", "http://192.168.1.20:8000"),
        ("::", "192.168.1.20", "http://192.168.1.20:8000"),
        ("0.0.0.0", None, ""),  # no network: no address to give phones
        ("127.0.0.1", "192.168.1.20", ""),  # listening on this computer only
        ("localhost", "192.168.1.20", ""),
        ("10.0.0.7", "192.168.1.20", "http://10.0.0.7:8000"),
        ("fe80::1", None, "http://[fe80::1]:8000"),
    ],
)
def test_make_run_finds_the_address_phones_can_reach(host, found, url):
    assert reachable_url(host, 8000, find=lambda: found) == url
