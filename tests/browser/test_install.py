"""A phone can add Bunco Night to its home screen: the manifest and its icons are served
and valid, and Chromium reads the manifest without a complaint."""

import io
import json
from urllib.parse import urljoin

import pytest
from PIL import Image

from bunco_night.nights.services import seating_draw
from tests.browser.helpers import host_page, phone
from tests.factories import make_group, make_night

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def manifest_of(page) -> tuple[str, dict]:
    href = page.locator("link[rel=manifest]").get_attribute("href")
    response = page.request.get(urljoin(page.url, href))
    assert response.ok, href
    assert response.headers["content-type"] == "application/manifest+json"
    return href, json.loads(response.body())


def check_icons(page, manifest: dict):
    sizes = {}
    for icon in manifest["icons"]:
        response = page.request.get(urljoin(page.url, icon["src"]))
        assert response.ok and response.headers["content-type"] == "image/png", icon["src"]
        image = Image.open(io.BytesIO(response.body()))
        assert image.format == "PNG"
        assert f"{image.width}x{image.height}" == icon["sizes"], icon["src"]
        sizes.setdefault(icon.get("purpose", "any"), set()).add(icon["sizes"])
    assert sizes == {"any": {"192x192", "512x512"}, "maskable": {"512x512"}}


def chromium_reads(page) -> dict:
    """What Chromium itself makes of the page's manifest, with its parse errors."""
    cdp = page.context.new_cdp_session(page)
    result = cdp.send("Page.getAppManifest")
    assert result["errors"] == [], result["errors"]
    return result


def test_a_table_phone_installs_the_app_opening_at_its_table(contexts, live_server):
    night = make_night(make_group(regulars=8, substitutes=0), sets=1)
    seating_draw(night=night, seed=1)
    table_url = f"/t/{night.tables.get(number=1).token}/"
    page = phone(contexts, f"{live_server.url}{table_url}")

    _, manifest = manifest_of(page)
    assert manifest["name"] == "Bunco Night" and manifest["short_name"] == "Bunco"
    assert manifest["display"] == "standalone"
    assert manifest["start_url"] == table_url
    assert manifest["theme_color"] == "#1b1b2f"
    assert page.locator("meta[name=theme-color]").get_attribute("content") == "#1b1b2f"
    check_icons(page, manifest)
    chromium_reads(page)


def test_a_host_installs_the_app_opening_at_the_welcome_page(contexts, live_server):
    night = make_night(make_group(regulars=8, substitutes=0), sets=1)
    page = host_page(contexts, live_server, night, path="/groups/")
    _, manifest = manifest_of(page)
    assert manifest["start_url"] == "/"
    check_icons(page, manifest)
    chromium_reads(page)


def test_a_start_page_that_is_not_a_phone_page_is_ignored(client):
    response = client.get("/manifest.webmanifest", {"start": "https://example.com/t/abc/"})
    assert response.json()["start_url"] == "/"
    response = client.get("/manifest.webmanifest", {"start": "/groups/"})
    assert response.json()["start_url"] == "/"
