"""A table phone reloaded in a Wi-Fi dead spot still shows its board and the taps it holds,
and sends them, once each, when the network is back; online it is never shown a stale page.
Host pages have no service worker."""

import pytest
from playwright.sync_api import expect

from bunco_night.core.views import static_build
from bunco_night.play.models import Entry
from bunco_night.play.services import round_start
from tests.browser.helpers import past_where_to_sit, phone, score, tap, until
from tests.factories import make_group, make_night
from tests.play.helpers import play_round, start_night
from tests.play.helpers import tap as server_tap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def wait_until_kept(page):
    """Until the service worker controls the page and holds it in its cache."""
    until(page, "navigator.serviceWorker.controller !== null", "no service worker")
    until(
        page,
        "caches.match(location.pathname, {ignoreVary: true}).then(Boolean)",
        "the page was not cached",
    )


@pytest.mark.both_databases  # each queued tap stored once: the nonce's constraint
def test_a_reload_while_offline_keeps_the_board_and_the_queued_taps(contexts, live_server):
    night = make_night(make_group(regulars=8, substitutes=0), sets=1)
    rnd = start_night(night, seed=4)
    table = night.tables.get(number=2)
    page = phone(contexts, f"{live_server.url}/t/{table.token}/", service_worker=True)
    wait_until_kept(page)

    page.context.set_offline(True)
    until(page, "navigator.onLine === false", "the page does not know it is offline")
    tap(page, 1, "points:2")
    tap(page, 3, "points:1")
    expect(page.locator("#offline")).to_contain_text("2 taps wait")
    server_tap(table, 2, "points", 1)  # meanwhile, another phone at the table is online
    assert Entry.objects.filter(table=table, round=rnd).count() == 1, "sent while offline"
    response = page.reload()
    assert response.from_service_worker
    expect(page.locator("#board")).to_contain_text(f"Round 1 of {night.total_rounds}")
    expect(score(page, 1)).to_have_text("0")  # the page as the phone last saw it
    expect(page.locator("#taps button[value='points:2']")).to_be_visible()
    expect(page.locator("#offline")).to_contain_text("Offline. 2 taps wait on this phone")
    # No count of stored taps here: on a busy machine Chromium has been seen to let the
    # reloaded page's first request out before its offline emulation applies, and to drop
    # the answer. The nonce makes that tap count once, which the end of this test checks.

    page.context.set_offline(False)
    expect(page.locator("#offline")).to_be_hidden()
    expect(score(page, 0)).to_have_text("3")  # seats 1 and 3 are partners
    expect(score(page, 1)).to_have_text("1")
    page.wait_for_timeout(2_500)  # another poll and flush: nothing is sent twice
    assert Entry.objects.filter(table=table, round=rnd).count() == 3


def test_a_reload_while_offline_shows_the_board_as_the_phone_last_saw_it(contexts, live_server):
    """The service worker's copy of the page is the page as it last loaded: the scores and
    entries the phone showed since (its own taps' answers, the polls) are not lost."""
    night = make_night(make_group(regulars=8, substitutes=0), sets=1)
    rnd = start_night(night, seed=4)
    table = night.tables.get(number=2)
    page = phone(contexts, f"{live_server.url}/t/{table.token}/", service_worker=True)
    wait_until_kept(page)
    tap(page, 1, "points:2")  # this phone's tap: its answer carries the board
    expect(score(page, 0)).to_have_text("2")
    server_tap(table, 2, "points", 1)  # another phone's tap: this one's poll shows it
    expect(score(page, 1)).to_have_text("1")
    expect(page.locator("#recent li")).to_have_count(2)

    page.context.set_offline(True)
    until(page, "navigator.onLine === false", "the page does not know it is offline")
    assert page.reload().from_service_worker
    expect(score(page, 0)).to_have_text("2")
    expect(score(page, 1)).to_have_text("1")
    expect(page.locator("#recent li")).to_have_count(2)
    tap(page, 3, "points:1")  # the taps still work on the board put back
    expect(page.locator("#offline")).to_contain_text("1 tap waits")

    page.context.set_offline(False)
    expect(score(page, 0)).to_have_text("3")
    expect(page.locator("#recent li")).to_have_count(3)
    assert Entry.objects.filter(table=table, round=rnd).count() == 3


def test_a_reload_offline_in_a_later_round_shows_that_round_and_its_tap_controls(
    contexts, live_server
):
    """The phone draws each round in place, so the service worker's copy of the page may be
    the night's first round: the round the phone last showed comes back with its own tap
    controls, and a tap made there is for that round, not the page's."""
    night = make_night(make_group(regulars=8, substitutes=0), sets=1)
    start_night(night, seed=4)
    table = night.tables.get(number=2)
    page = phone(contexts, f"{live_server.url}/t/{table.token}/", service_worker=True)
    wait_until_kept(page)  # the page of round 1
    play_round(night)
    round_start(night=night)
    expect(page.locator("#taps")).to_have_attribute("data-round", "2")
    past_where_to_sit(page, 2)
    tap(page, 1, "points:2")
    expect(score(page, 0)).to_have_text("2")

    page.context.set_offline(True)
    until(page, "navigator.onLine === false", "the page does not know it is offline")
    assert page.reload().from_service_worker
    expect(page.locator("#board")).to_contain_text(f"Round 2 of {night.total_rounds}")
    expect(page.locator("#taps")).to_have_attribute("data-round", "2")
    expect(score(page, 0)).to_have_text("2")
    tap(page, 3, "points:1")
    expect(page.locator("#offline")).to_contain_text("1 tap waits")

    page.context.set_offline(False)
    expect(page.locator("#offline")).to_be_hidden()
    expect(score(page, 0)).to_have_text("3")
    assert list(
        Entry.objects.filter(table=table, round__number=2).values_list("seat", "points")
    ) == [(1, 2), (3, 1)]
    assert not Entry.objects.filter(table=table, late_at__isnull=False).exists()


def test_offline_the_waiting_taps_are_listed_and_a_mis_tap_is_cancelled(contexts, live_server):
    night = make_night(make_group(regulars=8, substitutes=0), sets=1)
    rnd = start_night(night, seed=4)
    table = night.tables.get(number=2)
    page = phone(
        contexts, f"{live_server.url}/t/{table.token}/", width=360, height=740, service_worker=True
    )
    waiting = page.locator("#queue .parked.waiting")
    tap(page, 1, "points:1")  # online: sent at once, never listed as waiting
    expect(score(page, 0)).to_have_text("1")
    expect(waiting).to_have_count(0)

    page.context.set_offline(True)
    until(page, "navigator.onLine === false", "the page does not know it is offline")
    tap(page, 1, "points:2")
    tap(page, 1, "points:2")  # a second tap by mistake
    expect(waiting).to_have_count(2)
    expect(score(page, 0)).to_have_text("5")  # counted, marked as not sent yet
    expect(waiting.first).to_contain_text("Not sent yet: +2 for")
    waiting.first.get_by_role("button", name="Cancel").click()  # the newest, first
    expect(waiting).to_have_count(1)
    expect(page.locator("#offline")).to_contain_text("1 tap waits")
    expect(score(page, 0)).to_have_text("3")

    page.context.set_offline(False)
    expect(page.locator("#offline")).to_be_hidden()
    expect(score(page, 0)).to_have_text("3")
    expect(waiting).to_have_count(0)
    assert Entry.objects.filter(table=table, round=rnd).count() == 2


def test_online_a_reload_shows_the_latest_board_not_the_cached_one(contexts, live_server):
    night = make_night(make_group(regulars=8, substitutes=0), sets=1)
    start_night(night, seed=4)
    table = night.tables.get(number=2)
    page = phone(contexts, f"{live_server.url}/t/{table.token}/", service_worker=True)
    wait_until_kept(page)
    server_tap(table, 1, "points", 2)
    page.reload()
    expect(score(page, 0)).to_have_text("2")


def test_a_player_page_reloaded_offline_says_where_they_sit_now(contexts, live_server):
    """The player's page came from round 1; its polls showed round 2's seat since. Offline,
    a reload shows round 2's seat, not the seat of round 1."""
    night = make_night(make_group(regulars=8, substitutes=0), sets=1)
    start_night(night, seed=4)
    attendance = night.attendances.order_by("pk").first()
    page = phone(contexts, f"{live_server.url}/p/{attendance.token}/", service_worker=True)
    wait_until_kept(page)
    expect(page.locator(".next-seat")).to_contain_text("Round 1: you sit at")
    nxt = play_round(night)
    seat = nxt.seats.get(player=attendance.player)
    expect(page.locator(".next-seat")).to_contain_text("Round 2: sit at")

    page.context.set_offline(True)
    assert page.reload().from_service_worker
    expect(page.locator(".next-seat")).to_contain_text("Round 2: sit at")
    expect(page.locator(".next-seat .where")).to_have_text(
        f"Table {seat.table.number} · Seat {seat.number}"
    )


def test_the_player_page_reloads_offline_and_host_pages_have_no_service_worker(
    contexts, live_server
):
    night = make_night(make_group(regulars=8, substitutes=0), sets=1)
    start_night(night, seed=4)
    attendance = night.attendances.order_by("pk").first()
    page = phone(contexts, f"{live_server.url}/p/{attendance.token}/", service_worker=True)
    wait_until_kept(page)
    page.context.set_offline(True)
    assert page.reload().from_service_worker
    expect(page.locator(".next-seat")).to_contain_text("Round 1: you sit at")
    page.context.set_offline(False)
    # The same browser, logged in as the host: the live board has no service worker.
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Username").fill("host")
    page.get_by_label("Password").fill("bunco")
    page.get_by_role("button", name="Log in").click()
    page.goto(f"{live_server.url}/nights/{night.pk}/live/")
    expect(page.locator("#live-status")).to_be_attached()
    assert page.evaluate("navigator.serviceWorker.controller") is None
    assert page.evaluate("navigator.serviceWorker.getRegistration().then(r => r === undefined)")
    assert page.evaluate("navigator.serviceWorker.getRegistrations().then(r => r.length)") == 1


def test_the_service_worker_is_served_from_the_root_and_never_cached(client):
    response = client.get("/sw.js")
    assert response["Content-Type"].startswith("application/javascript")
    assert "no-cache" in response["Cache-Control"]
    assert b'var STATIC_URL = "/static/";' in response.content
    assert b'var STATIC = "bunco-static-dev";' in response.content  # the tests' plain files


def test_each_release_of_the_static_files_has_its_own_cache():
    """A new release's worker deletes the caches of the one before (templates/core/sw.js)."""

    class Release:
        def __init__(self, hashed_files):
            self.hashed_files = hashed_files

    one = static_build(Release({"js/bunco.js": "js/bunco.0123456789ab.js"}))
    two = static_build(Release({"js/bunco.js": "js/bunco.ba9876543210.js"}))
    assert len(one) == 12 and one != two
    assert one == static_build(Release({"js/bunco.js": "js/bunco.0123456789ab.js"}))
    assert static_build(Release({})) == "dev"
