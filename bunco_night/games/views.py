"""The Buck Dice table and the Bonanza ledger, each on one phone (a secret link, no login),
and the host's doors to them. A refusal is a message on the page."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from bunco_night.core.errors import ServiceError
from bunco_night.nights.selectors import night_for_host, night_rules_explained, players_tonight
from bunco_night.rules import bonanza
from bunco_night.rules.presets import PRESET_NAMES

from . import pages, services
from .forms import (
    BonanzaCallForm,
    BonanzaForm,
    BonanzaStepForm,
    BonanzaStepNameForm,
    BuckOrderForm,
    BuckPointForm,
    BuckThrowForm,
)
from .models import BonanzaTable, BuckTable


def _done(request: HttpRequest, to: str, token: str, error: ServiceError | None = None):
    if error is not None:
        messages.error(request, error.message)
    return redirect(to, token=token)


# Buck Dice (docs/rules.md section 9.3)


def _buck(token: str) -> BuckTable:
    return get_object_or_404(BuckTable.objects.select_related("night__group"), token=token)


@login_required
@require_POST
def buck_open(request: HttpRequest, pk: int) -> HttpResponse:
    """The host opens the night's Buck Dice table (made the first time)."""
    night = night_for_host(request.user, pk)
    try:
        table = services.buck_table_open(night=night)
    except ServiceError as error:
        messages.error(request, error.message)
        return redirect(night)
    return redirect("games:buck", token=table.token)


@require_safe
def buck_page(request: HttpRequest, token: str) -> HttpResponse:
    """The Buck Dice table: the order of play, the point number, the throws, who is out."""
    page = pages.buck_page(_buck(token))
    return render(request, "games/buck.html", {"page": page, "token": token})


@require_safe
def buck_rules(request: HttpRequest, token: str) -> HttpResponse:
    """How do we play? From the Buck Dice table's link."""
    night = _buck(token).night
    rules = night.rules_obj
    context = {
        "group": night.group,
        "rules_label": PRESET_NAMES.get(rules.name, ""),
        "sections": night_rules_explained(night),
        "back": reverse("games:buck", args=[token]),
    }
    return render(request, "play/how_to_play.html", context)


def _buck_call(request: HttpRequest, token: str, service, fields=dict) -> HttpResponse:
    """Call ``service`` for the game being played with ``fields()`` (parsed from the post)."""
    table = _buck(token)
    game = pages.current_game(table)
    try:
        if game is None:
            raise ServiceError("No game is being played: start one.", "no_game")
        service(game=game, **fields())
    except ServiceError as error:
        return _done(request, "games:buck", token, error)
    return _done(request, "games:buck", token)


# The Buck Dice link is a capability URL like a table's: no cookie authorises its writes.
@csrf_exempt
@require_POST
def buck_start(request: HttpRequest, token: str) -> HttpResponse:
    """Start the next game."""
    try:
        services.buck_game_start(table=_buck(token))
    except ServiceError as error:
        return _done(request, "games:buck", token, error)
    return _done(request, "games:buck", token)


@csrf_exempt
@require_POST
def buck_order(request: HttpRequest, token: str) -> HttpResponse:
    """The opening throws: a total for each player throwing for the order now."""
    form = BuckOrderForm(request.POST)
    table = _buck(token)
    game = pages.current_game(table)
    try:
        totals = form.parsed()["totals"]
        if game is None:
            raise ServiceError("No game is being played: start one.", "no_game")
        services.buck_opening_record(game=game, totals=totals)
    except ServiceError as refused:
        messages.error(request, refused.message)
        page = pages.buck_page(table, typed=form.typed)
        return render(request, "games/buck.html", {"page": page, "token": token}, status=400)
    return redirect("games:buck", token=token)


@csrf_exempt
@require_POST
def buck_point(request: HttpRequest, token: str) -> HttpResponse:
    """The point number the last in the order threw."""
    form = BuckPointForm(request.POST)
    return _buck_call(request, token, services.buck_point_record, lambda: form.parsed())


@csrf_exempt
@require_POST
def buck_throw(request: HttpRequest, token: str) -> HttpResponse:
    """One throw: what it scored, or the three dice."""
    form = BuckThrowForm(request.POST)
    return _buck_call(request, token, services.buck_throw_record, form.throw)


@csrf_exempt
@require_POST
def buck_undo(request: HttpRequest, token: str) -> HttpResponse:
    """Undo the latest throw (or the point number, or the opening throws)."""
    return _buck_call(request, token, services.buck_undo)


@csrf_exempt
@require_POST
def buck_close(request: HttpRequest, token: str) -> HttpResponse:
    """Close a game that is over."""
    return _buck_call(request, token, services.buck_game_close)


# Bonanza (docs/rules.md section 9.4)


def _bonanza_choices(night) -> list[tuple[int, str]]:
    """Tonight's players first, then the rest of the active roster, by name."""
    tonight = players_tonight(night)
    ids = {p.pk for p in tonight}
    rest = night.group.players.filter(retired=False).exclude(pk__in=ids).order_by("name")
    first = sorted(tonight, key=lambda p: p.name.casefold())
    return [(p.pk, p.name) for p in first] + [
        (p.pk, f"{p.name} (not on tonight's list)") for p in rest
    ]


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def bonanza_new(request: HttpRequest, pk: int) -> HttpResponse:
    """The host starts a Bonanza table's ledger for the night."""
    night = night_for_host(request.user, pk)
    form = BonanzaForm(request.POST or None, choices=_bonanza_choices(night))
    if request.method == "POST" and form.is_valid():
        # The order the boxes were ticked in is lost: players sit in the list's order.
        order = [p for p, _ in form.fields["players"].choices if p in form.cleaned_data["players"]]
        try:
            table = services.bonanza_table_create(
                night=night,
                player_ids=order,
                start_chips=form.cleaned_data["start_chips"],
                poker=form.cleaned_data["poker"],
            )
        except ServiceError as error:
            form.add_error("players", error.message)
        else:
            return redirect("games:bonanza", token=table.token)
    tables = list(night.bonanza_tables.all())
    return render(
        request, "games/bonanza_new.html", {"night": night, "form": form, "tables": tables}
    )


def _bonanza(token: str) -> BonanzaTable:
    return get_object_or_404(BonanzaTable.objects.select_related("night__group"), token=token)


@require_safe
def bonanza_page(request: HttpRequest, token: str) -> HttpResponse:
    """The chip ledger of a Bonanza table."""
    page = pages.bonanza_page(_bonanza(token))
    return render(request, "games/bonanza.html", {"page": page, "token": token})


# The ledger's steps, one address each; a capability URL, so no CSRF.


def _step_record(table: BonanzaTable, data: dict, action: str, cards_left=None) -> None:
    services.bonanza_step_record(
        table=table,
        nonce=data["nonce"],
        action=action,
        player=data["player"],
        space=data["space"],
        chips=data["chips"],
        cards_left=cards_left,
    )


def _bonanza_step(request: HttpRequest, token: str, action: str) -> HttpResponse:
    """Record a step of kind ``action`` as the post (``BonanzaStepForm``) says it."""
    table = _bonanza(token)
    try:
        _step_record(table, BonanzaStepForm(request.POST).parsed(), action)
    except ServiceError as error:
        return _done(request, "games:bonanza", token, error)
    return _done(request, "games:bonanza", token)


@csrf_exempt
@require_POST
def bonanza_deal(request: HttpRequest, token: str) -> HttpResponse:
    """Deal the next hand: everyone puts a chip on each space."""
    return _bonanza_step(request, token, bonanza.DEAL)


@csrf_exempt
@require_POST
def bonanza_sell_widow(request: HttpRequest, token: str) -> HttpResponse:
    """The widow bought from the dealer, for chips."""
    return _bonanza_step(request, token, bonanza.SELL_WIDOW)


@csrf_exempt
@require_POST
def bonanza_poker_bet(request: HttpRequest, token: str) -> HttpResponse:
    """More chips on the Poker space from a player."""
    return _bonanza_step(request, token, bonanza.POKER_BET)


@csrf_exempt
@require_POST
def bonanza_take(request: HttpRequest, token: str) -> HttpResponse:
    """A space won: its chips to the player who showed its cards."""
    return _bonanza_step(request, token, bonanza.TAKE)


@csrf_exempt
@require_POST
def bonanza_settle(request: HttpRequest, token: str) -> HttpResponse:
    """After the last hand, who takes the chips left on a space."""
    return _bonanza_step(request, token, bonanza.SETTLE)


@csrf_exempt
@require_POST
def bonanza_call(request: HttpRequest, token: str) -> HttpResponse:
    """Bonanza called, with the cards left in each other hand."""
    table = _bonanza(token)
    form = BonanzaCallForm(request.POST)
    try:
        data = form.parsed()
    except ServiceError as error:
        return _done(request, "games:bonanza", token, error)
    cards, typed = form.cards(table.players)
    try:
        _step_record(table, data, bonanza.CALL_BONANZA, cards_left=cards or None)
    except ServiceError as error:
        messages.error(request, error.message)
        page = pages.bonanza_page(table, caller=data["player"], cards=typed)
        return render(request, "games/bonanza.html", {"page": page, "token": token}, status=400)
    return _done(request, "games:bonanza", token)


# The steps by the ``action`` a page drawn before posts to ``bonanza_step``.
BONANZA_STEPS = {
    bonanza.DEAL: bonanza_deal,
    bonanza.SELL_WIDOW: bonanza_sell_widow,
    bonanza.POKER_BET: bonanza_poker_bet,
    bonanza.TAKE: bonanza_take,
    bonanza.CALL_BONANZA: bonanza_call,
    bonanza.SETTLE: bonanza_settle,
}


@csrf_exempt
@require_POST
def bonanza_step(request: HttpRequest, token: str) -> HttpResponse:
    """The steps' old shared address, for a page drawn before: ``action`` names the step."""
    step = BONANZA_STEPS.get(BonanzaStepNameForm(request.POST).parsed_action())
    if step is None:
        _bonanza(token)
        return _done(request, "games:bonanza", token, ServiceError("Unknown step.", "bad_step"))
    return step(request, token)


@csrf_exempt
@require_POST
def bonanza_undo(request: HttpRequest, token: str) -> HttpResponse:
    """Undo the latest step."""
    try:
        step = services.bonanza_undo(table=_bonanza(token))
    except ServiceError as error:
        return _done(request, "games:bonanza", token, error)
    messages.success(request, f"Undone: {step.get_action_display().lower()}.")
    return _done(request, "games:bonanza", token)
