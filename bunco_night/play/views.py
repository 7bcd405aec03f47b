"""Table phones, players' own pages, and the host's live board, room screen and standings.

Views are thin: parse, call a service, render. Polls answer 204 with one small
query when the night's version has not changed, so hundreds of phones can poll.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST, require_safe

from bunco_night.core.compiled import Compiled, as_health_check
from bunco_night.core.errors import ServiceError
from bunco_night.core.forms import form_message
from bunco_night.core.links import phone_url, unreachable_host
from bunco_night.core.qr import qr_svg
from bunco_night.groups.models import Player
from bunco_night.nights.actions import seating_draw
from bunco_night.nights.models import Attendance, Night, Round, Table
from bunco_night.nights.money import MoneyChange
from bunco_night.nights.money_pages import money_change_page
from bunco_night.nights.selectors import night_for_host, night_rules_explained
from bunco_night.rules.presets import PRESET_NAMES

from . import actions, pages, player_pages, services
from .boards import render_board
from .forms import (
    CardWinnerForm,
    ControlForm,
    CorrectionForm,
    DoneForm,
    EntryForm,
    LateEntryForm,
    MoneyOkForm,
    PrizeTiebreakForm,
    SideForm,
    TapForm,
)
from .live import board_update, live_board
from .models import Entry
from .rolls import taps
from .room import room_screen
from .standings import night_standings
from .state import table_round


def _unchanged(request: HttpRequest, version: tuple | None) -> bool:
    """Whether the poll's ``v`` is the current version (a 404 for an unknown link)."""
    if version is None:
        raise Http404("No such link.")
    return request.GET.get("v") == ".".join(map(str, version))


def _no_change() -> HttpResponse:
    """A poll's answer when nothing changed: empty, and htmx swaps nothing."""
    return HttpResponse(status=204)


def _wants_json(request: HttpRequest) -> bool:
    return "application/json" in request.headers.get("Accept", "")


def _int(value, default=None):
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


# ---------------------------------------------------------------------------
# The table phone (a secret link; no login)


_TABLE_BY_TOKEN = Compiled(
    lambda token: Table.objects.select_related("night__group").filter(token=token)[:1], "TOKEN"
)


def _table(token: str) -> Table:
    """The table a phone's link names, with its night and group, else a 404. The read is
    the request's health check of its database connection (a phone's tap or page)."""
    table = as_health_check(lambda: _TABLE_BY_TOKEN.first(token))
    if table is None:
        raise Http404("No such link.")
    return table


@never_cache
@require_safe
def table_page(request: HttpRequest, token: str) -> HttpResponse:
    """The phone at a table: round, mark, seats, Us/Them, taps, the bell, where to sit next."""
    table = _table(token)
    services.round_clock(night=table.night)
    page = pages.table_page(table)
    context = {"page": page, "token": token, "missed": pages.moves_missed(page)}
    return render(request, "play/table.html", context)


@never_cache
@require_GET
def table_state(request: HttpRequest, token: str) -> HttpResponse:
    """Poll: 204 when nothing changed, else the board fragment. (Unchanged polls are most
    often answered before the view, by ``polls.UnchangedPollMiddleware``.)"""
    table = _table(token)
    if _unchanged(request, (table.night.version, table.version)):
        return _no_change()
    return HttpResponse(render_board(request, pages.table_page(table), token))


@never_cache
@require_GET
def table_moves(request: HttpRequest, token: str) -> HttpResponse:
    """Where everyone who sat at this table in the round before sits now, for a phone that
    did not show it when that round closed (js/bunco.js asks once a new round is drawn in
    place): the page's ``#missed-moves``, or 204 when there is nothing to say."""
    table = _table(token)
    page = pages.table_page(table)
    missed = pages.moves_missed(page)
    if missed is None:
        return _no_change()
    context = {"page": page, "token": token, "missed": missed}
    return render(request, "play/table.html#missed", context)


def how_to_play_page(request: HttpRequest, night: Night, back: str) -> HttpResponse:
    """The night's rules in words, for anyone at a table: "How do we play?"."""
    rules = night.rules_obj
    context = {
        "group": night.group,
        "rules_label": PRESET_NAMES.get(rules.name, ""),
        "sections": night_rules_explained(night),
        "back": back,
    }
    return render(request, "play/how_to_play.html", context)


@require_safe
def table_rules(request: HttpRequest, token: str) -> HttpResponse:
    """How do we play? From the table's own link, without a login."""
    table = _table(token)
    return how_to_play_page(request, table.night, reverse("play:table", args=[token]))


LATE_MESSAGE = "This tap arrived after the round ended here: the host will decide."


def _table_answer(
    request: HttpRequest,
    token: str,
    error: ServiceError | None = None,
    late=False,
    board: str | None = None,
):
    """JSON for the phone's queue, a redirect for a plain form. A tap set aside as a late
    entry is acknowledged (it is stored) and said to be late. ``board``: the table's board
    fragment as the write left it (what a poll would get), for the phone to show."""
    if _wants_json(request):
        if error:
            return JsonResponse(
                {"ok": False, "error": error.message, "code": error.code}, status=400
            )
        return JsonResponse(
            {"ok": True, "late": late}
            | ({"message": LATE_MESSAGE} if late else {})
            | ({"board": board} if board is not None else {})
        )
    if error:
        messages.error(request, error.message)
    elif late:
        messages.warning(request, LATE_MESSAGE)
    return redirect("play:table", token=token)


def _table_call(request: HttpRequest, token: str, service, form, **fields) -> HttpResponse:
    """Call a table service for the link's table with ``fields`` (service's argument: the
    form's field) of the post ``form`` parses, and answer as the caller wants."""
    try:
        table = _table(token)
        data = form.parsed()
        result = service(table=table, **{arg: data[name] for arg, name in fields.items()})
    except ServiceError as error:
        return _table_answer(request, token, error)
    return _table_answer(request, token, late=getattr(result, "is_late", False))


def _round_named(form: TapForm) -> int:
    """The round a tap names: the round its buttons were drawn for (docs/rules.md section
    2.3). A tap that names none is refused, never put in whichever round is in play; a
    value that is not a number names no round of the night, and the tap is refused."""
    number = form.parsed()["round"]
    if number is None:
        raise ServiceError(
            "This tap does not say which round it is for: reload the page.", "no_round_named"
        )
    return number


# The table link is a capability URL (a secret in the path) and no cookie or session
# authorises these writes, so CSRF does not apply; phones may queue taps offline.
@csrf_exempt
@require_POST
def table_entry(request: HttpRequest, token: str) -> HttpResponse:
    """One tap: what a roll scored, for the seat that rolled. The phone's queue (asking for
    JSON) gets the table's board as the tap left it, so it does not poll for it."""
    form = TapForm(request.POST)
    table = _table(token)
    # Read before the tap: the board's version may be older than what it shows (the
    # phone then asks once more), never newer.
    night_version = table.night.version
    try:
        # Two dice in two-dice bunko, three otherwise: the rules refuse any other number.
        entry = services.entry_record(
            table=table, dice=form.dice(), round_number=_round_named(form), **form.tap_fields()
        )
    except ServiceError as error:
        return _table_answer(request, token, error)
    board = None
    if _wants_json(request):
        if entry.table_after is not None:
            page = pages.table_page(
                table,
                playing=(entry.round, entry.table_after),
                version=f"{night_version}.{table.version}",
                late_waiting=entry.late_waiting,
            )
        else:  # a retry, or a tap for a round that has ended: read the table afresh
            page = pages.table_page(_table(token))
        board = render_board(request, page, token)
    return _table_answer(request, token, late=entry.is_late, board=board)


def _clock_answer(night: Night) -> JsonResponse:
    """The clock's answer to a page whose countdown reached zero: the seconds left by the
    server's clock (0: the bell has rung), or null when no timed round is being played."""
    return JsonResponse({"seconds_left": services.round_clock(night=night)})


# A capability URL like the taps: no cookie authorises it, and it only rings a bell the
# rules already ring (docs/rules.md section 3.8).
@csrf_exempt
@require_POST
def table_clock(request: HttpRequest, token: str) -> HttpResponse:
    """The table phone's countdown reached zero: the server's clock decides."""
    return _clock_answer(_table(token).night)


@csrf_exempt
@require_POST
def table_undo(request: HttpRequest, token: str) -> HttpResponse:
    """Undo one of this table's entries."""
    return _table_call(
        request, token, services.entry_undo, EntryForm(request.POST), entry_id="entry"
    )


@csrf_exempt
@require_POST
def table_done(request: HttpRequest, token: str) -> HttpResponse:
    """The table finished the turn in play after the bell."""
    return _table_call(request, token, services.table_done, DoneForm(request.POST), done="done")


@csrf_exempt
@require_POST
def table_extra_turns_done(request: HttpRequest, token: str) -> HttpResponse:
    """Everyone at the tied table has taken one more turn (or, "done" 0, not yet): "pass",
    the passes finished as the phone saw them, makes a repeat of either do nothing."""
    return _table_call(
        request,
        token,
        services.extra_turns_done,
        DoneForm(request.POST),
        done="done",
        passes="pass",
    )


@csrf_exempt
@require_POST
def table_tiebreak(request: HttpRequest, token: str) -> HttpResponse:
    """Record who won the tie-break at this table."""
    return _table_call(
        request, token, services.tiebreak_record, SideForm(request.POST), side="side"
    )


# ---------------------------------------------------------------------------
# A player's own page (a secret link; no login)


def _attendance(token: str) -> Attendance:
    return get_object_or_404(
        Attendance.objects.select_related("night__group", "player", "substitute"), token=token
    )


@never_cache
@require_safe
def player_page(request: HttpRequest, token: str) -> HttpResponse:
    """A player's card round by round, and where to sit now or next."""
    attendance = _attendance(token)
    services.round_clock(night=attendance.night)
    page = player_pages.player_page(attendance)
    return render(request, "play/player.html", {"page": page, "token": token})


@never_cache
@require_GET
def player_state(request: HttpRequest, token: str) -> HttpResponse:
    """Poll: 204 when nothing changed, else the card fragment."""
    attendance = _attendance(token)
    if _unchanged(request, (attendance.night.version,)):
        return _no_change()
    page = player_pages.player_page(attendance)
    return render(request, "play/player.html#card", {"page": page, "token": token})


@require_safe
def player_rules(request: HttpRequest, token: str) -> HttpResponse:
    """How do we play? From a player's own link."""
    attendance = _attendance(token)
    return how_to_play_page(request, attendance.night, reverse("play:player", args=[token]))


@csrf_exempt
@require_POST
def player_clock(request: HttpRequest, token: str) -> HttpResponse:
    """The player's countdown reached zero: the server's clock decides."""
    return _clock_answer(_attendance(token).night)


# ---------------------------------------------------------------------------
# The host's pages


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
    """Whether a host's screen (live board, room screen) polling night ``pk`` shows its
    current versions. Only the host's nights count: for anyone else the night does not
    exist, and the view goes on to its 404."""
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
    """Poll for the live board. The host's poll also checks the clock of a timed round
    (docs/rules.md section 3.8), so the bell rings at the time even when no phone asks."""
    _host_clock(request, pk)
    if _host_screen_unchanged(request, pk):
        return _no_change()
    night = night_for_host(request.user, pk)
    update = board_update(night, request.GET.get("v", ""), "live")
    if update is not None:  # while a round is played: just the tables that changed
        return render(request, "play/live.html#changes", {"board": update, "night": night})
    return render(request, "play/live.html#whole", {"board": live_board(night), "night": night})


# ---------------------------------------------------------------------------
# The host's round controls: one address each, posted by the live board's buttons and
# the night page's next step. Each answers as a plain form is answered: back to the live
# board with what was done or why not, or the money question on a finished night.


def _round_control(request: HttpRequest, pk: int, act, form_class=MoneyOkForm) -> HttpResponse:
    """Parse the post with ``form_class`` and do ``act(night, data, by)``, which returns
    the words saying what was done (a ``ServiceError`` says why not)."""
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
        entry = actions.late_entry_decide(
            entry=entry, accept=accept, by=by, money_ok=data["money_ok"]
        )
        done = "Late entry counted." if accept else "Late entry discarded."
        return _said(done, entry.recomputed, entry.table.number)

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
    """The one address the round controls had before each had its own, kept for a page
    drawn before: its ``action`` names the control, which answers."""
    control = LIVE_ACTIONS.get(ControlForm(request.POST).parsed_action())
    if control is None:
        night = night_for_host(request.user, pk)
        return _host_answer(request, night, ServiceError("Unknown action.", "bad_action"))
    return control(request, pk)


def _round_of(night: Night, request: HttpRequest, posted: int | None = None) -> Round:
    """The round ``?round=`` names, else the one the post names, else the night's own."""
    number = _int(request.GET.get("round")) if request.GET.get("round") else posted
    rnd = night.rounds.filter(number=number).first() if number else night.current_round
    if rnd is None:
        raise Http404("No such round.")
    return rnd


def _said(done: str, recomputed: services.Recomputed | None, number: int) -> str:
    """The answer to a host's correction at table ``number``: ``done``, and, in a closed
    round, what it changed and what it did not (docs/rules.md section 6.2): the table's
    winner (and any other table's that changed), and the next round's seating."""
    if recomputed is None:
        return done
    said = [done]
    for winner in recomputed.winners:
        if winner.changed:
            said.append(f"Table {winner.number}'s winner is now {winner.name}.")
        elif winner.number == number:
            said.append(f"Table {winner.number}'s winner is still {winner.name}.")
    if recomputed.next_seating == services.SEATING_KEPT:
        said.append(
            f"Round {recomputed.next_round} had already started, seated from the old result: "
            "its seating stays as it is."
        )
    elif recomputed.next_seating == services.SEATING_DRAWN_AGAIN:
        # Seated by the movement, not drawn: a draw of that round is gone (section 4.4).
        again = f"Round {recomputed.next_round} was seated again from the corrected winners"
        if recomputed.draw_undo_lost:
            again += "; the draw can no longer be undone"
        said.append(f"{again}.")
    return " ".join(said)


@login_required
def table_fix(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """The host corrects a table's entries or winner, in any started round."""
    night = night_for_host(request.user, pk)
    table = get_object_or_404(Table, night=night, number=number)
    form = CorrectionForm(request.POST) if request.method == "POST" else None
    posted = form.cleaned_data["round"] if form is not None and form.is_valid() else None
    rnd = _round_of(night, request, posted)
    if form is not None:
        here = f"{reverse('play:table_fix', args=[night.pk, number])}?round={rnd.number}"
        try:
            data = form.parsed()
            action = data["action"]
            fix = {"table": table, "by": request.user, "money_ok": data["money_ok"]}
            if action == "undo":
                done = actions.entry_undo(entry_id=data["entry"], **fix)
            elif action == "put_back":
                done = actions.entry_put_back(entry_id=data["entry"], **fix)
            elif action == "add":
                done = actions.entry_add(rnd=rnd, **fix, **form.tap_fields())
            elif action == "winner":
                done = actions.winner_set(rnd=rnd, side=form.side_value(), **fix)
            elif action == "tiebreak":
                side = form.side_value()
                done = actions.tiebreak_record(side=-1 if side is None else side, rnd=rnd, **fix)
            else:
                raise ServiceError("Unknown action.", "bad_action")
            messages.success(request, _said("Saved.", done.recomputed, table.number))
        except MoneyChange as change:
            what = f"A correction to round {rnd.number} at table {table.number}"
            return money_change_page(request, change, back=here, what=what)
        except ServiceError as error:
            messages.error(request, error.message)
        return redirect(here)
    if rnd.is_pending:
        raise Http404("That round has not started.")
    here = table_round(rnd, table)
    if here is None:
        raise Http404("That table has no seats in this round.")
    rules = night.rules_obj
    entries = rnd.entries.filter(table=table).select_related("roller").order_by("created")
    return render(
        request,
        "play/table_fix.html",
        {
            "night": night,
            "rnd": rnd,
            "here": here,
            "entries": [(e, e.describe(rules)) for e in entries],
            "taps": taps(rules, rnd.mark),
            "rules": rules,
            "rounds": night.rounds.started(),
        },
    )


@login_required
@never_cache
@require_safe
def links(request: HttpRequest, pk: int) -> HttpResponse:
    """Every table's link and every player's own link, as QR codes to scan off the screen."""
    night = night_for_host(request.user, pk)
    absolute = phone_url(request)
    tables = [
        (t, url, qr_svg(url))
        for t in night.tables.filter(active=True)
        for url in [absolute(reverse("play:table", args=[t.token]))]
    ]
    players = [
        (a.plays, url, qr_svg(url))
        for a in night.attendances.select_related("player", "substitute")
        if a.plays is not None
        for url in [absolute(reverse("play:player", args=[a.token]))]
    ]
    players.sort(key=lambda row: row[0].name)
    return render(
        request,
        "play/links.html",
        {
            "night": night,
            "tables": tables,
            "players": players,
            "unreachable": unreachable_host(request),
        },
    )


@login_required
@require_POST
def table_link_renew(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """A table gets a new link; the old one stops working at once."""
    night = night_for_host(request.user, pk)
    table = get_object_or_404(Table, night=night, number=number)
    services.table_link_renew(table=table)
    messages.success(
        request,
        f"Table {number} has a new link: the old one no longer works. "
        "Scan the new code below, or print new table cards.",
    )
    return redirect("play:links", pk=night.pk)


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
    """Poll for the room screen; it checks the clock too. While a round is played, only
    the tables that changed are sent, as for the live board."""
    _host_clock(request, pk)
    if _host_screen_unchanged(request, pk):
        return _no_change()
    night = night_for_host(request.user, pk)
    update = board_update(night, request.GET.get("v", ""), "room")
    if update is not None:
        return render(request, "play/room.html#changes", {"board": update, "night": night})
    return render(request, "play/room.html#whole", _room_context(night))


@login_required
def standings(request: HttpRequest, pk: int) -> HttpResponse:
    """Prize standings with ties shown as ties, how the host broke them, and the payout."""
    night = night_for_host(request.user, pk)
    back = reverse("play:standings", args=[night.pk])
    if request.method == "POST":
        return _standings_post(request, night, PrizeTiebreakForm(request.POST), back)
    result = night_standings(night)
    rules = night.rules_obj
    context = {
        "night": night,
        "s": result,
        "rules": rules,
        "rules_label": PRESET_NAMES.get(rules.name, "The group's rules"),
    }
    return render(request, "play/standings.html", context)


def _standings_post(request: HttpRequest, night: Night, form, back: str) -> HttpResponse:
    """The door prize drawn, or a tied prize's tie-break recorded or cleared."""
    try:
        data = form.parsed()
    except ServiceError as error:
        messages.error(request, error.message)
        return redirect("play:standings", pk=night.pk)
    ok = data["money_ok"]
    if data["action"] == "door":
        try:
            actions.door_prize_draw(night=night, by=request.user, money_ok=ok)
        except MoneyChange as change:
            return money_change_page(request, change, back=back, what="Draw the door prize")
        messages.success(request, "Door prize drawn.")
        return redirect("play:standings", pk=night.pk)
    player_id = data["player"]
    player = Player.objects.filter(group=night.group, pk=player_id).first() if player_id else None
    try:
        actions.prize_tiebreak_record(
            night=night, code=data["code"], player=player, by=request.user, money_ok=ok
        )
        messages.success(request, "Tie-break recorded." if player else "Tie-break cleared.")
    except MoneyChange as change:
        what = f"{player.name} wins the tie-break" if player else "Clear the tie-break"
        return money_change_page(request, change, back=back, what=what)
    except ServiceError as error:
        messages.error(request, error.message)
    return redirect("play:standings", pk=night.pk)
