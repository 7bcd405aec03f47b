"""Tonight's list and dues on the night page; with htmx a change answers with its row and,
out of band, what it changes elsewhere."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_POST
from django_htmx.http import reswap, retarget

from bunco_night.core.errors import ServiceError
from bunco_night.core.forms import form_apply, form_message
from bunco_night.core.money import format_cents

from . import actions
from .forms import AskedForm, AttendanceForm, GuestForm, NewSubstituteForm
from .models import Attendance, Night, Payment
from .money import MoneyChange
from .money_pages import PAYMENT_HINT, money_change_context, money_change_page
from .pages import RowError, attendance_row_context, dues_row_context
from .selectors import attendance_of, dues_summary, free_substitutes, night_for_host
from .views import PAGE, _after_change, _refusal


def _table_numbers(night: Night) -> set[int]:
    return set(night.tables.values_list("number", flat=True))


def _new_tables(request: HttpRequest, night: Night, before: set[int]) -> list[int]:
    """The tables a change of who plays added (a plain POST is told in a message)."""
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
    """With htmx, the changed row (``attendance_pk``) or new one (``added``); the whole
    section when the free substitutes changed (``free_before``) or no row is concerned."""
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
        row_error=row_error,
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
    """htmx gets the dues line and the totals out of band; ``money_change`` asks first."""
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
    return _after_change(request, night, "dues", pay_error=pay_error, confirm_undo=confirm_undo)


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
    # A guest's row removed answers with the whole section: every picker offers them again.
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
    """The host took everything someone owes, earlier nights too (docs/rules.md 8.6)."""
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
