"""Closing a round: each seat's results, and the next round seated by the movement."""

from __future__ import annotations

import random

from django.db import transaction
from django.utils import timezone

from bunco_night.core.bulk import update_each
from bunco_night.core.errors import ServiceError
from bunco_night.nights.models import Night, Round, Table
from bunco_night.nights.money import money_record
from bunco_night.nights.selectors import players_tonight
from bunco_night.nights.services import (
    night_lock,
    night_touch,
    round_for,
    round_mark,
    seating_reseat,
    seats_save,
    tables_sync,
)
from bunco_night.rules.movement import Ghost, next_seating
from bunco_night.rules.rounds import points_rolled
from bunco_night.rules.scoring import HIGH, LOW, MINI_KINDS

from ..models import Entry
from ..state import (
    RoundBoard,
    round_board,
)
from .locks import _lock_plays

RESULT_FIELDS = ["won", "buncos", "mini_buncos", "low_buncos", "high_buncos", "marks", "score"]


def _seat_results(board: RoundBoard) -> None:
    """Write each seat's results from the entries (docs/rules.md section 6.4)."""
    card_game = board.round.night.rules_obj.is_card_game
    seats = []
    for tr in board.tables:
        side = tr.winner_side
        winners = set(tr.seated.game.side_seats(side)) if side is not None else set()
        credit: dict[int, dict] = {}
        for e in tr.entries:
            if e.roller_id is None:
                continue
            c = credit.setdefault(e.roller_id, _no_credit())
            if e.kind == Entry.Kind.BUNCO:
                c["buncos"] += 1
            elif e.kind in MINI_KINDS:
                c["minis"] += 1
                c["low"] += e.kind == LOW
                c["high"] += e.kind == HIGH
            elif e.kind == Entry.Kind.MARK:
                c["marks"][e.mark_code] = c["marks"].get(e.mark_code, 0) + 1
        rollers = {n: p.pk for n in range(1, tr.size + 1) if (p := tr.seated.roller(n))}
        points = points_rolled(tr.rolls, rollers, teams=tr.teams)
        for s in tr.seats:
            c = credit.get(s.player_id, _no_credit())
            s.won = s.number in winners if side is not None else None
            s.buncos, s.mini_buncos, s.marks = c["buncos"], c["minis"], c["marks"]
            s.low_buncos, s.high_buncos = c["low"], c["high"]
            s.score = None if card_game or s.player_id is None else points.get(s.player_id, 0)
        seats += tr.seats
    update_each(seats, RESULT_FIELDS)


def _no_credit() -> dict:
    return {"buncos": 0, "minis": 0, "low": 0, "high": 0, "marks": {}}


def _seat_next_round(board: RoundBoard, tables: list[Table] | None = None) -> Round | None:
    """Seat the next round by the movement (at ``tables``); None after the last round."""
    rnd = board.round
    night = rnd.night
    if rnd.number >= night.total_rounds:
        return None
    seating = tuple(tr.seated.occupants for tr in board.tables)  # head table first
    ghosts = {o for t in seating for o in t if isinstance(o, Ghost)}
    winners = [tr.seated.game.side_seats(tr.winner_side) for tr in board.tables]
    moved = next_seating(night.rules_obj, seating, winners, ghosts)
    number = rnd.number + 1
    nxt = round_for(night, number)
    if not nxt.is_pending:
        return nxt
    if nxt.mark is None:
        nxt.mark = round_mark(night, number, random.Random(f"{night.seed}-{number}"))
    # The movement made this seating: no seed (docs/rules.md section 4.4); the mark stays.
    nxt.draw_seed = None
    nxt.save(update_fields=["mark", "draw_seed"])
    seats_save(nxt, tables or [tr.table for tr in board.tables], moved)
    return nxt


def _seat_next_round_again(board: RoundBoard) -> None:
    """Re-seat the next round from corrected winners, then for who plays now (docs/rules.md
    section 10)."""
    night = board.round.night
    played = [s.player_id for tr in board.tables for s in tr.seats if s.player_id is not None]
    playing = [p.pk for p in players_tonight(night)]
    # The tables as the corrected round had them: who plays may have changed them since.
    _seat_next_round(board, tables_sync(night, [tr.size for tr in board.tables]))
    seating_reseat(
        night,
        leaving=[p for p in played if p not in playing],
        arriving=[p for p in playing if p not in played],
    )


def _tables(numbers: list[int]) -> str:
    """ "Table 3", or "Tables 3, 5 and 8"."""
    if len(numbers) == 1:
        return f"Table {numbers[0]}"
    return f"Tables {', '.join(map(str, numbers[:-1]))} and {numbers[-1]}"


@transaction.atomic
def round_close(*, rnd: Round) -> Round | None:
    """Close a round that is over, record results; returns the next round seated, or None."""
    rnd = Round.objects.select_for_update(no_key=True).get(pk=rnd.pk)
    if not rnd.is_playing:
        raise ServiceError("That round is not being played.", "round_not_playing")
    _lock_plays(rnd)
    rnd.night = night_lock(rnd.night_id)  # before it seats the next round: results_recompute
    board = round_board(rnd)
    missing = [tr for tr in board.tables if tr.winner_side is None]
    if missing:
        ties = [tr for tr in missing if tr.outcome.needs_tiebreak]
        if ties:
            playing = [tr.table.number for tr in ties if tr.outcome.in_extra_turns]
            settle = [tr.table.number for tr in ties if not tr.outcome.in_extra_turns]
            said = []
            if settle:
                each = "each tie-break" if len(settle) > 1 else "the tie-break"
                said.append(f"{_tables(settle)}: record who won {each}.")
            if playing:  # docs/rules.md section 3.4: the phone says when they are done
                are = "are" if len(playing) > 1 else "is"
                said.append(
                    f"{_tables(playing)} {are} playing extra turns to break a tie: wait "
                    "for them, or record who won."
                )
            raise ServiceError(" ".join(said), "tie_needs_break")
        late = [tr.table.number for tr in missing]
        them = ("their phones", "their winners") if len(late) > 1 else ("its phone", "its winner")
        raise ServiceError(
            f"Not every table is done: {_tables(late).lower()}. Wait for Done on {them[0]}, "
            f"or set {them[1]} with Correct.",
            "round_not_over",
        )
    rnd.status, rnd.closed_at = Round.Status.CLOSED, timezone.now()
    rnd.save(update_fields=["status", "closed_at"])
    _seat_results(board)
    nxt = _seat_next_round(board)
    if nxt is None:
        night = rnd.night
        night.status = Night.Status.FINISHED
        night.save(update_fields=["status"])
        money_record(night)  # docs/rules.md section 7.9
    night_touch(rnd.night)
    return nxt
