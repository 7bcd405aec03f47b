"""Helpers for the browser tests: a phone, a logged-in host, a tap, a score, a page that fits."""

import os
import tempfile
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from playwright.sync_api import expect

from bunco_night.play.services import round_start
from tests.factories import make_group, make_night
from tests.play.helpers import start_night

# Where browser tests photograph pages for a person to look at: $BUNCO_SHOTS, else
# bunco-shots in the temp directory.
SHOTS = Path(os.environ.get("BUNCO_SHOTS") or Path(tempfile.gettempdir()) / "bunco-shots")


def phone(contexts, url, width=390, height=844, service_worker=False):
    """A phone-sized page (touch) opened at ``url``.

    Without its service worker (the offline reload, tests/browser/test_offline_reload.py,
    asks for it): each one is a worker of its own in Chromium, serving the page's
    requests, and closing contexts whose workers were busy is when the whole run's
    Chromium was seen to stop answering (tests/conftest.py, ``BROWSER_TEST_LIMIT``)."""
    context = contexts(
        viewport={"width": width, "height": height},
        has_touch=True,
        service_workers="allow" if service_worker else "block",
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(url)
    return page


def next_round_held(page, night):
    """Starts ``night``'s next round with ``page``'s clock stopped: its new buttons stay
    settling (js/bunco-settle.js refuses taps on a button that has just appeared, for 600 ms)
    until the test calls ``page.clock.resume()``, however busy the machine."""
    page.clock.install()
    page.reload()
    page.clock.pause_at(page.evaluate("Date.now()") + 1)
    round_start(night=night)
    # The board asks now, not on its timer: running the clock up to the timer could carry
    # it past the answer's arrival by more than the hold lasts, and release the hold.
    with page.expect_response(lambda response: "/state/" in response.url):
        page.evaluate("htmx.trigger(document.getElementById('board'), 'refresh')")
    page.locator("#taps button[name=tap]").first.wait_for(state="attached")
    page.clock.run_for(100)  # htmx settles (20 ms), and the buttons are held
    held = "!!document.querySelector('#taps button[name=tap][data-settling]')"
    if not page.evaluate(held):  # what the page showed instead, for a failure to say
        page.wait_for_timeout(1000)
        shown = page.evaluate(
            """() => ({board: document.getElementById('board').className,
                       key: document.getElementById('controls').dataset.controlsKey,
                       moves: !!document.querySelector('#missed-moves[open]'),
                       held: document.querySelectorAll('[data-settling]').length})"""
        )
        assert page.evaluate(held), f"the new round's buttons were not held: {shown}"


def logged_in(context, live_server, username="host"):
    """``context`` with ``username``'s session cookie, as if they had logged in (the login
    form itself is tested in tests/browser/test_security.py)."""
    client = Client()
    client.force_login(get_user_model().objects.get(username=username))
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    context.add_cookies(
        [{"name": cookie.key, "value": cookie.value, "url": live_server.url, "httpOnly": True}]
    )
    return context


def host_phone(contexts, live_server, path, width=390, height=844, **options):
    """The host, logged in on a touch phone of ``width`` x ``height``, at ``path``."""
    context = contexts(viewport={"width": width, "height": height}, has_touch=True, **options)
    page = logged_in(context, live_server).new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{live_server.url}{path}")
    return page


def host_page(contexts, live_server, night, path=None, scripts=True):
    """The host, logged in on a desktop-sized page, at the night's live board (or ``path``);
    in a browser that runs no scripts if not ``scripts``."""
    context = contexts(viewport={"width": 1280, "height": 900}, java_script_enabled=scripts)
    page = logged_in(context, live_server).new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{live_server.url}{path or f'/nights/{night.pk}/live/'}")
    return page


def tap(page, seat, value):
    """Pick who is rolling, then tap what the roll scored."""
    page.locator(f"label.chip:has(input[value='{seat}'])").click()
    page.locator(f"#taps button[value='{value}']").click()


def score(page, side):
    return page.locator(f"[data-testid=score-{side}]")


def host_paths(night, correct_round: int) -> dict[str, str]:
    """Every host page type of ``night``, by name (the room screen, made for a TV, apart);
    "correct a table" opens table 2 in round ``correct_round``."""
    group = night.group
    return {
        "groups": "/groups/",
        "group": group.get_absolute_url(),
        "roster": f"/groups/{group.slug}/roster/",
        "rules": f"/groups/{group.slug}/rules/",
        "night": night.get_absolute_url(),
        "night edit": f"/nights/{night.pk}/edit/",
        "live board": f"/nights/{night.pk}/live/",
        "links": f"/nights/{night.pk}/links/",
        "standings": f"/nights/{night.pk}/standings/",
        "correct a table": f"/nights/{night.pk}/live/table/2/?round={correct_round}",
        "print": f"/nights/{night.pk}/print/",
    }


def past_where_to_sit(page, number: int):
    """A table phone that has drawn round ``number`` in place: once it has decided whether
    to say where everyone sits now (js/bunco-round.js does when the phone showed the closed
    round's moves only for a moment, or not at all), that is read: Got it."""
    until(page, f"document.body.dataset.movesFor === '{number}'", f"round {number} not drawn")
    box = page.locator("#missed-moves[open]")
    if box.count():
        expect(box).to_contain_text(f"Round {number} has started")
        box.get_by_role("button", name="Got it").click()
        expect(box).to_have_count(0)


def until(page, expression: str, what: str):
    """Until ``expression`` is true in the page. ``page.evaluate`` awaits a promise and runs
    under the site's Content-Security-Policy; ``wait_for_function`` would do neither (it
    evaluates a string, which the policy's script-src 'self' refuses)."""
    for _ in range(150):
        if page.evaluate(expression):
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"{page.url}: {what}")


def fits(page) -> bool:
    """Nothing on the page is wider than the phone's screen."""
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def named_night(names: list[str]):
    """A night of one set, its first round started, whose players are called ``names``."""
    group = make_group(regulars=len(names), substitutes=0)
    for player, name in zip(group.players.order_by("pk"), names, strict=True):
        player.name = name
        player.save(update_fields=["name"])
    night = make_night(group, sets=1)
    start_night(night, seed=3)
    return night
