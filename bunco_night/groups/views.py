"""The host's pages for a group; a group is found only among its user's (else a 404)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from bunco_night.core.csvfile import csv_download
from bunco_night.core.errors import ServiceError
from bunco_night.core.forms import form_apply
from bunco_night.rules.presets import PRESET_LABELS, PRESET_NAMES, preset

from . import services
from .forms import (
    ConfirmForm,
    DuesForm,
    GroupForm,
    PlayerForm,
    PresetForm,
    RetireForm,
    RosterFileForm,
    RosterRowsForm,
)
from .models import Group, Player
from .prize_forms import PrizesForm
from .roster_csv import MAX_BYTES, read_roster, roster_csv
from .rules_forms import RULE_ERROR_FIELDS, RulesForm, rules_differences
from .selectors import group_for_host, player_for_host, rules_explained


@login_required
@require_safe
def start(request: HttpRequest) -> HttpResponse:
    """Where a host lands after logging in: their group if they host just one, else the list."""
    groups = list(Group.objects.hosted_by(request.user)[:2])
    return redirect(groups[0] if len(groups) == 1 else "groups:index")


# GET and POST on one address: a "create/" address would hide a group slugged "create".
@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def index(request: HttpRequest) -> HttpResponse:
    """The host's dashboard: their groups, and a form to start a new one."""
    # An empty POST is still a POST: an unbound form would have no errors to show.
    form = GroupForm(request.POST if request.method == "POST" else None)
    if request.method == "POST":
        group = form_apply(
            form,
            lambda data: services.group_create(
                name=data["name"], user=request.user, rules=data["rules"], dues_cents=data["dues"]
            ),
        )
        if not form.errors:
            messages.success(request, f"{group.name} is ready. Add your players to the roster.")
            return redirect(group)
    today = timezone.localdate()
    groups = Group.objects.hosted_by(request.user).annotate(
        regulars=Count(
            "players",
            filter=Q(players__kind=Player.Kind.REGULAR, players__retired=False),
            distinct=True,
        )
    )
    cards = [(g, g.nights.upcoming(today).first()) for g in groups]
    return render(request, "groups/index.html", {"cards": cards, "form": form})


@login_required
@require_safe
def detail(request: HttpRequest, slug: str) -> HttpResponse:
    """The group's hub: roster, rules and every night at most two clicks away."""
    group = group_for_host(request.user, slug)
    nights, today = group.nights.with_playing(), timezone.localdate()
    in_play = group.nights.in_play().order_by("-date").first()
    players = group.players.filter(retired=False)
    return render(
        request,
        "groups/detail.html",
        {
            "group": group,
            "rules_label": PRESET_NAMES.get(group.rules_obj.name, group.rules_obj.name),
            "regulars": players.filter(kind=Player.Kind.REGULAR).count(),
            "substitutes": players.filter(kind=Player.Kind.SUBSTITUTE).count(),
            "in_play": in_play,
            "upcoming": list(nights.upcoming(today)),
            "past": list(nights.past(today)),
            "season": group.seasons.covering(today).first() or group.seasons.first(),
        },
    )


@login_required
@require_safe
def how_we_play(request: HttpRequest, slug: str) -> HttpResponse:
    """The group's rules in words, made from its own knobs and prizes."""
    group = group_for_host(request.user, slug)
    rules = group.rules_obj
    return render(
        request,
        "groups/how_to_play.html",
        {
            "group": group,
            "rules_label": PRESET_NAMES.get(rules.name, rules.name),
            "sections": rules_explained(group),
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
@require_safe
def roster(request: HttpRequest, slug: str) -> HttpResponse:
    """Regulars and substitutes, retired players apart; with htmx, just the lists."""
    group = group_for_host(request.user, slug)
    if request.htmx:
        return render(request, "groups/roster.html#roster_lists", _roster_context(group))
    return render(request, "groups/roster.html", _roster_context(group))


@login_required
@require_POST
def player_create(request: HttpRequest, slug: str) -> HttpResponse:
    """Add someone to the roster."""
    group = group_for_host(request.user, slug)
    form = PlayerForm(request.POST, group=group)
    player = form_apply(form, lambda data: services.player_add(group=group, **data))
    if not form.errors:
        messages.success(request, f"Added {player.name} to the roster.")
        return redirect("groups:roster", slug=group.slug)
    return render(request, "groups/roster.html", _roster_context(group, form))


@login_required
@require_safe
def player_edit(request: HttpRequest, slug: str, player_pk: int) -> HttpResponse:
    """One player's details, to change them."""
    player = player_for_host(request.user, slug, player_pk)
    form = PlayerForm(initial=PlayerForm.initial_for(player), group=player.group, player=player)
    return _player_page(request, player, form)


def _player_page(
    request: HttpRequest, player: Player, form: PlayerForm, *, retiring: bool = False
) -> HttpResponse:
    """The player's page; ``retiring``, first the question whether to retire them."""
    nights = player.attendances.count() + player.substitutions.count()
    return render(
        request,
        "groups/player.html",
        {
            "group": player.group,
            "player": player,
            "form": form,
            "nights": nights,
            "retiring": retiring,
        },
    )


@login_required
@require_POST
def player_save(request: HttpRequest, slug: str, player_pk: int) -> HttpResponse:
    """Save a player's changed details."""
    player = player_for_host(request.user, slug, player_pk)
    form = PlayerForm(request.POST, group=player.group, player=player)
    form_apply(form, lambda data: services.player_update(player=player, **data))
    if not form.errors:
        messages.success(request, f"Saved {player.name}.")
        return redirect("groups:roster", slug=player.group.slug)
    return _player_page(request, player, form)


@login_required
@require_POST
def player_retire(request: HttpRequest, slug: str, player_pk: int) -> HttpResponse:
    """Retire a player once the host said yes (``retired=0`` brings them back at once;
    docs/rules.md section 8.1)."""
    player = player_for_host(request.user, slug, player_pk)
    asked = RetireForm(request.POST)
    retired = asked.retiring()
    if retired and not player.retired and not asked.said_yes():
        if request.htmx:  # the question in the player's card on the roster
            context = _roster_context(player.group) | {"confirm_retire": player.pk}
            return render(request, "groups/roster.html#roster_lists", context)
        form = PlayerForm(initial=PlayerForm.initial_for(player), group=player.group, player=player)
        return _player_page(request, player, form, retiring=True)
    services.player_retire(player=player, retired=retired)
    done = "retired" if retired else "back on the roster"
    if request.htmx:  # said in the card, which the page scrolls to where it now is
        context = _roster_context(player.group) | {"said": (player.pk, f"{player.name} is {done}.")}
        return render(request, "groups/roster.html#roster_lists", context)
    messages.success(request, f"{player.name} is {done}.")
    return redirect("groups:roster", slug=player.group.slug)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def roster_import(request: HttpRequest, slug: str) -> HttpResponse:
    """Import a roster from a file or pasted rows, after a preview of each row."""
    group = group_for_host(request.user, slug)
    posted = request.method == "POST"
    form = RosterFileForm(request.POST, request.FILES) if posted else RosterFileForm()
    preview = None
    if posted and form.is_valid():
        preview = read_roster(form.cleaned_data["csv"], group)
    return render(
        request,
        "groups/roster_import.html",
        {
            "group": group,
            "form": form,
            "preview": preview,
            "csv": form.cleaned_data.get("csv", "") if preview else "",
            "max_kb": MAX_BYTES // 1024,
        },
    )


@login_required
@require_POST
def roster_import_confirm(request: HttpRequest, slug: str) -> HttpResponse:
    """Import the rows the host saw in the preview (read again: nothing is trusted)."""
    group = group_for_host(request.user, slug)
    text = RosterRowsForm(request.POST).rows()
    if len(text.encode()) > MAX_BYTES:
        messages.error(request, "That file is too big to import.")
        return redirect("groups:roster_import", slug=group.slug)
    try:
        result = services.roster_import(group=group, text=text)
    except ServiceError as error:
        messages.error(request, error.message)
        return redirect("groups:roster_import", slug=group.slug)
    done = f"Added {len(result.added)}, updated {len(result.updated)}."
    if result.skipped:
        done += f" Skipped {result.skipped} row{'s' if result.skipped != 1 else ''} with a problem."
    messages.success(request, done)
    return redirect("groups:roster", slug=group.slug)


@login_required
@require_safe
def roster_export(request: HttpRequest, slug: str) -> HttpResponse:
    """The roster as a CSV file for a spreadsheet."""
    group = group_for_host(request.user, slug)
    return csv_download(roster_csv(group), f"{group.slug}-roster.csv")


def _rules_page(request: HttpRequest, group: Group, **forms) -> HttpResponse:
    rules = group.rules_obj
    context = {
        "group": group,
        "rules": rules,
        "rules_label": PRESET_LABELS.get(rules.name, rules.name),
        "preset_form": PresetForm(initial={"rules": rules.name}),
        "rules_form": RulesForm(initial=RulesForm.initial_for(rules)),
        "dues_form": DuesForm(initial={"dues": group.dues_cents}),
        "prizes_form": PrizesForm(prizes=list(group.prizes.all()), rules=rules),
    }
    context.update(forms)
    return render(request, "groups/rules.html", context)


@login_required
@require_safe
def rules(request: HttpRequest, slug: str) -> HttpResponse:
    """The group's rules, dues and prizes."""
    return _rules_page(request, group_for_host(request.user, slug))


@login_required
@require_POST
def rules_reset(request: HttpRequest, slug: str) -> HttpResponse:
    """Start the rules again from a preset."""
    group = group_for_host(request.user, slug)
    form = PresetForm(request.POST)
    if form.is_valid() and not ConfirmForm(request.POST).said_yes():
        name = form.cleaned_data["rules"]
        changes = rules_differences(group.rules_obj, preset(name))
        if changes:
            confirm = {"name": name, "label": PRESET_LABELS.get(name, name), "changes": changes}
            return _rules_page(request, group, preset_form=form, preset_confirm=confirm)
    rules = form_apply(form, lambda data: services.rules_reset(group=group, name=data["rules"]))
    if not form.errors:
        messages.success(
            request, f"The rules are now: {PRESET_LABELS.get(rules.name, rules.name)}."
        )
        return redirect("groups:rules", slug=group.slug)
    return _rules_page(request, group, preset_form=form)


@login_required
@require_POST
def rules_save(request: HttpRequest, slug: str) -> HttpResponse:
    """Change the rules knob by knob."""
    group = group_for_host(request.user, slug)
    form = RulesForm(request.POST)
    form_apply(
        form,
        lambda data: services.rules_update(group=group, changes=form.changes()),
        RULE_ERROR_FIELDS.get,
    )
    if not form.errors:
        saved = "Rules saved. Nights planned from now on use them."
        messages.success(request, f"{saved} {form.marks_note}".strip())
        return redirect("groups:rules", slug=group.slug)
    return _rules_page(request, group, rules_form=form)


@login_required
@require_POST
def dues_save(request: HttpRequest, slug: str) -> HttpResponse:
    """Set the dues per night."""
    group = group_for_host(request.user, slug)
    form = DuesForm(request.POST)
    form_apply(form, lambda data: services.dues_set(group=group, dues_cents=data["dues"]))
    if not form.errors:
        messages.success(request, "Dues saved. Nights planned from now on use them.")
        return redirect("groups:rules", slug=group.slug)
    return _rules_page(request, group, dues_form=form)


@login_required
@require_POST
def prizes_save(request: HttpRequest, slug: str) -> HttpResponse:
    """Choose the prizes and each one's share of the pot."""
    group = group_for_host(request.user, slug)
    form = PrizesForm(request.POST, prizes=list(group.prizes.all()), rules=group.rules_obj)
    form_apply(
        form,
        lambda data: services.prizes_set(group=group, prizes=form.prizes, settings=form.settings()),
        RULE_ERROR_FIELDS.get,
    )
    if not form.errors:
        messages.success(request, "Prizes saved.")
        return redirect("groups:rules", slug=group.slug)
    return _rules_page(request, group, prizes_form=form)
