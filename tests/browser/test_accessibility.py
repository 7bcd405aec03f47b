"""Every page type passes axe-core's WCAG 2.1 A and AA rules with no serious or critical
violation, on a phone (390 x 844) and on a desktop (1280 x 900): contrast, labels, button
names, landmarks. axe-core comes with the axe-playwright-python package."""

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from bunco_night.play.services import bell_ring, round_start
from tests.browser.helpers import host_page, host_paths, phone
from tests.browser.helpers import tap as tap_page
from tests.factories import make_group, make_night
from tests.play.helpers import play_round, start_night, tap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"phone": (390, 844), "desktop": (1280, 900)}
WCAG_21_AA = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]}}
axe = Axe()


def problems(page) -> list[str]:
    """axe-core's serious and critical violations on the page, each with where it is."""
    found = axe.run(page, options=WCAG_21_AA).response["violations"]
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at "
        + "; ".join(" ".join(n["target"]) for n in v["nodes"][:4])
        for v in found
        if v["impact"] in {"serious", "critical"}
    ]


@pytest.mark.parametrize("size", SIZES)
def test_every_page_type_has_no_serious_accessibility_problem(size, contexts, live_server):
    width, height = SIZES[size]
    night = make_night(make_group(regulars=12, substitutes=2), sets=2)
    start_night(night, seed=3)
    play_round(night)
    rnd = round_start(night=night)
    table = night.tables.get(number=1)
    tap(table, 1, "points", 2)
    bell_ring(night=night)
    attendance = night.attendances.order_by("pk").first()
    found = {}

    context = contexts(viewport={"width": width, "height": height}, has_touch=size == "phone")
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{live_server.url}/accounts/login/")
    found["login"] = problems(page)
    page.goto(f"{live_server.url}/t/{table.token}/")
    expect(page.locator("#board")).to_contain_text("BELL!")
    found["table at the bell"] = problems(page)
    page.get_by_text("Enter the dice instead").click()
    found["table, dice entry open"] = problems(page)
    page.get_by_role("button", name="Bigger text").click()
    found["table, bigger text"] = problems(page)
    context.set_offline(True)
    tap_page(page, 1, "miss")
    expect(page.locator("#offline")).to_contain_text("1 tap waits")
    found["table, offline with a tap waiting"] = problems(page)
    context.set_offline(False)
    expect(page.locator("#offline")).to_be_hidden()
    page.goto(f"{live_server.url}/p/{attendance.token}/")
    found["player"] = problems(page)

    host = host_page(contexts, live_server, night, path="/groups/")
    host.set_viewport_size({"width": width, "height": height})
    paths = host_paths(night, correct_round=rnd.number - 1)
    paths["room screen"] = f"/nights/{night.pk}/room/"
    for name, path in paths.items():
        host.goto(f"{live_server.url}{path}")
        found[name] = problems(host)

    assert {name: p for name, p in found.items() if p} == {}


def test_a_screen_reader_hears_the_score_change_and_the_bell(contexts, live_server):
    night = make_night(make_group(regulars=8, substitutes=0), sets=1)
    start_night(night, seed=1)
    table = night.tables.get(number=2)
    page = phone(contexts, f"{live_server.url}/t/{table.token}/")
    announce = page.locator("#announce[aria-live=polite]")
    expect(announce).to_have_text("")  # nothing read out on arrival

    tap(table, 1, "points", 2)  # another phone at the table
    expect(announce).to_contain_text("Score: ")
    expect(announce).to_contain_text(", 2; ")
    tap_page(page, 2, "points:1")  # this phone
    expect(announce).to_contain_text(", 2; ")
    expect(announce).to_contain_text(", 1.")

    bell_ring(night=night)
    expect(page.get_by_role("alert")).to_contain_text("BELL!")


def test_a_player_hears_where_to_sit_next(contexts, live_server):
    night = make_night(make_group(regulars=8, substitutes=0), sets=2)
    start_night(night, seed=1)
    attendance = night.attendances.order_by("pk").first()
    page = phone(contexts, f"{live_server.url}/p/{attendance.token}/")
    announce = page.locator("#announce")
    expect(page.locator("#card")).to_contain_text("Round 1")
    play_round(night)
    expect(announce).to_contain_text("Round 2: table ")


def test_the_host_hears_the_bell_on_the_live_board(contexts, live_server):
    night = make_night(make_group(regulars=8, substitutes=0), sets=1)
    start_night(night, seed=1)
    host = host_page(contexts, live_server, night)
    announce = host.locator("#announce[aria-live=polite]")
    expect(announce).to_have_text("")
    bell_ring(night=night)
    expect(host.locator("#live-status")).to_contain_text("The bell has rung.")
    expect(announce).to_have_text("The bell has rung.")


def control_names(page) -> list[str]:
    """The accessible name of every button and link on the page, as Chromium computes it
    for a screen reader (its list of a page's buttons or links shows these alone)."""
    tree = page.context.new_cdp_session(page).send("Accessibility.getFullAXTree")["nodes"]
    return [
        f"{node['role']['value']}: {node.get('name', {}).get('value', '')}"
        for node in tree
        if not node.get("ignored") and node.get("role", {}).get("value") in {"button", "link"}
    ]


def test_no_two_buttons_or_links_on_the_hosts_night_pages_share_a_name(contexts, live_server):
    night = make_night(make_group(regulars=12, substitutes=2), sets=2)
    start_night(night, seed=3)
    play_round(night)  # a round played: prizes and a set tied so far, with their buttons
    round_start(night=night)
    host = host_page(contexts, live_server, night, path=night.get_absolute_url())
    shared = {}
    for path in ("", f"/nights/{night.pk}/live/", f"/nights/{night.pk}/standings/"):
        if path:
            host.goto(f"{live_server.url}{path}")
        names = control_names(host)
        assert len(names) > 5, host.url
        shared[host.url] = sorted({n for n in names if names.count(n) > 1})
    assert {url: names for url, names in shared.items() if names} == {}
