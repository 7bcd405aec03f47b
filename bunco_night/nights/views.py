"""The host's night page: attendance and substitutes, dues and the pot, seating, the TV chart.

Every form works as a plain POST that redirects back to its section. With htmx the
same POST answers with just the section that changed (django-template-partials);
an attendance change also refreshes dues and seating out of band, because who
plays decides who owes and clears a drawn seating.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from bunco_night.core.errors import ServiceError
from bunco_night.groups.forms import PRESET_NAMES, form_message, show_service_error
from bunco_night.groups.models import Group, Player
from bunco_night.groups.views import group_for_host
from bunco_night.rules.presets import FILL_GHOSTS

from . import services
from .forms import AttendanceForm, DrawForm, GuestForm, NewSubstituteForm, NightForm, SwapForm
from .models import Attendance, Night, Payment, Round, Seat

PAGE = "nights/night.html"


def night_for_host(request: HttpRequest, pk: int) -> Night:
    """The night ``pk`` if the logged-in user hosts its group, else a 404."""
    return get_object_or_404(
        Night.objects.select_related("group"), pk=pk, group__memberships__user=request.user
    )


def attendance_for_host(night: Night, attendance_pk: int) -> Attendance:
    """An attendance row of ``night``, else a 404."""
    return get_object_or_404(
        Attendance.objects.select_related("player", "substitute", "night__group"),
        pk=attendance_pk,
        night=night,
    )


def default_night_date(group: Group) -> dt.date:
    """Four weeks after the last night (so the same weekday), moved on a week at a time
    until it is not in the past; four weeks from today for a group's first night."""
    today = timezone.localdate()
    last = group.nights.order_by("-date").first()
    if last is None:
        return today + dt.timedelta(days=28)
    date = last.date + dt.timedelta(days=28)
    while date < today:
        date += dt.timedelta(days=7)
    return date


# Planning and editing a night -------------------------------------------------------


@login_required
@require_GET
def night_new(request: HttpRequest, slug: str) -> HttpResponse:
    """Plan a night: the form starts from the group's habits."""
    group = group_for_host(request, slug)
    last = group.nights.order_by("-date", "-pk").first()
    initial = {
        "date": default_night_date(group),
        "time": last.time if last else dt.time(19, 0),
        "place": last.place if last else "",
        "sets": group.rules_obj.sets_per_night,
    }
    return _night_form(request, group, NightForm(initial=initial), None)


@login_required
@require_POST
def night_create(request: HttpRequest, slug: str) -> HttpResponse:
    """Save the planned night; every active regular starts as coming."""
    group = group_for_host(request, slug)
    form = NightForm(request.POST)
    if form.is_valid():
        try:
            night = services.night_create(group=group, **form.cleaned_data)
        except ServiceError as error:
            show_service_error(form, error)
        else:
            messages.success(request, "Night planned. Every regular is down as coming.")
            return redirect(night)
    return _night_form(request, group, form, None)


@login_required
@require_GET
def night_edit(request: HttpRequest, pk: int) -> HttpResponse:
    """Change a night's date, time, place or sets."""
    night = night_for_host(request, pk)
    initial = {"date": night.date, "time": night.time, "place": night.place, "sets": night.sets}
    return _night_form(request, night.group, NightForm(initial=initial), night)


@login_required
@require_POST
def night_save(request: HttpRequest, pk: int) -> HttpResponse:
    """Save a night's changed date, time, place or sets."""
    night = night_for_host(request, pk)
    form = NightForm(request.POST)
    if form.is_valid():
        try:
            services.night_update(night=night, **form.cleaned_data)
        except ServiceError as error:
            show_service_error(form, error)
        else:
            messages.success(request, "Night saved.")
            return redirect(night)
    return _night_form(request, night.group, form, night)


def _night_form(request, group: Group, form: NightForm, night: Night | None) -> HttpResponse:
    if night is None:
        action = reverse("groups:night_create", args=[group.slug])
    else:
        action = reverse("nights:save", args=[night.pk])
    return render(
        request,
        "nights/night_form.html",
        {"group": group, "night": night, "form": form, "action": action},
    )


# The night page -----------------------------------------------------------------------


@dataclass
class AttendanceRow:
    """An attendance with the message of a change that failed on it, if any."""

    attendance: Attendance
    error: str = ""
    error_in: str = ""  # which of the row's forms failed: "status", "pick", "new" or "leave"
    typed: dict | None = None  # what was typed into the new-substitute form


@dataclass
class RowError:
    attendance_pk: int
    where: str
    message: str
    typed: dict | None = None


@dataclass
class DuesLine:
    """A dues row with its latest payment (to undo) and a refused payment's message."""

    row: services.DuesRow
    last_payment: Payment | None
    error: str = ""

    @property
    def overpaid_cents(self) -> int:
        """Paid beyond the dues."""
        return max(-self.row.balance_cents, 0)


def seating_round(night: Night) -> Round | None:
    """The round whose seating the host sees: the one being played, else the next one."""
    rounds = night.rounds.filter(status__in=[Round.PLAYING, Round.PENDING])
    return rounds.filter(status=Round.PLAYING).first() or rounds.order_by("number").first()


def night_context(
    night: Night,
    *,
    pick: str | None = None,
    row_error: RowError | None = None,
    guest_error: str = "",
    pay_error: RowError | None = None,
    draw_error: str = "",
    swap_error: str = "",
) -> dict:
    """Everything the night page and its sections show."""
    night.refresh_from_db()
    group = night.group
    attendances = list(night.attendances.select_related("player", "substitute"))
    rows = []
    for a in attendances:
        row = AttendanceRow(a)
        if row_error and row_error.attendance_pk == a.pk:
            row.error, row.error_in, row.typed = row_error.message, row_error.where, row_error.typed
        rows.append(row)
    on_list = {a.player_id for a in attendances} | {a.substitute_id for a in attendances}
    free = group.players.filter(retired=False).exclude(pk__in=on_list)

    summary = services.dues_summary(night)
    last_payment = {
        p.attendance_id: p
        for p in Payment.objects.filter(attendance__night=night).order_by("created", "pk")
    }
    dues_rows = [
        DuesLine(
            r,
            last_payment.get(r.attendance.pk),
            pay_error.message if pay_error and pay_error.attendance_pk == r.attendance.pk else "",
        )
        for r in summary.rows
        if r.owes_cents or r.paid_cents
    ]

    rnd = seating_round(night)
    chart = services.seating_chart(rnd) if rnd is not None else []
    pickable = bool(chart) and rnd.status == Round.PENDING
    seat_ids = {s.seat.pk for t in chart for s in t.seats}
    picked = int(pick) if pickable and pick and pick.isdigit() and int(pick) in seat_ids else None
    return {
        "night": night,
        "group": group,
        "rules_label": PRESET_NAMES.get(night.rules_obj.name, night.rules_obj.name),
        "rows": rows,
        "playing": sum(1 for a in attendances if a.plays is not None),
        "ghosts_fill": night.rules_obj.fill == FILL_GHOSTS,
        "has_played": night.rounds.filter(status=Round.CLOSED).exists(),
        "free_subs": free.filter(kind=Player.SUBSTITUTE),
        "free_players": free,
        "guest_error": guest_error,
        "summary": summary,
        "dues_rows": dues_rows,
        "round": rnd,
        "chart": chart,
        "pickable": pickable,
        "pick": picked,
        "redraw": rnd is not None and not chart,
        "draw_error": draw_error,
        "swap_error": swap_error,
    }


@login_required
@require_GET
def detail(request: HttpRequest, pk: int) -> HttpResponse:
    """A night: who comes, dues and the pot, and the seating."""
    night = night_for_host(request, pk)
    return render(request, PAGE, night_context(night, pick=request.GET.get("pick")))


def _after_change(
    request: HttpRequest, night: Night, section: str, partial: str, **errors
) -> HttpResponse:
    """htmx gets the changed section; a plain POST goes back to it, or sees the page
    again with the message if the change was refused."""
    if request.htmx:
        return render(request, f"{PAGE}#{partial}", night_context(night, **errors))
    if any(errors.values()):
        return render(request, PAGE, night_context(night, **errors))
    return redirect(f"{night.get_absolute_url()}#{section}")


def _after_attendance(request, night: Night, row_error: RowError | None = None, **errors):
    return _after_change(
        request, night, "attendance", "attendance_changed", row_error=row_error, **errors
    )


@login_required
@require_POST
def attendance_update(request: HttpRequest, pk: int, attendance_pk: int) -> HttpResponse:
    """A regular comes, sends a substitute from the list, or sends nobody."""
    night = night_for_host(request, pk)
    attendance = attendance_for_host(night, attendance_pk)
    form = AttendanceForm(request.POST, group=night.group)
    where = "pick" if request.POST.get("status") == Attendance.SENT_SUB else "status"
    message = ""
    if form.is_valid():
        try:
            services.attendance_set(
                attendance=attendance,
                status=form.cleaned_data["status"],
                substitute=form.cleaned_data["substitute"],
            )
        except ServiceError as error:
            message = error.message
    else:
        message = form_message(form)
    error = RowError(attendance.pk, where, message) if message else None
    return _after_attendance(request, night, error)


@login_required
@require_POST
def attendance_new_substitute(request: HttpRequest, pk: int, attendance_pk: int) -> HttpResponse:
    """A regular sends someone new: add them to the roster as a substitute and send them."""
    night = night_for_host(request, pk)
    attendance = attendance_for_host(night, attendance_pk)
    form = NewSubstituteForm(request.POST)
    message = ""
    if form.is_valid():
        try:
            services.attendance_send_new_substitute(attendance=attendance, **form.cleaned_data)
        except ServiceError as error:
            message = error.message
    else:
        message = form_message(form)
    typed = {k: request.POST.get(k, "") for k in ("name", "phone", "email")}
    error = RowError(attendance.pk, "new", message, typed) if message else None
    return _after_attendance(request, night, error)


@login_required
@require_POST
def attendance_leave(request: HttpRequest, pk: int, attendance_pk: int) -> HttpResponse:
    """Someone leaves between rounds, or a guest added by mistake is removed."""
    night = night_for_host(request, pk)
    attendance = attendance_for_host(night, attendance_pk)
    error = None
    try:
        services.attendance_leave(attendance=attendance)
    except ServiceError as exc:
        error = RowError(attendance.pk, "leave", exc.message)
    return _after_attendance(request, night, error)


@login_required
@require_POST
def guest_add(request: HttpRequest, pk: int) -> HttpResponse:
    """A late arrival from the roster joins tonight's list."""
    night = night_for_host(request, pk)
    form = GuestForm(request.POST, group=night.group)
    message = ""
    if form.is_valid():
        try:
            services.guest_add(night=night, player=form.cleaned_data["player"])
        except ServiceError as error:
            message = error.message
    else:
        message = form_message(form)
    return _after_attendance(request, night, guest_error=message)


@login_required
@require_POST
def payment_add(request: HttpRequest, pk: int, attendance_pk: int) -> HttpResponse:
    """The host took the night's dues from someone."""
    night = night_for_host(request, pk)
    attendance = attendance_for_host(night, attendance_pk)
    error = None
    try:
        services.payment_record(
            attendance=attendance,
            amount_cents=night.dues_cents,
            nonce=request.POST.get("nonce") or None,
        )
    except ServiceError as exc:
        error = RowError(attendance.pk, "pay", exc.message)
    return _after_change(request, night, "dues", "dues", pay_error=error)


@login_required
@require_POST
def payment_undo(request: HttpRequest, pk: int, payment_pk: int) -> HttpResponse:
    """Take back a payment entered by mistake."""
    night = night_for_host(request, pk)
    payment = get_object_or_404(Payment, pk=payment_pk, attendance__night=night)
    services.payment_undo(payment=payment)
    return _after_change(request, night, "dues", "dues")


@login_required
@require_GET
def seating(request: HttpRequest, pk: int) -> HttpResponse:
    """The seating section, with a seat picked for a swap (``?pick=<seat>``)."""
    night = night_for_host(request, pk)
    pick = request.GET.get("pick", "")
    if request.htmx:
        return render(request, f"{PAGE}#seating", night_context(night, pick=pick))
    query = f"?pick={pick}" if pick.isdigit() else ""
    return redirect(f"{night.get_absolute_url()}{query}#seating")


@login_required
@require_POST
def seating_draw(request: HttpRequest, pk: int) -> HttpResponse:
    """Seat everyone at random for the next round; a seed repeats a draw exactly."""
    night = night_for_host(request, pk)
    form = DrawForm(request.POST)
    message = ""
    if form.is_valid():
        try:
            services.seating_draw(night=night, seed=form.cleaned_data["seed"])
        except ServiceError as error:
            message = error.message
    else:
        message = form_message(form)
    return _after_change(request, night, "seating", "seating", draw_error=message)


@login_required
@require_POST
def seating_swap(request: HttpRequest, pk: int) -> HttpResponse:
    """Arrange by hand: swap two seats of the next round."""
    night = night_for_host(request, pk)
    form = SwapForm(request.POST)
    message = ""
    if form.is_valid():
        seats = Seat.objects.filter(round__night=night)
        seat_a = get_object_or_404(seats, pk=form.cleaned_data["seat_a"])
        seat_b = get_object_or_404(seats, pk=form.cleaned_data["seat_b"])
        try:
            services.seating_swap(seat_a=seat_a, seat_b=seat_b)
        except ServiceError as error:
            message = error.message
    else:
        message = form_message(form)
    return _after_change(request, night, "seating", "seating", swap_error=message)


@login_required
@require_GET
def seating_tv(request: HttpRequest, pk: int) -> HttpResponse:
    """The seating chart full screen for a TV; it checks for a new draw every few seconds."""
    night = night_for_host(request, pk)
    rnd = seating_round(night)
    context = {
        "night": night,
        "round": rnd,
        "chart": services.seating_chart(rnd) if rnd is not None else [],
    }
    template = "nights/tv.html#tv_chart" if request.htmx else "nights/tv.html"
    return render(request, template, context)
