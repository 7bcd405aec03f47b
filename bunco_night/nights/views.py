"""The host's night page and its seating; a form's POST redirects back to its section (with
htmx: answers with the section)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST, require_safe

from bunco_night.core.errors import ServiceError
from bunco_night.core.forms import form_apply, form_message, whole_number

from . import actions
from .forms import AskedForm, DrawForm, SwapForm
from .history import night_history
from .models import Night, Seat
from .pages import night_context, tv_pages
from .seat_tags import tagged
from .selectors import night_for_host, redraw_replaces, seated_tables, seating_round

PAGE = "nights/night.html"


@login_required
@require_safe
def detail(request: HttpRequest, pk: int) -> HttpResponse:
    """A night: who comes, dues and the pot, and the seating."""
    night = night_for_host(request.user, pk)
    context = night_context(night, today=timezone.localdate(), pick=request.GET.get("pick"))
    return render(request, PAGE, context)


def _after_change(request: HttpRequest, night: Night, section: str, **errors) -> HttpResponse:
    """htmx gets the changed section (``section``_changed: with what it changes elsewhere);
    a plain POST is redirected or shown the refusal."""
    if request.htmx:
        return render(request, f"{PAGE}#{section}_changed", night_context(night, **errors))
    if any(errors.values()):
        return render(request, PAGE, night_context(night, today=timezone.localdate(), **errors))
    return redirect(f"{night.get_absolute_url()}#{section}")


def _refusal(form, action) -> str:
    """Run ``action`` with the form's data; '' when it was done, else why not in one sentence."""
    form_apply(form, action)
    return form_message(form)


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
    """Seat everyone at random for the next round (asking first after a round played)."""
    night = night_for_host(request.user, pk)
    replaces = redraw_replaces(night)
    form = DrawForm(request.POST)
    # A seed shown again (asked first, or refused) is what was typed, as typed.
    typed_seed = form["seed"].value() or ""
    if replaces and not AskedForm(request.POST).said_yes:
        return _after_change(request, night, "seating", confirm_draw=replaces, draw_seed=typed_seed)
    message = _refusal(
        form, lambda data: actions.seating_draw(night=night, by=request.user, **data)
    )
    # A refused seed stays in its box, for the host to mend rather than type again.
    seed = typed_seed if message else ""
    return _after_change(request, night, "seating", draw_error=message, draw_seed=seed)


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
    return _after_change(request, night, "seating", draw_error=message)


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
    return _after_change(request, night, "seating", swap_error=message)


@login_required
@require_safe
def seating_tv(request: HttpRequest, pk: int) -> HttpResponse:
    """The seating chart full screen for a TV, in pages that turn."""
    night = night_for_host(request.user, pk)
    rnd = seating_round(night)
    chart = tagged(night, seated_tables(rnd)) if rnd is not None else []
    context = {"night": night, "round": rnd, "pages": tv_pages(chart)}
    template = "nights/tv.html#tv_chart" if request.htmx else "nights/tv.html"
    return render(request, template, context)


@login_required
@require_safe
def history(request: HttpRequest, pk: int) -> HttpResponse:
    """The night's history, newest first (docs/rules.md section 6.6); htmx: the list alone."""
    night = night_for_host(request.user, pk)
    if request.htmx:
        context = {
            "night": night,
            "history": night_history(night),
            "history_count": night.actions.count(),
        }
        return render(request, "nights/_history.html#history_opened", context)
    return redirect(f"{night.get_absolute_url()}#history")
