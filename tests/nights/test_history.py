"""docs/rules.md section 6.6: every change a host or co-host makes to a night's money,
seating, scores or results is kept with who made it and when, and the night page shows
it, newest first, so "who marked Deb paid?" has an answer."""

import re

import pytest
from django.urls import reverse

from bunco_night.groups.services import group_add_host
from bunco_night.nights.models import NightAction, Payment, Round
from tests.factories import make_night, make_user
from tests.play.helpers import play_round

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


def nurl(name, night, *args):
    return reverse(f"nights:{name}", args=[night.pk, *args])


def lines(night):
    """The night's history, newest first, as (who, what)."""
    return list(NightAction.objects.filter(night=night).values_list("by_name", "text"))


def words(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_a_night_s_changes_are_kept_with_who_made_them(client, group):
    night = make_night(group, sets=1)
    deb = night.attendances.get(player__name="Regular 3")
    co_host = make_user("carol")
    group_add_host(group=group, user=co_host)

    client.post(nurl("pay", night, deb.pk), {"nonce": "hist-pay-1", "last_seen": "0"})
    client.post(nurl("draw", night), {"seed": "7"})
    seats = list(Round.objects.get().seats.order_by("table__number", "number"))
    client.post(nurl("swap", night), {"seat_a": seats[0].pk, "seat_b": seats[5].pk})
    client.force_login(co_host)
    payment = Payment.objects.get(attendance=deb)
    client.post(nurl("payment_undo", night, payment.pk), {"attendance": deb.pk, "confirmed": "1"})
    live = reverse("play:live_action", args=[night.pk])
    client.post(live, {"action": "start"})
    play_round(night, close=False)
    client.post(live, {"action": "close"})
    sub = group.players.get(name="Sub 1")
    client.post(nurl("guest_add", night), {"player": sub.pk})
    client.post(nurl("leave", night, deb.pk))
    client.post(live, {"action": "finish"})

    a, b = seats[0], seats[5]
    assert lines(night) == [
        ("carol", "Ended the night after round 1"),
        ("carol", "Regular 3 left early, after round 1"),
        ("carol", "Sub 1 added to the list: plays from round 2"),
        ("carol", "Closed round 1"),
        ("carol", "Took back $5.00 paid for Regular 3"),
        (
            "host",
            f"Round 1: swapped {a.player.name} (table 1, seat 1) and "
            f"{b.player.name} (table 2, seat 2)",
        ),
        ("host", "Drew the seating for round 1 (seed 7)"),
        ("host", "Marked $5.00 paid for Regular 3"),
    ]
    # The night page shows them, newest first, in a History section closed at first.
    page = client.get(night.get_absolute_url()).content.decode()
    history = page[page.index('<section id="history"') :]
    history = history[: history.index("</section>")]
    assert "<details" in history and "<details open" not in history
    said = words(history)
    assert said.index("Ended the night") < said.index("Marked $5.00 paid for Regular 3")
    assert "carol Ended the night after round 1" in said
    # Opening it asks for the list again (htmx): the latest lines, alone.
    fresh = client.get(nurl("history", night), **HX).content.decode()
    assert fresh.lstrip().startswith('<ol class="history-list"')
    assert "Marked $5.00 paid for Regular 3" in fresh


def test_a_change_refused_or_sent_twice_leaves_one_line_or_none(client, group):
    night = make_night(group, sets=1)
    deb = night.attendances.get(player__name="Regular 3")
    url = nurl("pay", night, deb.pk)
    client.post(url, {"nonce": "hist-pay-2", "last_seen": "0"})
    client.post(url, {"nonce": "hist-pay-2", "last_seen": "0"})  # a double tap
    assert lines(night) == [("host", "Marked $5.00 paid for Regular 3")]
    client.post(nurl("draw", night), {"seed": "not a number"})
    client.post(nurl("draw_undo", night))  # nothing to take back
    assert len(lines(night)) == 1


def history_count(html: str) -> str:
    """The history's count a page or an htmx answer shows (out of band in an answer)."""
    found = re.search(r'<span class="count" id="history-count"[^>]*>([^<]*)</span>', html)
    assert found, "no history count"
    return found.group(1)


def test_each_change_s_answer_brings_the_history_s_new_count(client, group):
    """The count the closed History section shows follows the changes made on the page
    without a reload: each htmx answer carries it out of band."""
    night = make_night(group, sets=1)
    deb = night.attendances.get(player__name="Regular 3")
    assert history_count(client.get(night.get_absolute_url()).content.decode()) == "0 changes"
    paid = client.post(nurl("pay", night, deb.pk), {"nonce": "count-pay-1", "last_seen": "0"}, **HX)
    assert history_count(paid.content.decode()) == "1 change"
    assert 'id="history-count" hx-swap-oob="true"' in paid.content.decode()
    drawn = client.post(nurl("draw", night), {"seed": "7"}, **HX).content.decode()
    assert history_count(drawn) == "2 changes"
    undone = client.post(nurl("draw_undo", night), **HX).content.decode()
    assert history_count(undone) == "3 changes"
    left = client.post(nurl("leave", night, deb.pk), **HX).content.decode()
    assert history_count(left) == str(len(lines(night))) + " changes"
    opened = client.get(nurl("history", night), **HX).content.decode()
    assert opened.lstrip().startswith('<ol class="history-list"')
    assert history_count(opened) == f"{len(lines(night))} changes"
