"""Drive a night through the play services the way phones and the host do."""

import itertools

from django.http import HttpResponse
from django.test import RequestFactory
from django.urls import reverse

from bunco_night.groups.services import prizes_set
from bunco_night.nights.selectors import current_round
from bunco_night.nights.services import payment_record, seating_draw
from bunco_night.play.services import entry_record, round_close, round_start, table_done
from bunco_night.play.speed.polls import UnchangedPollMiddleware
from bunco_night.play.state import round_board
from tests.factories import make_night

_nonces = itertools.count(1)


def nonce():
    return f"test-nonce-{next(_nonces):08d}"


def tap_result(table, seat, kind="points", count=0, **kw):
    """What ``entry_record`` answers for a tap at ``table`` by ``seat`` (a TapResult)."""
    return entry_record(table=table, nonce=nonce(), seat=seat, kind=kind, count=count, **kw)


def tap(table, seat, kind="points", count=0, **kw):
    """The entry a tap at ``table`` by ``seat`` stores."""
    return tap_result(table, seat, kind, count, **kw).entry


def ring_the_bell(night):
    """Table 1 reaches its target, with everyone at it having rolled once (head-table
    control: docs/rules.md section 3.1)."""
    head = night.tables.get(number=1)
    for seat in range(1, 5):
        tap(head, seat, "miss")
    for _ in range(11):
        tap(head, 1, "points", 2)


def play_round(night, winners=None, *, close=True):
    """Play the round in play so that ``winners[i]`` (a seat) wins table i+1, and close it
    (unless not ``close``: every table is then done, the round still in play).

    Everyone rolls once (a miss), then the winning seat scores 2 at a time until its
    side reaches the table's target; with head-table control the other tables press Done.
    """
    rnd = current_round(night)
    view = round_board(rnd)
    winners = winners or [1] * len(view.tables)
    order = sorted(view.tables, key=lambda tv: tv.table.number != 1)  # head table last
    for tv in view.tables:
        for s in range(1, tv.size + 1):
            tap(tv.table, s, "miss")
    for tv in order[1:] + order[:1]:
        seat = winners[tv.table.number - 1]
        while round_board(rnd).table(tv.table.pk).scores[tv.seated.game.side_of(seat)] < tv.target:
            tap(tv.table, seat, "points", 2)
    for tv in view.tables:
        outcome = round_board(rnd).table(tv.table.pk).outcome
        if not outcome.done:
            table_done(table=tv.table)
    return round_close(rnd=rnd) if close else None


def start_night(night, seed=1):
    seating_draw(night=night, seed=seed)
    return round_start(night=night)


def poll_without_view(table, v: str, htmx=True):
    """A table phone's poll answered by the middleware alone (None when it would go on
    to the view)."""

    def view(request):
        return HttpResponse(status=418)

    headers = {"HX-Request": "true"} if htmx else {}
    request = RequestFactory().get(
        reverse("play:table_state", args=[table.token]), {"v": v}, headers=headers
    )
    response = UnchangedPollMiddleware(view)(request)
    return None if response.status_code == 418 else response


def door_prize_night(group):
    """A night of ``group`` with most wins and a door prize, everyone's dues paid, round 1
    played: a prize is tied, the door prize not drawn."""
    prizes_set(
        group=group,
        prizes=[{"code": "most_wins", "percent": 50}, {"code": "door_prize", "percent": 10}],
    )
    night = make_night(group, sets=1)
    for a in night.attendances.all():
        payment_record(attendance=a, amount_cents=500)
    start_night(night)
    play_round(night)
    return night
