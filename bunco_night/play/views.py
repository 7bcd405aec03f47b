"""The table phone's views (a secret link, no login), and the shared poll answers."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST, require_safe

from bunco_night.core.errors import ServiceError
from bunco_night.core.speed.compiled import Compiled, as_health_check
from bunco_night.nights.models import Night, Table
from bunco_night.nights.selectors import night_rules_explained
from bunco_night.rules.presets import PRESET_NAMES

from . import pages, services
from .forms import DoneForm, EntryForm, SideForm, TapForm
from .speed.boards import render_board


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


_TABLE_BY_TOKEN = Compiled(
    lambda token: Table.objects.select_related("night__group").filter(token=token)[:1], "TOKEN"
)


def _table(token: str) -> Table:
    """The table a phone's link names, with night and group, else a 404."""
    table = as_health_check(lambda: _TABLE_BY_TOKEN.instance(token))
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
    """Poll: 204 when nothing changed, else the board fragment."""
    table = _table(token)
    if _unchanged(request, (table.night.version, table.version)):
        return _no_change()
    return HttpResponse(render_board(request, pages.table_page(table), token))


@never_cache
@require_GET
def table_moves(request: HttpRequest, token: str) -> HttpResponse:
    """The page's ``#missed-moves`` (``pages.moves_missed``), or 204."""
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
    """JSON for the phone's queue (a late tap is acknowledged as late; ``board``: as the
    write left it), a redirect for a plain form."""
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
    """Call ``service`` for the link's table with ``fields`` (argument: form field)."""
    try:
        table = _table(token)
        data = form.parsed()
        service(table=table, **{arg: data[name] for arg, name in fields.items()})
    except ServiceError as error:
        return _table_answer(request, token, error)
    return _table_answer(request, token)


def _round_named(form: TapForm) -> int:
    """The round a tap's buttons were drawn for (docs/rules.md section 2.3); 0 if none."""
    number = form.parsed()["round"]
    if number is None:
        raise ServiceError(
            "This tap does not say which round it is for: reload the page.", "no_round_named"
        )
    return number


# A capability URL (a secret in the path), no cookie: CSRF does not apply; taps may queue.
@csrf_exempt
@require_POST
def table_entry(request: HttpRequest, token: str) -> HttpResponse:
    """One tap; the phone's queue gets the board as the tap left it."""
    form = TapForm(request.POST)
    table = _table(token)
    # Read before the tap: a board's version may be older than it shows, never newer.
    night_version = table.night.version
    try:
        done = services.entry_record(
            table=table, dice=form.dice(), round_number=_round_named(form), **form.tap_fields()
        )
    except ServiceError as error:
        return _table_answer(request, token, error)
    board = None
    if _wants_json(request):
        if done.table_after is not None:
            page = pages.table_page(
                table,
                playing=(done.entry.round, done.table_after),
                version=f"{night_version}.{table.version}",
                late_waiting=done.late_waiting,
            )
        else:  # a retry, or a tap for a round that has ended: read the table afresh
            page = pages.table_page(_table(token))
        board = render_board(request, page, token)
    return _table_answer(request, token, late=done.entry.is_late, board=board)


def _clock_answer(night: Night) -> JsonResponse:
    """Seconds left by the server's clock, or null with no timed round in play."""
    return JsonResponse({"seconds_left": services.round_clock(night=night)})


# A capability URL like the taps; it only rings a bell the rules ring (docs/rules.md 3.8).
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
    """Extra turns done (or, "done" 0, not yet); "pass" makes a repeat do nothing."""
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
