"""Planning, editing and deleting a night."""

from __future__ import annotations

import datetime as dt

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST, require_safe

from bunco_night.core.errors import Gone, ServiceError
from bunco_night.core.forms import form_apply
from bunco_night.groups.models import Group
from bunco_night.groups.selectors import group_for_host, hosting_turn_on

from . import actions, services
from .forms import AskedForm, NightForm
from .models import Night
from .selectors import delete_refusal, night_for_host, plan_doubts, sets_change_effects

# Days few groups would meet on (month, day): a default date on one moves a week on.
NO_NIGHT_DAYS = {(12, 24), (12, 25), (12, 31), (1, 1)}


def next_night_date(last: dt.date | None, today: dt.date) -> dt.date:
    """A new night's default date: four weeks after ``last``, in weeks until not past (a
    week from ``today`` for a first night), never in ``NO_NIGHT_DAYS``."""
    if last is None or last > today + dt.timedelta(days=3650):
        date = today + dt.timedelta(days=7)
    else:
        date = last + dt.timedelta(days=28)
    while date < today or (date.month, date.day) in NO_NIGHT_DAYS:
        date += dt.timedelta(days=7)
    return date


def default_night_date(group: Group) -> dt.date:
    """The new night's date for ``group`` (``next_night_date``), from its last night."""
    last = group.nights.order_by("-date").values_list("date", flat=True).first()
    return next_night_date(last, timezone.localdate())


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
        doubts = plan_doubts(group, date, timezone.localdate())
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


# The nights this browser deleted: a Yes sent again is told so (others are a 404).
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
    """The night's form, with a question first for ``effects``, ``deleting`` or ``doubts``;
    ``turn``: the hosting turn its place comes from."""
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
