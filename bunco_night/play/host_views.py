"""The host's other play pages: a table's Correct page and its posts, the links as QR
codes, and the prize standings with their posts."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST, require_safe

from bunco_night.core.errors import ServiceError
from bunco_night.core.links import phone_url, unreachable_host
from bunco_night.core.qr import qr_svg
from bunco_night.groups.models import Player
from bunco_night.nights.models import Night, Round, Table
from bunco_night.nights.money import MoneyChange
from bunco_night.nights.money_pages import money_change_page
from bunco_night.nights.played import came_and_went
from bunco_night.nights.selectors import current_round, night_for_host
from bunco_night.rules.presets import PRESET_NAMES, ROLL_OFF
from bunco_night.rules.rounds import seat_rolling_next

from . import actions, services
from .forms import ControlForm, CorrectionForm, MoneyOkForm, PrizeTiebreakForm
from .moves import first_roller_seat
from .rolls import taps
from .standings import night_standings
from .state import table_round
from .views import _int


def _round_of(night: Night, request: HttpRequest, posted: int | None = None) -> Round:
    """The round ``?round=`` names, else the one the post names, else the night's own."""
    number = _int(request.GET.get("round")) if request.GET.get("round") else posted
    rnd = night.rounds.filter(number=number).first() if number else current_round(night)
    if rnd is None:
        raise Http404("No such round.")
    return rnd


def _said(done: str, recomputed: services.Recomputed | None, number: int) -> str:
    """The answer to a host's correction: ``done`` and, in a closed round, what changed
    (winners, the next seating; docs/rules.md section 6.2)."""
    if recomputed is None:
        return done
    said = [done]
    for winner in recomputed.winners:
        if winner.changed:
            said.append(f"Table {winner.number}'s winner is now {winner.name}.")
        elif winner.number == number:
            said.append(f"Table {winner.number}'s winner is still {winner.name}.")
    if recomputed.next_seating == services.SEATING_KEPT:
        said.append(
            f"Round {recomputed.next_round} had already started, seated from the old result: "
            "its seating stays as it is."
        )
    elif recomputed.next_seating == services.SEATING_DRAWN_AGAIN:
        # Seated by the movement, not drawn: a draw of that round is gone (section 4.4).
        again = f"Round {recomputed.next_round} was seated again from the corrected winners"
        if recomputed.draw_undo_lost:
            again += "; the draw can no longer be undone"
        said.append(f"{again}.")
    return " ".join(said)


def _scores_say(rnd: Round, table: Table) -> tuple[int, str]:
    """(level, words) for "As the scores say" in a round in play (docs/rules.md 6.2)."""
    here = table_round(rnd, table)
    n = table.number
    if here is None or rnd.night.rules_obj.is_card_game:
        return messages.SUCCESS, f"Saved. Table {n} has no winner yet: pick it."
    outcome, names, scores = here.outcome, here.side_names(), here.scores
    if here.winner_side is not None:
        won = scores[here.winner_side]
        best_other = max(s for side, s in enumerate(scores) if side != here.winner_side)
        return messages.SUCCESS, (
            f"Saved: table {n}'s winner is {names[here.winner_side]}, as the scores say "
            f"({won} to {best_other})."
        )
    if outcome.needs_tiebreak:
        tied = scores[outcome.tied_sides[0]]
        how = "roll-off" if rnd.night.rules_obj.tie_break == ROLL_OFF else "extra turns"
        return messages.WARNING, (
            f"Table {n} is tied, {tied} to {tied}: the scores do not decide its winner. "
            f"Pick its winner below, or record who won the {how}."
        )
    if outcome.waiting_for:
        who = ", ".join(here.seats[s - 1].occupant_name for s in sorted(outcome.waiting_for))
        return messages.WARNING, (
            f"Saved. Table {n} is not done: everyone rolls at least once, and {who} still "
            "to roll. Add their rolls below, or pick the winner."
        )
    return messages.SUCCESS, (
        f"Saved. Table {n} plays on: the scores decide its winner when its play stops."
    )


@login_required
def table_fix(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """The host's Correct page for a table in any started round (a post: ``TABLE_FIXES``)."""
    if request.method == "POST":
        correction = TABLE_FIXES.get(ControlForm(request.POST).parsed_action())
        if correction is None:
            return _correction(request, pk, number, _unknown)
        return correction(request, pk, number)
    night = night_for_host(request.user, pk)
    table = get_object_or_404(Table, night=night, number=number)
    rnd = _round_of(night, request)
    if rnd.is_pending:
        raise Http404("That round has not started.")
    here = table_round(rnd, table)
    if here is None:
        raise Http404("That table has no seats in this round.")
    rules = night.rules_obj
    entries = rnd.entries.filter(table=table).select_related("roller").order_by("created")
    first = first_roller_seat(night, rnd, here.seated)
    rolling_next = seat_rolling_next(here.rolls, size=here.size, first=first.number if first else 1)
    return render(
        request,
        "play/table_fix.html",
        {
            "night": night,
            "rnd": rnd,
            "here": here,
            "entries": [(e, e.describe(rules)) for e in entries],
            "taps": taps(rules, rnd.mark),
            "rules": rules,
            "rounds": night.rounds.started(),
            "rolling_next": rolling_next,
        },
    )


# The host's corrections at a table, one address each, answered back on the Correct page.


def _correction(request: HttpRequest, pk: int, number: int, act) -> HttpResponse:
    """Parse a ``CorrectionForm`` post and say what ``act(form, rnd, fix)`` returns."""
    night = night_for_host(request.user, pk)
    table = get_object_or_404(Table, night=night, number=number)
    form = CorrectionForm(request.POST)
    posted = form.cleaned_data["round"] if form.is_valid() else None
    rnd = _round_of(night, request, posted)
    here = f"{reverse('play:table_fix', args=[night.pk, number])}?round={rnd.number}"
    try:
        data = form.parsed()
        fix = {"table": table, "by": request.user, "money_ok": data["money_ok"]}
        level, text = act(form, rnd, fix)
        messages.add_message(request, level, text)
    except MoneyChange as change:
        what = f"A correction to round {rnd.number} at table {table.number}"
        return money_change_page(request, change, back=here, what=what)
    except ServiceError as error:
        messages.error(request, error.message)
    return redirect(here)


def _saved(done, table: Table) -> tuple[int, str]:
    return messages.SUCCESS, _said("Saved.", done.recomputed, table.number)


def _unknown(form: CorrectionForm, rnd: Round, fix: dict) -> tuple[int, str]:
    raise ServiceError("Unknown action.", "bad_action")


@login_required
@require_POST
def table_fix_undo(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Undo an entry at the table."""

    def act(form, rnd, fix):
        return _saved(actions.entry_undo(entry_id=form.parsed()["entry"], **fix), fix["table"])

    return _correction(request, pk, number, act)


@login_required
@require_POST
def table_fix_put_back(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Put back an entry undone at the table."""

    def act(form, rnd, fix):
        done = actions.entry_put_back(entry_id=form.parsed()["entry"], **fix)
        return _saved(done, fix["table"])

    return _correction(request, pk, number, act)


@login_required
@require_POST
def table_fix_add(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Add an entry for a seat at the table (retry-safe: its ``nonce`` counts once)."""

    def act(form, rnd, fix):
        return _saved(actions.entry_add(rnd=rnd, **fix, **form.tap_fields()), fix["table"])

    return _correction(request, pk, number, act)


@login_required
@require_POST
def table_fix_winner(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Set the table's winner over the scores; no side is "As the scores say"."""

    def act(form, rnd, fix):
        side = form.side_value()
        done = actions.winner_set(rnd=rnd, side=side, **fix)
        if side is None and done.recomputed is None:
            return _scores_say(rnd, fix["table"])
        return _saved(done, fix["table"])

    return _correction(request, pk, number, act)


@login_required
@require_POST
def table_fix_tiebreak(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Record who won the tied table's roll-off or extra turns."""

    def act(form, rnd, fix):
        side = form.side_value()
        done = actions.tiebreak_record(side=-1 if side is None else side, rnd=rnd, **fix)
        return _saved(done, fix["table"])

    return _correction(request, pk, number, act)


# The corrections by the ``action`` a page drawn before posts to ``table_fix``.
TABLE_FIXES = {
    "undo": table_fix_undo,
    "put_back": table_fix_put_back,
    "add": table_fix_add,
    "winner": table_fix_winner,
    "tiebreak": table_fix_tiebreak,
}


@login_required
@never_cache
@require_safe
def links(request: HttpRequest, pk: int) -> HttpResponse:
    """Every table's link and every player's own link, as QR codes to scan off the screen."""
    night = night_for_host(request.user, pk)
    absolute = phone_url(request)
    tables = [
        (t, url, qr_svg(url))
        for t in night.tables.filter(active=True)
        for url in [absolute(reverse("play:table", args=[t.token]))]
    ]
    players = [
        (a.plays, url, qr_svg(url))
        for a in night.attendances.select_related("player", "substitute")
        if a.plays is not None
        for url in [absolute(reverse("play:player", args=[a.token]))]
    ]
    players.sort(key=lambda row: row[0].name)
    return render(
        request,
        "play/links.html",
        {
            "night": night,
            "tables": tables,
            "players": players,
            "unreachable": unreachable_host(request),
        },
    )


@login_required
@require_POST
def table_link_renew(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """A table gets a new link; the old one stops working at once."""
    night = night_for_host(request.user, pk)
    table = get_object_or_404(Table, night=night, number=number)
    services.table_link_renew(table=table)
    messages.success(
        request,
        f"Table {number} has a new link: the old one no longer works. "
        "Scan the new code below, or print new table cards.",
    )
    return redirect("play:links", pk=night.pk)


@login_required
def standings(request: HttpRequest, pk: int) -> HttpResponse:
    """Prize standings, ties, tie-breaks and the payout (an old page's post: ``action``)."""
    if request.method == "POST":
        if ControlForm(request.POST).parsed_action() == "door":
            return standings_door(request, pk)
        return standings_tiebreak(request, pk)
    night = night_for_host(request.user, pk)
    result = night_standings(night)
    rules = night.rules_obj
    notes = came_and_went(night)
    context = {
        "night": night,
        "s": result,
        # Each standing with when its player came or went (docs/rules.md section 10).
        "rows": [(st, p, notes.get(p.pk, "")) for st, p in result.rows],
        "rules": rules,
        "rules_label": PRESET_NAMES.get(rules.name, "The group's rules"),
    }
    return render(request, "play/standings.html", context)


# The standings' posts, one address each, answered back on the standings.


def _standings_post(request: HttpRequest, pk: int, form_class, act, what) -> HttpResponse:
    """Parse the post with ``form_class`` and say what ``act(night, data, by)`` returns;
    ``what(night, data)`` names the change in the money question."""
    night = night_for_host(request.user, pk)
    back = reverse("play:standings", args=[night.pk])
    try:
        data = form_class(request.POST).parsed()
        messages.success(request, act(night, data, request.user))
    except MoneyChange as change:
        return money_change_page(request, change, back=back, what=what(night, data))
    except ServiceError as error:
        messages.error(request, error.message)
    return redirect(back)


@login_required
@require_POST
def standings_door(request: HttpRequest, pk: int) -> HttpResponse:
    """Draw the door prize (docs/rules.md section 7.7): once; a second draw changes nothing."""

    def act(night, data, by):
        actions.door_prize_draw(night=night, by=by, money_ok=data["money_ok"])
        return "Door prize drawn."

    return _standings_post(request, pk, MoneyOkForm, act, lambda night, data: "Draw the door prize")


def _tied_player(night: Night, data: dict) -> Player | None:
    player_id = data["player"]
    return Player.objects.filter(group=night.group, pk=player_id).first() if player_id else None


@login_required
@require_POST
def standings_tiebreak(request: HttpRequest, pk: int) -> HttpResponse:
    """Record who won a tied prize's or set's tie-break; no player clears it."""

    def act(night, data, by):
        player = _tied_player(night, data)
        actions.prize_tiebreak_record(
            night=night, code=data["code"], player=player, by=by, money_ok=data["money_ok"]
        )
        return "Tie-break recorded." if player else "Tie-break cleared."

    def what(night, data):
        player = _tied_player(night, data)
        return f"{player.name} wins the tie-break" if player else "Clear the tie-break"

    return _standings_post(request, pk, PrizeTiebreakForm, act, what)
