"""The host's pages for a group: the dashboard, the group hub, roster, rules and prizes.

Every page needs a login, and a group is found only among the groups its user hosts:
anyone else gets a 404, so a stranger cannot even learn that a group exists.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from bunco_night.core.errors import ServiceError
from bunco_night.nights.models import Attendance, Night

from . import services
from .forms import (
    PRESET_LABELS,
    PRESET_NAMES,
    RULE_ERROR_FIELDS,
    DuesForm,
    GroupForm,
    PlayerForm,
    PresetForm,
    PrizesForm,
    RulesForm,
    show_service_error,
)
from .models import Group, Player


def group_for_host(request: HttpRequest, slug: str) -> Group:
    """The group ``slug`` if the logged-in user hosts it, else a 404."""
    return get_object_or_404(Group, slug=slug, memberships__user=request.user)


def player_for_host(request: HttpRequest, slug: str, player_pk: int) -> Player:
    """A player of a group the logged-in user hosts, else a 404."""
    group = group_for_host(request, slug)
    return get_object_or_404(Player.objects.select_related("group"), pk=player_pk, group=group)


def _nights(group: Group) -> tuple[list[Night], list[Night]]:
    """The group's nights: upcoming (soonest first) and past (latest first)."""
    playing = Count(
        "attendances",
        filter=Q(attendances__status__in=[Attendance.COMING, Attendance.SENT_SUB]),
    )
    nights = group.nights.annotate(playing=playing)
    today = timezone.localdate()
    upcoming = list(nights.filter(date__gte=today).order_by("date", "time", "pk"))
    past = list(nights.filter(date__lt=today).order_by("-date", "-pk"))
    return upcoming, past


# The dashboard takes GET and POST on one address: a separate "create/" address
# would hide a group whose name slugifies to "create".
@login_required
@require_http_methods(["GET", "POST"])
def index(request: HttpRequest) -> HttpResponse:
    """The host's dashboard: their groups, and a form to start a new one."""
    form = GroupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            group = services.group_create(
                name=form.cleaned_data["name"],
                user=request.user,
                rules=form.cleaned_data["rules"],
                dues_cents=form.cleaned_data["dues"],
            )
        except ServiceError as error:
            show_service_error(form, error)
        else:
            messages.success(request, f"{group.name} is ready. Add your players to the roster.")
            return redirect(group)
    today = timezone.localdate()
    groups = request.user.bunco_groups.annotate(
        regulars=Count(
            "players", filter=Q(players__kind=Player.REGULAR, players__retired=False), distinct=True
        )
    )
    cards = [(g, g.nights.filter(date__gte=today).order_by("date", "time").first()) for g in groups]
    return render(request, "groups/index.html", {"cards": cards, "form": form})


@login_required
@require_GET
def detail(request: HttpRequest, slug: str) -> HttpResponse:
    """The group's hub: roster, rules and every night at most two clicks away."""
    group = group_for_host(request, slug)
    upcoming, past = _nights(group)
    players = group.players.filter(retired=False)
    return render(
        request,
        "groups/detail.html",
        {
            "group": group,
            "rules_label": PRESET_NAMES.get(group.rules_obj.name, group.rules_obj.name),
            "regulars": players.filter(kind=Player.REGULAR).count(),
            "substitutes": players.filter(kind=Player.SUBSTITUTE).count(),
            "upcoming": upcoming,
            "past": past,
        },
    )


def _roster_context(group: Group, form: PlayerForm | None = None) -> dict:
    players = list(group.players.select_related("usual_substitute"))
    active = [p for p in players if not p.retired]
    return {
        "group": group,
        "regulars": [p for p in active if p.is_regular],
        "substitutes": [p for p in active if not p.is_regular],
        "retired": [p for p in players if p.retired],
        "form": form or PlayerForm(group=group),
    }


@login_required
@require_GET
def roster(request: HttpRequest, slug: str) -> HttpResponse:
    """Regulars and substitutes with their contact details; retired players apart."""
    group = group_for_host(request, slug)
    return render(request, "groups/roster.html", _roster_context(group))


@login_required
@require_POST
def player_create(request: HttpRequest, slug: str) -> HttpResponse:
    """Add someone to the roster."""
    group = group_for_host(request, slug)
    form = PlayerForm(request.POST, group=group)
    if form.is_valid():
        try:
            player = services.player_add(group=group, **form.cleaned_data)
        except ServiceError as error:
            show_service_error(form, error)
        else:
            messages.success(request, f"Added {player.name} to the roster.")
            return redirect("groups:roster", slug=group.slug)
    return render(request, "groups/roster.html", _roster_context(group, form))


@login_required
@require_GET
def player_edit(request: HttpRequest, slug: str, player_pk: int) -> HttpResponse:
    """One player's details, to change them."""
    player = player_for_host(request, slug, player_pk)
    form = PlayerForm(initial=PlayerForm.initial_for(player), group=player.group, player=player)
    return _player_page(request, player, form)


def _player_page(request: HttpRequest, player: Player, form: PlayerForm) -> HttpResponse:
    nights = player.attendances.count() + player.substitutions.count()
    return render(
        request,
        "groups/player.html",
        {"group": player.group, "player": player, "form": form, "nights": nights},
    )


@login_required
@require_POST
def player_save(request: HttpRequest, slug: str, player_pk: int) -> HttpResponse:
    """Save a player's changed details."""
    player = player_for_host(request, slug, player_pk)
    form = PlayerForm(request.POST, group=player.group, player=player)
    if form.is_valid():
        try:
            services.player_update(player=player, **form.cleaned_data)
        except ServiceError as error:
            show_service_error(form, error)
        else:
            messages.success(request, f"Saved {player.name}.")
            return redirect("groups:roster", slug=player.group.slug)
    return _player_page(request, player, form)


@login_required
@require_POST
def player_retire(request: HttpRequest, slug: str, player_pk: int) -> HttpResponse:
    """Retire a player (``retired=0`` brings them back); their history stays."""
    player = player_for_host(request, slug, player_pk)
    retired = request.POST.get("retired", "1") != "0"
    services.player_retire(player=player, retired=retired)
    if request.htmx:
        return render(request, "groups/roster.html#roster_lists", _roster_context(player.group))
    done = "retired" if retired else "back on the roster"
    messages.success(request, f"{player.name} is {done}.")
    return redirect("groups:roster", slug=player.group.slug)


def _rules_page(request: HttpRequest, group: Group, **forms) -> HttpResponse:
    rules = group.rules_obj
    context = {
        "group": group,
        "rules": rules,
        "rules_label": PRESET_LABELS.get(rules.name, rules.name),
        "preset_form": PresetForm(initial={"rules": rules.name}),
        "rules_form": RulesForm(initial=RulesForm.initial_for(rules)),
        "dues_form": DuesForm(initial={"dues": group.dues_cents}),
        "prizes_form": PrizesForm(prizes=list(group.prizes.all())),
    }
    context.update(forms)
    return render(request, "groups/rules.html", context)


@login_required
@require_GET
def rules(request: HttpRequest, slug: str) -> HttpResponse:
    """The group's rules, dues and prizes."""
    return _rules_page(request, group_for_host(request, slug))


@login_required
@require_POST
def rules_reset(request: HttpRequest, slug: str) -> HttpResponse:
    """Start the rules again from a preset."""
    group = group_for_host(request, slug)
    form = PresetForm(request.POST)
    if form.is_valid():
        try:
            services.rules_reset(group=group, name=form.cleaned_data["rules"])
        except ServiceError as error:
            show_service_error(form, error)
        else:
            label = PRESET_LABELS.get(group.rules_obj.name, group.rules_obj.name)
            messages.success(request, f"The rules are now: {label}.")
            return redirect("groups:rules", slug=group.slug)
    return _rules_page(request, group, preset_form=form)


@login_required
@require_POST
def rules_save(request: HttpRequest, slug: str) -> HttpResponse:
    """Change the rules knob by knob."""
    group = group_for_host(request, slug)
    form = RulesForm(request.POST)
    if form.is_valid():
        try:
            services.rules_update(group=group, changes=form.changes())
        except ServiceError as error:
            show_service_error(form, error, RULE_ERROR_FIELDS.get(error.code))
        else:
            messages.success(request, "Rules saved. Nights planned from now on use them.")
            return redirect("groups:rules", slug=group.slug)
    return _rules_page(request, group, rules_form=form)


@login_required
@require_POST
def dues_save(request: HttpRequest, slug: str) -> HttpResponse:
    """Set the dues per night."""
    group = group_for_host(request, slug)
    form = DuesForm(request.POST)
    if form.is_valid():
        try:
            services.dues_set(group=group, dues_cents=form.cleaned_data["dues"])
        except ServiceError as error:
            show_service_error(form, error)
        else:
            messages.success(request, "Dues saved. Nights planned from now on use them.")
            return redirect("groups:rules", slug=group.slug)
    return _rules_page(request, group, dues_form=form)


@login_required
@require_POST
def prizes_save(request: HttpRequest, slug: str) -> HttpResponse:
    """Choose the prizes and each one's share of the pot."""
    group = group_for_host(request, slug)
    form = PrizesForm(request.POST, prizes=list(group.prizes.all()))
    if form.is_valid():
        try:
            services.prizes_set(group=group, prizes=form.prizes)
        except ServiceError as error:
            show_service_error(form, error)
        else:
            messages.success(request, "Prizes saved.")
            return redirect("groups:rules", slug=group.slug)
    return _rules_page(request, group, prizes_form=form)
