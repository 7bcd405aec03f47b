"""A night survives a real party, in real headless Chromium: a phone that was offline while
another pressed Done, people who come and go between rounds, a host who shortens the night.
"""

import pytest
from playwright.sync_api import expect

from bunco_night.play.models import Entry
from bunco_night.play.services import bell_ring, round_start
from bunco_night.play.state import round_board
from tests.browser.helpers import host_page, phone, score, tap
from tests.factories import make_group, make_night
from tests.nights.helpers import partner_pairs, tables_of
from tests.play.helpers import play_round, start_night

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.both_databases  # late taps: how the database orders them
def test_taps_from_a_phone_offline_while_another_pressed_done_wait_for_the_host(
    contexts, live_server
):
    """docs/rules.md section 3.5: kept as late entries; the host accepts one, discards two."""
    night = make_night(make_group(regulars=12, substitutes=0), sets=1)
    rnd = start_night(night, seed=3)
    t2 = night.tables.get(number=2)
    url = f"{live_server.url}/t/{t2.token}/"
    first, second = phone(contexts, url), phone(contexts, url)
    for seat in (1, 2, 3, 4):
        tap(first, seat, "miss")
    tap(first, 1, "points:2")
    expect(score(first, 0)).to_have_text("2")
    bell_ring(night=night)
    expect(first.get_by_role("button", name="Done ✔")).to_be_visible()
    second.reload()  # the second phone knows the bell too, then loses the Wi-Fi
    second.context.set_offline(True)
    tap(second, 2, "points:1")
    tap(second, 4, "points:2")
    tap(second, 2, "points:1")
    expect(second.locator("#offline")).to_contain_text("3 taps wait")
    first.get_by_role("button", name="Done ✔").click()
    expect(first.locator("#board")).to_contain_text("Done. Waiting for the other tables.")
    second.context.set_offline(False)
    notice = second.locator(".late-notice")
    expect(notice).to_contain_text("3 taps arrived after the round ended: the host will decide.")
    expect(first.locator(".late-notice")).to_contain_text("3 taps arrived after the round ended")
    expect(score(second, 1)).to_have_text("0")  # nothing counted by itself
    assert Entry.objects.filter(table=t2, late_at__isnull=False).count() == 3

    host = host_page(contexts, live_server, night)
    panel = host.locator(".late-entries")
    expect(panel).to_contain_text("3 late entries to decide")
    panel.locator("li").first.get_by_role("button", name="Accept").click()
    for _ in range(2):
        host.locator(".late-entries li").first.get_by_role("button", name="Discard").click()
        host.wait_for_load_state()
    expect(host.locator(".late-entries")).to_have_count(0)
    rnd.refresh_from_db()
    assert round_board(rnd).table(t2.pk).scores == (2, 1)  # the accepted +1 for seat 2
    expect(score(first, 1)).to_have_text("1")
    expect(first.locator(".late-notice")).to_have_count(0)


def test_a_late_arrival_and_an_early_leaver_between_rounds_keep_the_movement(contexts, live_server):
    """docs/rules.md section 10: everyone else keeps their table; no repeated partner."""
    group = make_group(regulars=12, substitutes=1)
    night = make_night(group, sets=1)
    start_night(night, seed=5)
    nxt = play_round(night)
    last = night.rounds.get(number=1)
    moved = tables_of(nxt)
    leaver = night.attendances.get(player__name="Regular 7")
    host = host_page(contexts, live_server, night, path=f"/nights/{night.pk}/")
    row = host.locator(f"#att-{leaver.pk}")
    row.get_by_role("button", name="Leaves early").click()
    expect(host.locator(f"#att-{leaver.pk}")).to_contain_text("Left after round 1")
    host.get_by_label("Someone else arrived").select_option(label="Sub 1 (substitute)")
    host.get_by_role("button", name="Add", exact=True).click()
    seating = host.locator("#seating")
    expect(seating).to_contain_text("Sub 1")
    expect(seating).not_to_contain_text("Regular 7")
    after = tables_of(nxt)
    sub = group.players.get(name="Sub 1")
    # Two changes in turn come to a swap of the two: the arrival at the leaver's table,
    # and whoever filled the gap when the bottom table shrank to 3 gone back to it.
    assert after[sub.pk] == moved[leaver.player_id]
    changed = [p for p in moved if p not in (leaver.player_id, sub.pk) and after[p] != moved[p]]
    assert changed == []
    assert not partner_pairs(nxt) & partner_pairs(last)
    # The leaver can come back; the arrival gives way to nobody else.
    host.locator(f"#att-{leaver.pk}").get_by_role("button", name="Back").click()
    expect(host.locator("#seating")).to_contain_text("Regular 7")
    assert len(tables_of(nxt)) == 13


def test_fewer_sets_that_end_the_night_ask_first(contexts, live_server):
    night = make_night(make_group(regulars=8, substitutes=0), sets=2)
    start_night(night, seed=2)
    for number in range(1, 7):
        if number > 1:
            round_start(night=night)
        play_round(night)
    host = host_page(contexts, live_server, night, path=f"/nights/{night.pk}/edit/")
    host.get_by_label("Sets").fill("1")
    host.get_by_role("button", name="Save").click()
    question = host.get_by_role("alertdialog")
    expect(question).to_contain_text("Change the night to 1 set?")
    expect(question).to_contain_text("The night ends now")
    question.get_by_role("link", name="No, keep 2 sets").click()
    night.refresh_from_db()
    assert night.sets == 2 and not night.is_over
    host.get_by_label("Sets").fill("1")
    host.get_by_role("button", name="Save").click()
    host.get_by_role("button", name="Yes, change it").click()
    expect(host.locator(".messages")).to_contain_text("Night saved.")
    night.refresh_from_db()
    assert night.sets == 1 and night.is_over


@pytest.mark.both_databases  # late taps: how the database orders them
def test_the_bell_after_a_late_tap_rings_once(contexts, live_server):
    """A late bunco never rings the bell again (docs/rules.md section 3.5)."""
    night = make_night(make_group(rules="deluxe", regulars=12, substitutes=0), sets=1)
    rnd = start_night(night, seed=7)
    t1, t3 = night.tables.get(number=1), night.tables.get(number=3)
    page = phone(contexts, f"{live_server.url}/t/{t3.token}/")
    tap(page, 1, "points:2")
    expect(score(page, 0)).to_have_text("2")
    from tests.play.helpers import tap as service_tap

    service_tap(t1, 1, "bunco")  # ends the round everywhere (Deluxe)
    expect(page.locator("#board")).to_contain_text("Round over at this table.")
    rnd.refresh_from_db()
    rang = rnd.bell_at
    from bunco_night.play.services import entry_record
    from tests.play.helpers import nonce

    late = entry_record(table=t3, nonce=nonce(), seat=2, kind="bunco", round_number=1).entry
    assert late.is_late
    rnd.refresh_from_db()
    assert rnd.bell_at == rang
    expect(page.locator(".late-notice")).to_contain_text("1 tap arrived after the round ended")
    expect(score(page, 1)).to_have_text("0")
