"""The host's night page: attendance and substitutes, dues and the pot, seating, the TV
chart.

Every form works as a plain POST that redirects back to its section. With htmx the same
POST answers with just the section that changed (django-template-partials). A change in
one attendance row answers with that row, and a late arrival with their new row put in
its place, and out of band with what it changes elsewhere: the count playing, the row's
dues and the dues totals, and the seating when there is one (who plays re-seats it); a
charity night's whole page is hundreds of kilobytes, too much to send for a tap.
"""

from __future__ import annotations

import datetime as dt

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST, require_safe
from django_htmx.http import reswap, retarget

from bunco_night.core.errors import Gone, ServiceError
from bunco_night.core.forms import form_apply, form_message, whole_number
from bunco_night.core.money import format_cents
from bunco_night.groups.models import Group
from bunco_night.groups.selectors import group_for_host, hosting_turn_on

from . import actions, services
from .forms import (
    AskedForm,
    AttendanceForm,
    DrawForm,
    GuestForm,
    NewSubstituteForm,
    NightForm,
    SwapForm,
)
from .history import night_history
from .models import Attendance, Night, Payment, Seat
from .money import MoneyChange
from .money_pages import PAYMENT_HINT, money_change_context, money_change_page
from .pages import RowError, attendance_row_context, dues_row_context, night_context, tv_pages
from .selectors import (
    attendance_of,
    delete_refusal,
    dues_summary,
    free_substitutes,
    night_for_host,
    plan_doubts,
    redraw_replaces,
    seated_tables,
    seating_round,
    sets_change_effects,
)

PAGE = "nights/night.html"


def planning_today() -> dt.date:
    """Today, where the group is (``TIME_ZONE``), for what may be a slip in a night's date;
    the tests pin it (tests/conftest.py), as their dates were written on one day."""
    return timezone.localdate()


# Days few groups would meet on (month, day): a default date on one moves a week on.
NO_NIGHT_DAYS = {(12, 24), (12, 25), (12, 31), (1, 1)}


def next_night_date(last: dt.date | None, today: dt.date) -> dt.date:
    """The date a new night's form starts with: four weeks after the ``last`` night (so
    the same weekday), moved on a week at a time until it is not in the past; a week from
    ``today`` for a group's first night. Never on a day in ``NO_NIGHT_DAYS`` (a week on)."""
    if last is None or last > today + dt.timedelta(days=3650):
        # A first night, or the last one is (mis)dated far away: a week from today.
        date = today + dt.timedelta(days=7)
    else:
        date = last + dt.timedelta(days=28)
    while date < today or (date.month, date.day) in NO_NIGHT_DAYS:
        date += dt.timedelta(days=7)
    return date


def default_night_date(group: Group) -> dt.date:
    """The new night's date for ``group`` (``next_night_date``), from its last night."""
    last = group.nights.order_by("-date").values_list("date", flat=True).first()
    return next_night_date(last, planning_today())


# Planning and editing a night -------------------------------------------------------


@login_required
@require_safe
def night_new(request: HttpRequest, slug: str) -> HttpResponse:
    """Plan a night: the form starts from the group's habits."""
    group = group_for_host(request.user, slug)
    last = group.nights.order_by("-date", "-pk").first()
    date = default_night_date(group)
    turn = hosting_turn_on(group, date)
    initial = {
        "date": date,
        "time": last.time if last else dt.time(19, 0),
        # Where the rotation says, or empty: last month's host is not this month's.
        "place": turn.where if turn else "",
        "sets": group.rules_obj.sets_per_night,
    }
    form = NightForm(initial=initial, rules=group.rules_obj)
    return _night_form(request, group, form, None, turn=turn)


@login_required
@require_POST
def night_create(request: HttpRequest, slug: str) -> HttpResponse:
    """Save the planned night; every active regular starts as coming."""
    group = group_for_host(request.user, slug)
    form, asked = NightForm(request.POST, rules=group.rules_obj), AskedForm(request.POST)
    nonce = asked.get("nonce")
    sent_again = nonce is not None and group.nights.filter(nonce=nonce).exists()
    if form.is_valid() and not sent_again:
        date = form.cleaned_data["date"]
        doubts = plan_doubts(group, date, planning_today())
        if doubts and asked.get("confirmed_date") != date.isoformat():
            return _night_form(request, group, form, None, doubts=doubts)
    night = form_apply(form, lambda data: services.night_create(group=group, nonce=nonce, **data))
    if not form.errors:
        if getattr(night, "planned_before", False):
            messages.info(
                request, "This form planned this night already: change it with Edit night."
            )
        else:
            messages.success(request, "Night planned. Every regular is down as coming.")
        return redirect(night)
    return _night_form(request, group, form, None)


@login_required
@require_safe
def night_edit(request: HttpRequest, pk: int) -> HttpResponse:
    """Change a night's date, time, place or sets."""
    night = night_for_host(request.user, pk)
    return _night_form(request, night.group, _edit_form(night), night)


def _edit_form(night: Night) -> NightForm:
    """The form to change ``night``, filled in as it is."""
    initial = {"date": night.date, "time": night.time, "place": night.place, "sets": night.sets}
    return NightForm(initial=initial, rules=night.rules_obj)


@login_required
@require_POST
def night_save(request: HttpRequest, pk: int) -> HttpResponse:
    """Save a night's changed date, time, place or sets."""
    night = night_for_host(request.user, pk)
    form = NightForm(request.POST, rules=night.rules_obj)
    if form.is_valid() and not AskedForm(request.POST).said_yes:
        effects = sets_change_effects(night, form.cleaned_data["sets"])
        if effects:
            return _night_form(request, night.group, form, night, effects=effects)
    form_apply(form, lambda data: actions.night_update(night=night, by=request.user, **data))
    if not form.errors:
        messages.success(request, "Night saved.")
        return redirect(night)
    return _night_form(request, night.group, form, night)


# The nights this browser's host deleted: a Yes sent again (the back button, a second tap)
# is told so. Any other missing night is a 404, as for another host's.
DELETED = "deleted_nights"


@login_required
@require_POST
def night_delete(request: HttpRequest, pk: int) -> HttpResponse:
    """Delete a night that will not happen, once the host has said yes."""
    if pk in request.session.get(DELETED, []) and not Night.objects.filter(pk=pk).exists():
        return _deleted_already(request)
    night = night_for_host(request.user, pk)
    if not AskedForm(request.POST).said_yes:
        return _night_form(request, night.group, _edit_form(night), night, deleting=True)
    try:
        services.night_delete(night=night)
    except Gone:  # deleted by another tap of Yes meanwhile
        return _deleted_already(request)
    except ServiceError as error:
        messages.error(request, error.message)
        return redirect("nights:edit", pk=night.pk)
    request.session[DELETED] = [*request.session.get(DELETED, [])[-9:], pk]
    messages.success(request, f"The night of {night.date:%A, %B} {night.date.day} is deleted.")
    return redirect(night.group)


def _deleted_already(request: HttpRequest) -> HttpResponse:
    messages.info(request, "That night is already deleted.")
    return redirect("groups:index")


def _night_form(
    request,
    group: Group,
    form: NightForm,
    night: Night | None,
    effects: list[str] = (),
    turn=None,
    deleting: bool = False,
    doubts: list[str] = (),
) -> HttpResponse:
    """The night's form; with ``effects``, first a question: the change does these things;
    ``deleting``, first the question whether to delete the night. ``turn`` is the season's
    hosting turn the new night's place comes from. ``doubts``: why the date may be a slip,
    asked before a new night is planned (``plan_doubts``)."""
    if night is None:
        action = reverse("nights:create", args=[group.slug])
    else:
        action = reverse("nights:save", args=[night.pk])
    context = {
        "group": group,
        "night": night,
        "form": form,
        "action": action,
        "effects": effects,
        "turn": turn,
        "doubts": doubts,
    }
    if night is not None:
        context["refusal"] = delete_refusal(night)
    if deleting:  # what goes with the night
        context["deleting"] = {
            "listed": night.attendances.count(),
            "answered": night.attendances.filter(answer__isnull=False).count(),
            "seated": night.rounds.exists(),
        }
    return render(request, "nights/night_form.html", context)


# The night page -----------------------------------------------------------------------


@login_required
@require_safe
def detail(request: HttpRequest, pk: int) -> HttpResponse:
    """A night: who comes, dues and the pot, and the seating."""
    night = night_for_host(request.user, pk)
    context = night_context(night, today=planning_today(), pick=request.GET.get("pick"))
    return render(request, PAGE, context)


def _after_change(
    request: HttpRequest, night: Night, section: str, partial: str, **errors
) -> HttpResponse:
    """htmx gets the changed section; a plain POST goes back to it, or sees the page
    again with the message if the change was refused."""
    if request.htmx:
        return render(request, f"{PAGE}#{partial}", night_context(night, **errors))
    if any(errors.values()):
        return render(request, PAGE, night_context(night, today=planning_today(), **errors))
    return redirect(f"{night.get_absolute_url()}#{section}")


def _table_numbers(night: Night) -> set[int]:
    return set(night.tables.values_list("number", flat=True))


def _new_tables(request: HttpRequest, night: Night, before: set[int]) -> list[int]:
    """The tables a change of who plays added to the seating: each needs its card or QR
    code at the table. A plain POST is told in a message, as it is redirected."""
    new = sorted(_table_numbers(night) - before)
    if new and not request.htmx:
        names = " and ".join(f"Table {n}" for n in new)
        its = (
            "is new: print its card or show its QR code"
            if len(new) == 1
            else ("are new: print their cards or show their QR codes")
        )
        messages.info(request, f"{names} {its} (Print, or Table links & QR).")
    return new


def _after_attendance(
    request,
    night: Night,
    row_error: RowError | None = None,
    *,
    attendance_pk: int | None = None,
    added: bool = False,
    new_tables: list[int] = (),
    free_before: set[int] | None = None,
    **errors,
):
    """With htmx, a change in one row (``attendance_pk``) answers with that row, and a
    late arrival (``added``) with their new row, put in its place in the list; a change
    that took or freed a substitute (``free_before`` is the free substitutes before it),
    a guest's row removed, or a refusal not tied to a row, with the whole attendance
    section, whose every row's substitute picker offers the substitutes still free."""
    if free_before is not None and free_substitutes(night) != free_before:
        attendance_pk = None
    context = None
    if request.htmx and attendance_pk is not None:
        context = attendance_row_context(night, attendance_pk, row_error=row_error, added=added)
    if context is not None:
        context["new_tables"] = new_tables
        response = render(request, f"{PAGE}#att_row_changed", context)
        if added:  # the form targets the section: the row goes in before the next one
            if context["after"] is None:
                return reswap(retarget(response, "#att-list"), "beforeend")
            return reswap(retarget(response, f"#att-{context['after']}"), "beforebegin")
        return response
    response = _after_change(
        request,
        night,
        "attendance",
        "attendance_changed",
        row_error=row_error,
        # A plain POST was told in a message: the page it is redirected to has no notice.
        new_tables=new_tables if request.htmx else (),
        **errors,
    )
    if request.htmx:  # a row's form targets its row: the section replaces the section
        response = reswap(retarget(response, "#attendance"), "outerHTML")
    return response


def _after_payment(
    request,
    night: Night,
    attendance_pk: int,
    pay_error: RowError | None = None,
    confirm_undo: int | None = None,
    money_change: MoneyChange | None = None,
    what: str = "",
) -> HttpResponse:
    """htmx gets the attendance's dues line, and the dues totals out of band. A payment on
    a finished night that needs the host's yes (``money_change``) asks in the dues line
    (htmx), or on a page of its own."""
    back = f"{night.get_absolute_url()}#dues-{attendance_pk}"
    if money_change is not None and not request.htmx:
        return money_change_page(request, money_change, back=back, what=what, hint=PAYMENT_HINT)
    if request.htmx:
        context = dues_row_context(
            night,
            attendance_pk,
            pay_error=pay_error.message if pay_error else "",
            confirm_undo=confirm_undo,
        )
        if money_change is not None:
            context |= money_change_context(
                request, money_change, back=back, what=what, hint=PAYMENT_HINT
            )
            context |= {
                "hx": True,
                "hx_back": night.get_absolute_url(),
                "hx_select": f"#dues-{attendance_pk}",
            }
        return render(request, f"{PAGE}#dues_row_changed", context)
    return _after_change(
        request, night, "dues", "dues", pay_error=pay_error, confirm_undo=confirm_undo
    )


def _refusal(form, action) -> str:
    """Run ``action`` with the form's data; '' when it was done, else why not in one sentence."""
    form_apply(form, action)
    return form_message(form)


def _row_error(attendance: Attendance, where: str, message: str, typed=None) -> RowError | None:
    return RowError(attendance.pk, where, message, typed) if message else None


@login_required
@require_POST
def attendance_update(request: HttpRequest, pk: int, attendance_pk: int) -> HttpResponse:
    """A regular comes, sends a substitute from the list, or sends nobody."""
    night = night_for_host(request.user, pk)
    attendance = attendance_of(night, attendance_pk)
    form = AttendanceForm(request.POST, group=night.group)
    where = "pick" if form["status"].value() == Attendance.Status.SENT_SUB else "status"
    before, free_before = _table_numbers(night), free_substitutes(night)
    message = _refusal(
        form, lambda data: actions.attendance_set(attendance=attendance, by=request.user, **data)
    )
    return _after_attendance(
        request,
        night,
        _row_error(attendance, where, message),
        attendance_pk=attendance.pk,
        new_tables=_new_tables(request, night, before),
        free_before=free_before,
    )


@login_required
@require_POST
def attendance_new_substitute(request: HttpRequest, pk: int, attendance_pk: int) -> HttpResponse:
    """A regular sends someone new: add them to the roster as a substitute and send them."""
    night = night_for_host(request.user, pk)
    attendance = attendance_of(night, attendance_pk)
    form = NewSubstituteForm(request.POST)
    free_before = free_substitutes(night)
    message = _refusal(
        form,
        lambda data: actions.attendance_send_new_substitute(
            attendance=attendance, by=request.user, **data
        ),
    )
    typed = {k: form[k].value() or "" for k in ("name", "phone", "email")}
    error = _row_error(attendance, "new", message, typed)
    if error is not None:  # the inputs it is about; a refusal of the whole form is the name's
        error.fields = frozenset(set(form.errors) & {"name", "phone"} or {"name"})
    return _after_attendance(
        request, night, error, attendance_pk=attendance.pk, free_before=free_before
    )


@login_required
@require_POST
def attendance_leave(request: HttpRequest, pk: int, attendance_pk: int) -> HttpResponse:
    """Someone leaves between rounds, or a guest added by mistake is removed."""
    night = night_for_host(request.user, pk)
    attendance = attendance_of(night, attendance_pk)
    free_before = free_substitutes(night)
    message = ""
    try:
        actions.attendance_leave(attendance=attendance, by=request.user)
    except ServiceError as error:
        message = error.message
    # A guest's row removed forgets its pk (``attendance_pk`` is it), and answers with the
    # whole section: a guest is a substitute, whom every row's picker offers again.
    error = RowError(attendance_pk, "leave", message) if message else None
    return _after_attendance(
        request, night, error, attendance_pk=attendance_pk, free_before=free_before
    )


@login_required
@require_POST
def guest_add(request: HttpRequest, pk: int) -> HttpResponse:
    """A late arrival from the roster, or someone new, joins tonight's list."""
    night = night_for_host(request.user, pk)
    form = GuestForm(request.POST, group=night.group)
    before, free_before = _table_numbers(night), free_substitutes(night)
    added = form_apply(form, lambda data: actions.guest_add(night=night, by=request.user, **data))
    new_tables = _new_tables(request, night, before)
    if added is None:
        return _after_attendance(request, night, guest_error=form_message(form))
    return _after_attendance(
        request,
        night,
        attendance_pk=added.pk,
        added=True,
        new_tables=new_tables,
        free_before=free_before,
    )


@login_required
@require_POST
def payment_add(request: HttpRequest, pk: int, attendance_pk: int) -> HttpResponse:
    """The host took the night's dues from someone."""
    night = night_for_host(request.user, pk)
    attendance = attendance_of(night, attendance_pk)
    return _pay(request, night, attendance, night.dues_cents)


def _pay(request, night: Night, attendance: Attendance, cents: int) -> HttpResponse:
    """Record ``cents`` paid for ``attendance``, as the host's form says."""
    error = change = None
    asked = AskedForm(request.POST)
    try:
        actions.payment_record(
            attendance=attendance,
            amount_cents=cents,
            by=request.user,
            nonce=asked.get("nonce"),
            last_seen=asked.get("last_seen"),
            money_ok=asked.get("money_ok"),
        )
    except MoneyChange as exc:
        change = exc
    except ServiceError as exc:
        error = RowError(attendance.pk, "pay", exc.message)
    what = f"Mark {format_cents(cents)} paid for {attendance.player.name}"
    return _after_payment(
        request, night, attendance.pk, pay_error=error, money_change=change, what=what
    )


@login_required
@require_POST
def payment_add_due(request: HttpRequest, pk: int, attendance_pk: int) -> HttpResponse:
    """The host took everything someone owes: tonight's dues and what earlier nights carried
    (docs/rules.md section 8.6)."""
    night = night_for_host(request.user, pk)
    attendance = attendance_of(night, attendance_pk)
    due = next(
        (r.due_cents for r in dues_summary(night).rows if r.attendance.pk == attendance.pk), 0
    )
    return _pay(request, night, attendance, due)


@login_required
@require_POST
def payment_undo(request: HttpRequest, pk: int, payment_pk: int) -> HttpResponse:
    """Take back a payment entered by mistake, once the host has said yes."""
    night = night_for_host(request.user, pk)
    payment = Payment.objects.filter(pk=payment_pk, attendance__night=night).first()
    asked = AskedForm(request.POST)
    if payment is None:  # taken back already, from a page out of date: show the row as it is
        attendance = attendance_of(night, asked.get("attendance") or 0)
        gone = "That payment is already taken back (in another tab, or by a co-host)."
        return _after_payment(
            request, night, attendance.pk, pay_error=RowError(attendance.pk, "pay", gone)
        )
    # On a finished night the question is the one about its money, which says it all.
    if not asked.said_yes and not night.is_over:
        return _after_payment(request, night, payment.attendance_id, confirm_undo=payment.pk)
    try:
        actions.payment_undo(payment=payment, by=request.user, money_ok=asked.get("money_ok"))
    except MoneyChange as change:
        paid = format_cents(payment.amount_cents)
        what = f"Take back {paid} paid for {payment.attendance.player.name}"
        return _after_payment(request, night, payment.attendance_id, money_change=change, what=what)
    return _after_payment(request, night, payment.attendance_id)


@login_required
@require_safe
def seating(request: HttpRequest, pk: int) -> HttpResponse:
    """The seating section, with a seat picked for a swap (``?pick=<seat>``)."""
    night = night_for_host(request.user, pk)
    pick = request.GET.get("pick", "")
    if request.htmx:
        return render(request, f"{PAGE}#seating", night_context(night, pick=pick))
    query = f"?pick={whole_number(pick)}" if whole_number(pick) is not None else ""
    return redirect(f"{night.get_absolute_url()}{query}#seating")


@login_required
@require_POST
def seating_draw(request: HttpRequest, pk: int) -> HttpResponse:
    """Seat everyone at random for the next round; a seed repeats a draw exactly.

    After a round has been played this replaces the movement's seating, so the host is
    asked first (the draw can be taken back until the round starts)."""
    night = night_for_host(request.user, pk)
    replaces = redraw_replaces(night)
    form = DrawForm(request.POST)
    # A seed shown again (asked first, or refused) is what was typed, as typed.
    typed_seed = form["seed"].value() or ""
    if replaces and not AskedForm(request.POST).said_yes:
        return _after_change(
            request, night, "seating", "seating", confirm_draw=replaces, draw_seed=typed_seed
        )
    message = _refusal(
        form, lambda data: actions.seating_draw(night=night, by=request.user, **data)
    )
    # A refused seed stays in its box, for the host to mend rather than type again.
    seed = typed_seed if message else ""
    return _after_change(request, night, "seating", "seating", draw_error=message, draw_seed=seed)


@login_required
@require_POST
def seating_draw_undo(request: HttpRequest, pk: int) -> HttpResponse:
    """Take back the last draw and put the seating it replaced back."""
    night = night_for_host(request.user, pk)
    message = ""
    try:
        actions.seating_draw_undo(night=night, by=request.user)
    except ServiceError as error:
        message = error.message
    return _after_change(request, night, "seating", "seating", draw_error=message)


@login_required
@require_POST
def seating_swap(request: HttpRequest, pk: int) -> HttpResponse:
    """Arrange by hand: swap two seats of the next round."""
    night = night_for_host(request.user, pk)
    form = SwapForm(request.POST)

    def swap(data: dict) -> None:
        seats = Seat.objects.filter(round__night=night)
        actions.seating_swap(
            seat_a=get_object_or_404(seats, pk=data["seat_a"]),
            seat_b=get_object_or_404(seats, pk=data["seat_b"]),
            by=request.user,
        )

    message = _refusal(form, swap)
    return _after_change(request, night, "seating", "seating", swap_error=message)


@login_required
@require_safe
def seating_tv(request: HttpRequest, pk: int) -> HttpResponse:
    """The seating chart full screen for a TV, in pages that turn by themselves when it has
    too many tables for one screen; it checks for a new draw every few seconds."""
    night = night_for_host(request.user, pk)
    rnd = seating_round(night)
    chart = seated_tables(rnd) if rnd is not None else []
    context = {"night": night, "round": rnd, "pages": tv_pages(chart)}
    template = "nights/tv.html#tv_chart" if request.htmx else "nights/tv.html"
    return render(request, template, context)


@login_required
@require_safe
def history(request: HttpRequest, pk: int) -> HttpResponse:
    """The night's history, newest first (docs/rules.md section 6.6): the list alone for
    the night page's History section as it opens, else the night page at that section."""
    night = night_for_host(request.user, pk)
    if request.htmx:
        context = {"night": night, "history": night_history(night)}
        return render(request, "nights/_history.html#history_list", context)
    return redirect(f"{night.get_absolute_url()}#history")
