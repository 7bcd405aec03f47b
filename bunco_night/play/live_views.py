"""The host's live board and room screen, their polls (which ring a timed round's bell),
and the round controls, each answering back on the live board."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST, require_safe

from bunco_night.core.errors import ServiceError
from bunco_night.core.forms import form_message
from bunco_night.nights.actions import seating_draw
from bunco_night.nights.models import Night, Round
from bunco_night.nights.money import MoneyChange
from bunco_night.nights.money_pages import money_change_page
from bunco_night.nights.selectors import night_for_host

from . import actions, services
from .forms import CardWinnerForm, ControlForm, LateEntryForm, MoneyOkForm
from .host_views import _said
from .live import board_update, live_board
from .models import Entry
from .room import room_screen
from .views import _no_change, _unchanged


def _host_clock(request: HttpRequest, pk: int) -> None:
    """Ring a timed round's bell when its time is up, for a host's poll."""
    night = Night.objects.hosted_by(request.user).filter(pk=pk).in_play().first()
    if night is not None:
        services.round_clock(night=night)


def _host_answer(
    request: HttpRequest,
    night: Night,
    error: ServiceError | None = None,
    done: str = "",
    to: str = "play:live",
):
    if error:
        messages.error(request, error.message)
    elif done:
        messages.success(request, done)
    return redirect(to, pk=night.pk)


@login_required
@require_safe
def live(request: HttpRequest, pk: int) -> HttpResponse:
    """The host's live board."""
    night = night_for_host(request.user, pk)
    services.round_clock(night=night)
    return render(request, "play/live.html", {"board": live_board(night), "night": night})


def _host_screen_unchanged(request: HttpRequest, pk: int) -> bool:
    """Whether a host's screen polling night ``pk`` is current (others' nights: no)."""
    version = (
        Night.objects.hosted_by(request.user)
        .filter(pk=pk)
        .values_list("version", "scores_version")
        .first()
    )
    return _unchanged(request, version)


@login_required
@require_GET
def live_state(request: HttpRequest, pk: int) -> HttpResponse:
    """Poll for the live board; it checks a timed round's clock (docs/rules.md 3.8)."""
    _host_clock(request, pk)
    if _host_screen_unchanged(request, pk):
        return _no_change()
    night = night_for_host(request.user, pk)
    update = board_update(night, request.GET.get("v", ""), "live")
    if update is not None:  # while a round is played: just the tables that changed
        return render(request, "play/live.html#changes", {"board": update, "night": night})
    return render(request, "play/live.html#whole", {"board": live_board(night), "night": night})


# The host's round controls, one address each, answered back on the live board.


def _round_control(request: HttpRequest, pk: int, act, form_class=MoneyOkForm) -> HttpResponse:
    """Parse the post with ``form_class`` and say what ``act(night, data, by)`` returns."""
    night = night_for_host(request.user, pk)
    form = form_class(request.POST)
    if not form.is_valid():
        return _host_answer(request, night, ServiceError(form_message(form), "bad_input"))
    try:
        done = act(night, form.cleaned_data, request.user)
    except MoneyChange as change:
        return money_change_page(request, change, back=reverse("play:live", args=[night.pk]))
    except ServiceError as error:
        return _host_answer(request, night, error)
    return _host_answer(request, night, done=done)


def _playing(night: Night) -> Round:
    rnd = night.rounds.playing().first()
    if rnd is None:
        raise ServiceError("No round is being played.", "no_round")
    return rnd


@login_required
@require_POST
def live_draw(request: HttpRequest, pk: int) -> HttpResponse:
    """Draw the seating of the next round."""

    def act(night, data, by):
        seating_draw(night=night, by=by)
        return "Seating drawn."

    return _round_control(request, pk, act)


@login_required
@require_POST
def live_start(request: HttpRequest, pk: int) -> HttpResponse:
    """Start the next round, seated."""

    def act(night, data, by):
        rnd = services.round_start(night=night)
        return f"Round {rnd.number} started: roll for {rnd.mark or 'the game'}!"

    return _round_control(request, pk, act)


@login_required
@require_POST
def live_bell(request: HttpRequest, pk: int) -> HttpResponse:
    """Ring the bell: every table finishes the turn in play."""

    def act(night, data, by):
        services.bell_ring(night=night)
        return "Bell rung: every table finishes the turn in play."

    return _round_control(request, pk, act)


@login_required
@require_POST
def live_close(request: HttpRequest, pk: int) -> HttpResponse:
    """Close the round being played; everyone moves for the next one."""

    def act(night, data, by):
        rnd = _playing(night)
        nxt = actions.round_close(rnd=rnd, by=by)
        if nxt is None:
            return "The last round is closed: see the prize standings."
        return f"Round {rnd.number} closed. Everyone moves for round {nxt.number}."

    return _round_control(request, pk, act)


@login_required
@require_POST
def live_winner(request: HttpRequest, pk: int) -> HttpResponse:
    """The card party (docs/rules.md section 9.1): the host enters a table's winner."""

    def act(night, data, by):
        rnd = night.rounds.playing().first()
        table = night.tables.filter(number=data["table"]).first()
        if rnd is None or table is None:
            raise ServiceError("Pick a table of the round being played.", "no_round")
        actions.winner_set(
            rnd=rnd, table=table, side=data["side"], by=by, money_ok=data["money_ok"]
        )
        return f"Table {table.number}: winner recorded."

    return _round_control(request, pk, act, CardWinnerForm)


def _late_entry_decide(request: HttpRequest, pk: int, accept: bool) -> HttpResponse:
    def act(night, data, by):
        entry = get_object_or_404(Entry, pk=data["entry"], round__night=night)
        done = actions.late_entry_decide(
            entry=entry, accept=accept, by=by, money_ok=data["money_ok"]
        )
        said = "Late entry counted." if accept else "Late entry discarded."
        return _said(said, done.recomputed, entry.table.number)

    return _round_control(request, pk, act, LateEntryForm)


@login_required
@require_POST
def live_late_accept(request: HttpRequest, pk: int) -> HttpResponse:
    """Count a late entry (docs/rules.md section 2.3), saying what it changed."""
    return _late_entry_decide(request, pk, accept=True)


@login_required
@require_POST
def live_late_discard(request: HttpRequest, pk: int) -> HttpResponse:
    """Discard a late entry."""
    return _late_entry_decide(request, pk, accept=False)


@login_required
@require_POST
def live_finish(request: HttpRequest, pk: int) -> HttpResponse:
    """End the night now: unplayed rounds are dropped."""

    def act(night, data, by):
        actions.night_finish(night=night, by=by)
        return "The night is over."

    return _round_control(request, pk, act)


LIVE_ACTIONS = {
    "draw": live_draw,
    "start": live_start,
    "bell": live_bell,
    "close": live_close,
    "winner": live_winner,
    "accept": live_late_accept,
    "discard": live_late_discard,
    "finish": live_finish,
}


@login_required
@require_POST
def live_action(request: HttpRequest, pk: int) -> HttpResponse:
    """The controls' old shared address, for a page drawn before: ``action`` names one."""
    control = LIVE_ACTIONS.get(ControlForm(request.POST).parsed_action())
    if control is None:
        night = night_for_host(request.user, pk)
        return _host_answer(request, night, ServiceError("Unknown action.", "bad_action"))
    return control(request, pk)


@login_required
@require_safe
def room(request: HttpRequest, pk: int) -> HttpResponse:
    """The room screen for a TV: the bell, the round, standings so far, where everyone moves."""
    night = night_for_host(request.user, pk)
    services.round_clock(night=night)
    return render(request, "play/room.html", _room_context(night))


def _room_context(night: Night) -> dict:
    return {"room": room_screen(night), "night": night}


@login_required
@require_GET
def room_state(request: HttpRequest, pk: int) -> HttpResponse:
    """Poll for the room screen; it checks the clock too."""
    _host_clock(request, pk)
    if _host_screen_unchanged(request, pk):
        return _no_change()
    night = night_for_host(request.user, pk)
    update = board_update(night, request.GET.get("v", ""), "room")
    if update is not None:
        return render(request, "play/room.html#changes", {"board": update, "night": night})
    return render(request, "play/room.html#whole", _room_context(night))
