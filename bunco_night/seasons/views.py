"""The host's season pages: standings, charts, prizes, rotation, money, player histories."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from bunco_night.core.errors import ServiceError
from bunco_night.core.forms import form_apply, whole_number
from bunco_night.groups import services as group_services
from bunco_night.groups.models import Player, Season
from bunco_night.groups.selectors import group_for_host, player_for_host, season_for_host
from bunco_night.nights import services as night_services
from bunco_night.nights.models import Prepayment

from . import services
from .charts import BUNCOS, WINS, Bar, bar_chart
from .forms import (
    HostingTurnForm,
    MonthForm,
    PrepaymentForm,
    SeasonForm,
    SeasonPrizesForm,
    TiebreakForm,
)
from .history import player_history
from .ledger import season_ledger
from .shares import season_share, season_shares
from .standings import season_table


def _default_season(group) -> dict:
    """A new season: the calendar year of the next night, or of today."""
    today = timezone.localdate()
    year = today.year
    if group.seasons.filter(starts__year=year).exists():
        year += 1
    return {
        "name": str(year),
        "starts": today.replace(year=year, month=1, day=1),
        "ends": today.replace(year=year, month=12, day=31),
        "pot_percent": 10,
        "regulars_only": True,
    }


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def season_list(request: HttpRequest, slug: str) -> HttpResponse:
    """The group's seasons, and a form to start one."""
    group = group_for_host(request.user, slug)
    data = request.POST if request.method == "POST" else None
    form = SeasonForm(data, initial=_default_season(group))
    if request.method == "POST":
        season = form_apply(form, lambda data: group_services.season_create(group=group, **data))
        if not form.errors:
            messages.success(request, f"Season {season.name} is ready.")
            return redirect(season)
    today = timezone.localdate()
    seasons = list(group.seasons.all())
    shares = season_shares(seasons)  # one query for every season's card
    return render(
        request,
        "seasons/list.html",
        {
            "group": group,
            "seasons": [(s, shares[s.pk]) for s in seasons],
            "current": group.seasons.covering(today).first(),
            "form": form,
        },
    )


def standings_charts(table) -> dict:
    """The season's wins and buncos per player, as charts."""
    rows = [(s, p) for s, p, _ in table.rows]
    wins = sorted(rows, key=lambda r: (-r[0].standing.wins, r[1].name.casefold()))
    buncos = sorted(rows, key=lambda r: (-r[0].standing.buncos, r[1].name.casefold()))
    return {
        "wins_chart": bar_chart(
            "season-wins",
            f"Wins in the {table.season.name} season",
            [Bar(p.name, (s.standing.wins,)) for s, p in wins],
            [("Wins", WINS)],
        ),
        "buncos_chart": bar_chart(
            "season-buncos",
            f"Buncos in the {table.season.name} season",
            [Bar(p.name, (s.standing.buncos,)) for s, p in buncos],
            [("Buncos", BUNCOS)],
        ),
    }


@login_required
@require_safe
def season_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """A season: standings, charts, year-end prizes, the rotation and its nights."""
    season = season_for_host(request.user, pk)
    return _detail(request, season)


def _detail(request, season: Season, tiebreak_error: str = "") -> HttpResponse:
    table = season_table(season)
    context = {
        "group": season.group,
        "season": season,
        "table": table,
        "rotation": list(season.rotation.select_related("host")),
        "nights": list(season.nights()),
        "today": timezone.localdate(),
        "tiebreak_error": tiebreak_error,
        "share": season_share(season),
        **standings_charts(table),
    }
    return render(request, "seasons/detail.html", context)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def season_edit(request: HttpRequest, pk: int) -> HttpResponse:
    """Change a season's name, dates, share of the dues and prize rules."""
    season = season_for_host(request.user, pk)
    data = request.POST if request.method == "POST" else None
    form = SeasonForm(data, initial=SeasonForm.initial_for(season))
    prizes_form = SeasonPrizesForm(prizes=list(season.prizes.all()))
    if request.method == "POST":
        form_apply(form, lambda data: group_services.season_update(season=season, **data))
        if not form.errors:
            messages.success(request, "Season saved.")
            return redirect(season)
    return _edit_page(request, season, form, prizes_form)


def _edit_page(request, season, form, prizes_form) -> HttpResponse:
    return render(
        request,
        "seasons/edit.html",
        {"group": season.group, "season": season, "form": form, "prizes_form": prizes_form},
    )


@login_required
@require_POST
def season_prizes(request: HttpRequest, pk: int) -> HttpResponse:
    """Choose the year-end prizes and each one's share of the season's pot."""
    season = season_for_host(request.user, pk)
    prizes_form = SeasonPrizesForm(request.POST, prizes=list(season.prizes.all()))
    form_apply(
        prizes_form,
        lambda data: group_services.season_prizes_set(season=season, prizes=prizes_form.prizes),
    )
    if not prizes_form.errors:
        messages.success(request, "Year-end prizes saved.")
        return redirect(season)
    form = SeasonForm(initial=SeasonForm.initial_for(season))
    return _edit_page(request, season, form, prizes_form)


@login_required
@require_POST
def season_tiebreak(request: HttpRequest, pk: int) -> HttpResponse:
    """Record who won a tied year-end prize (or clear it)."""
    season = season_for_host(request.user, pk)
    form = TiebreakForm(request.POST)
    error = ""
    if not form.is_valid():
        error = "Choose one of the tied players."
    else:
        player_pk = form.cleaned_data["player"]
        player = None
        if player_pk is not None:
            player = Player.objects.filter(group=season.group, pk=player_pk).first()
        try:
            if player_pk is not None and player is None:
                raise ServiceError("Choose one of the tied players.", "bad_tiebreak")
            services.season_tiebreak_record(
                season=season, code=form.cleaned_data["code"], player=player
            )
        except ServiceError as exc:
            error = exc.message
    if error:
        return _detail(request, season, tiebreak_error=error)
    return redirect(f"{season.get_absolute_url()}#prizes")


def _rotation_page(request, season, failed: HostingTurnForm | None = None) -> HttpResponse:
    turns = {t.month: t for t in season.rotation.select_related("host")}
    rows = []
    for month in season.months():
        turn = turns.get(month)
        prefix = f"m{month:%Y%m}"
        if failed is not None and failed.prefix == prefix:
            form = failed
        else:
            initial = {"month": month}
            if turn is not None:
                initial.update(host=turn.host_id, place=turn.place, brings=turn.brings)
            form = HostingTurnForm(initial=initial, group=season.group, prefix=prefix)
        rows.append((month, turn, form))
    return render(
        request,
        "seasons/rotation.html",
        {"group": season.group, "season": season, "rows": rows},
    )


@login_required
@require_safe
def rotation(request: HttpRequest, pk: int) -> HttpResponse:
    """Who hosts each month of the season, where, and who brings what."""
    return _rotation_page(request, season_for_host(request.user, pk))


@login_required
@require_POST
def rotation_save(request: HttpRequest, pk: int) -> HttpResponse:
    """Save one month of the rotation."""
    season = season_for_host(request.user, pk)
    prefix = MonthForm(request.POST).month_prefix()
    if not prefix:
        messages.error(request, "Choose a month of the season.")
        return redirect("seasons:rotation", pk=season.pk)
    form = HostingTurnForm(request.POST, group=season.group, prefix=prefix)
    form_apply(
        form,
        lambda data: group_services.hosting_turn_set(
            season=season,
            month=data["month"],
            host=data["host"],
            place=data["place"],
            brings=data["brings"],
        ),
    )
    if form.errors:
        return _rotation_page(request, season, failed=form)
    messages.success(request, "Rotation saved.")
    return redirect(f"{reverse('seasons:rotation', args=[season.pk])}#{prefix}")


@login_required
@require_POST
def rotation_fill(request: HttpRequest, pk: int) -> HttpResponse:
    """Give the months nobody hosts yet to the regulars in turn."""
    season = season_for_host(request.user, pk)
    try:
        made = group_services.rotation_fill(season=season)
        messages.success(request, f"{len(made)} month{'s' if len(made) != 1 else ''} filled.")
    except ServiceError as error:
        messages.error(request, error.message)
    return redirect("seasons:rotation", pk=season.pk)


def _ledger_page(request, season, form: PrepaymentForm | None = None) -> HttpResponse:
    today = timezone.localdate()
    starts = max(season.starts, min(today, season.ends))
    form = form or PrepaymentForm(group=season.group, initial={"starts": starts})
    return render(
        request,
        "seasons/ledger.html",
        {
            "group": season.group,
            "season": season,
            "ledger": season_ledger(season),
            "share": season_share(season),
            "form": form,
        },
    )


@login_required
@require_safe
def ledger(request: HttpRequest, pk: int) -> HttpResponse:
    """Dues in, prizes out and the year-end pot, night by night; who owes; prepaid dues."""
    return _ledger_page(request, season_for_host(request.user, pk))


@login_required
@require_POST
def prepayment_add(request: HttpRequest, pk: int) -> HttpResponse:
    """Record dues a player paid ahead."""
    season = season_for_host(request.user, pk)
    form = PrepaymentForm(request.POST, group=season.group)
    prepayment = form_apply(
        form,
        lambda data: night_services.prepayment_record(
            player=data["player"],
            amount_cents=data["amount"],
            starts=data["starts"],
            note=data["note"],
            nonce=data["nonce"] or None,
        ),
    )
    if form.errors:
        return _ledger_page(request, season, form)
    messages.success(request, f"Recorded dues paid ahead by {prepayment.player.name}.")
    return redirect(f"{reverse('seasons:ledger', args=[season.pk])}#prepaid")


@login_required
@require_POST
def prepayment_undo(request: HttpRequest, pk: int, prepayment_pk: int) -> HttpResponse:
    """Take back prepaid dues entered by mistake."""
    season = season_for_host(request.user, pk)
    prepayment = get_object_or_404(Prepayment, pk=prepayment_pk, player__group=season.group)
    night_services.prepayment_undo(prepayment=prepayment)
    messages.success(request, "Prepaid dues taken back.")
    return redirect(f"{reverse('seasons:ledger', args=[season.pk])}#prepaid")


@login_required
@require_safe
def history(request: HttpRequest, slug: str, player_pk: int) -> HttpResponse:
    """A player's nights, results, prizes, dues and substitutes, all seasons or one."""
    player = player_for_host(request.user, slug, player_pk)
    season = None
    if (season_pk := whole_number(request.GET.get("season"))) is not None:
        season = player.group.seasons.filter(pk=season_pk).first()
    return render(
        request,
        "seasons/history.html",
        {
            "group": player.group,
            "player": player,
            "season": season,
            "history": player_history(player, season=season),
        },
    )
