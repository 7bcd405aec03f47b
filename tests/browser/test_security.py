"""Accounts and security as people meet them, in real headless Chromium: changing a
password, a co-host who accepts an invitation, a login lockout while the tables play on,
renewing a table's link, and every page type under the Content-Security-Policy."""

import time

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from bunco_night.nights.services import seating_draw
from bunco_night.play.services import round_start
from tests.factories import make_group, make_night

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Every CSP violation a page reports, kept where the test can read it.
CSP_LISTENER = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile} ${e.sample}`);
});
"""


@pytest.fixture
def contexts(browser):
    """New browser contexts (one per person), each recording CSP violations."""
    made = []

    def new(**kwargs):
        context = browser.new_context(**kwargs)
        context.add_init_script(CSP_LISTENER)
        made.append(context)
        return context

    yield new
    for context in made:
        context.close()


def new_page(contexts, width=412, height=915):
    page = contexts(viewport={"width": width, "height": height}).new_page()
    page.set_default_timeout(15_000)
    page.console = []
    page.on("console", lambda m: page.console.append(m.text))
    return page


def log_in(page, live_server, username, password):
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()


@pytest.fixture
def hosted():
    """A host (password "bunco") and their group with a night whose round 1 is in play."""
    host = get_user_model().objects.create_user("host", password="bunco")
    group = make_group(user=host)
    night = make_night(group, sets=1)
    seating_draw(night=night, seed=3)
    round_start(night=night)
    return host, group, night


def test_a_host_changes_the_password_and_a_co_host_accepts_an_invitation(
    contexts, live_server, hosted
):
    host, group, night = hosted
    page = new_page(contexts)
    log_in(page, live_server, "host", "bunco")
    page.locator("a.account").click()
    page.get_by_role("link", name="Change your password").click()
    page.get_by_label("Your current password").fill("bunco")
    page.get_by_label("New password", exact=True).fill("dice on the table")
    page.get_by_label("New password again").fill("dice on the table")
    page.get_by_role("button", name="Change the password").click()
    expect(page.locator(".messages")).to_contain_text("Password changed.")
    page.get_by_role("button", name="Log out").click()
    log_in(page, live_server, "host", "bunco")
    expect(page.get_by_role("alert")).to_be_visible()
    page.get_by_label("Password").fill("dice on the table")
    page.get_by_role("button", name="Log in").click()
    expect(page.locator(".who")).to_have_text("host")

    page.goto(f"{live_server.url}{group.get_absolute_url()}")
    page.get_by_role("link", name="Hosts").click()
    page.get_by_role("button", name="Make an invitation link").click()
    expect(page.locator(".messages")).to_contain_text("Invitation ready")
    link = page.get_by_label("Invitation link").input_value()
    assert link.startswith(f"{live_server.url}/accounts/invite/")

    ann = new_page(contexts)
    ann.goto(link)
    expect(ann.locator("h1")).to_have_text(f"Co-host {group.name}")
    ann.get_by_label("Username").fill("ann")
    ann.get_by_label("E-mail").fill("ann@example.com")
    ann.get_by_label("Password", exact=True).fill("ann's own password")
    ann.get_by_label("Password again").fill("ann's own password")
    ann.get_by_role("button", name="Make my account and host").click()
    expect(ann.locator("h1")).to_have_text(group.name)
    expect(ann.locator(".messages")).to_contain_text(f"You are now a host of {group.name}")
    ann.get_by_role("link", name="Your groups").first.click()
    expect(ann.locator(".tile-title")).to_have_text([group.name])
    # The link worked once.
    ann.goto(link)
    expect(ann.locator("h1")).to_have_text("This invitation link does not work")

    page.reload()
    expect(page.locator(".host-list")).to_contain_text("ann")
    assert page.evaluate("window.__csp") == [] and ann.evaluate("window.__csp") == []


def test_a_lockout_after_wrong_passwords_leaves_the_table_phones_playing(
    contexts, live_server, hosted, settings
):
    host, group, night = hosted
    table = night.tables.get(number=2)
    phone = new_page(contexts)
    phone.goto(f"{live_server.url}/t/{table.token}/")
    expect(phone.locator("#taps")).to_be_visible()

    intruder = new_page(contexts)
    for i in range(settings.AXES_FAILURE_LIMIT):
        log_in(intruder, live_server, "host", f"guess-{i}")
    expect(intruder.locator("h1")).to_have_text("Too many wrong passwords")
    expect(intruder.get_by_role("alert")).to_contain_text("try again in 15 minutes")
    # Opening the login page again says so at once: no form to type into.
    intruder.goto(f"{live_server.url}/accounts/login/")
    expect(intruder.locator("h1")).to_have_text("Too many wrong passwords")
    expect(intruder.get_by_label("Username")).to_have_count(0)

    # The table's phone keeps scoring, and its page answers at once.
    phone.locator("label.chip:has(input[value='1'])").click()
    phone.locator("#taps button[value='points:2']").click()
    expect(phone.locator("[data-testid=score-0]")).to_have_text("2")
    started = time.monotonic()
    response = phone.goto(f"{live_server.url}/t/{table.token}/")
    assert response.status == 200 and time.monotonic() - started < 5
    expect(phone.locator("[data-testid=score-0]")).to_have_text("2")


def test_a_host_renews_a_table_link_and_the_old_one_stops(contexts, live_server, hosted):
    host, group, night = hosted
    table = night.tables.get(number=1)
    old = f"{live_server.url}/t/{table.token}/"
    phone = new_page(contexts)
    phone.goto(old)
    expect(phone.locator("#taps")).to_be_visible()

    page = new_page(contexts, width=1280, height=900)
    log_in(page, live_server, "host", "bunco")
    page.goto(f"{live_server.url}/nights/{night.pk}/links/")
    card = page.locator(".qr-card").filter(has_text="Table 1")
    old_code = card.locator("svg.qr").inner_html()
    expect(card.locator("a.qr-url")).to_have_text(old)
    card.get_by_text("Lost phone? New link").click()
    card.get_by_role("button", name="New link for table 1").click()
    expect(page.locator(".messages")).to_contain_text("Table 1 has a new link")

    table.refresh_from_db()
    new = f"{live_server.url}/t/{table.token}/"
    card = page.locator(".qr-card").filter(has_text="Table 1")
    expect(card.locator("a.qr-url")).to_have_text(new)
    assert new != old and card.locator("svg.qr").inner_html() != old_code

    assert phone.goto(old).status == 404
    expect(phone.locator("h1")).to_have_text("Nothing here")
    assert phone.goto(new).status == 200
    expect(phone.locator("#taps")).to_be_visible()


def test_no_page_type_breaks_the_content_security_policy(contexts, live_server, hosted):
    host, group, night = hosted
    table = night.tables.get(number=1)
    attendance = night.attendances.order_by("pk").first()
    page = new_page(contexts, width=1280, height=900)
    page.goto(live_server.url)
    page.goto(f"{live_server.url}/accounts/password-reset/")
    log_in(page, live_server, "host", "bunco")
    host_pages = [
        "/",
        "/groups/",
        group.get_absolute_url(),
        f"/groups/{group.slug}/roster/",
        f"/groups/{group.slug}/rules/",
        f"/groups/{group.slug}/hosts/",
        f"/groups/{group.slug}/hosts/leave/",
        f"/nights/new/{group.slug}/",
        f"/nights/{night.pk}/",
        f"/nights/{night.pk}/edit/",
        f"/nights/{night.pk}/seating/tv/",
        f"/nights/{night.pk}/live/",
        f"/nights/{night.pk}/live/table/1/",
        f"/nights/{night.pk}/links/",
        f"/nights/{night.pk}/room/",
        f"/nights/{night.pk}/standings/",
        f"/nights/{night.pk}/print/",
        "/accounts/",
        "/accounts/password/",
        "/nights/999999/",  # the 404 page
    ]
    violations = {}

    def visit(on, path, wait=300):
        on.goto(f"{live_server.url}{path}")
        on.wait_for_timeout(wait)
        violations[path] = on.evaluate("window.__csp")

    for path in host_pages:
        visit(page, path)
    phone = new_page(contexts)
    visit(phone, f"/p/{attendance.token}/")
    phone.goto(f"{live_server.url}/t/{table.token}/")
    # A tap, then the phone, the live board and the room screen poll and swap.
    phone.locator("label.chip:has(input[value='1'])").click()
    phone.locator("#taps button[value='points:1']").click()
    expect(phone.locator("[data-testid=score-0]")).to_have_text("1")
    phone.wait_for_timeout(2500)
    violations["table phone"] = phone.evaluate("window.__csp")
    visit(page, f"/nights/{night.pk}/room/", wait=2500)
    assert len(violations) == len(host_pages) + 2
    console = [m for m in page.console + phone.console if "Content Security Policy" in m]
    assert {k: v for k, v in violations.items() if v} == {} and console == []
