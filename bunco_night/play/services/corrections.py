"""A host's correction to a closed round: its results again, and the next seating."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction

from bunco_night.core.errors import ServiceError
from bunco_night.nights.models import Round, Seat
from bunco_night.nights.services import (
    night_lock,
    night_touch,
)

from ..models import Entry, TablePlay
from ..state import (
    round_board,
)
from .closing import _seat_next_round_again, _seat_results

# What became of the next round's seating after a correction (``Recomputed``).
SEATING_DRAWN_AGAIN = "drawn_again"  # not started: seated again from the new winners


SEATING_KEPT = "kept"  # started already: seated from the old winners, and stays so


@dataclass(frozen=True)
class TableWinner:
    """A table's winner after a correction, by name, and whether the correction changed it."""

    number: int
    name: str
    changed: bool


@dataclass(frozen=True)
class Recomputed:
    """What a correction to a closed round changed (docs/rules.md section 6.2): winners,
    and ``next_seating`` (a ``SEATING_*``, or None if unchanged or no next round)."""

    winners: tuple[TableWinner, ...]
    next_round: int | None
    next_seating: str | None
    # The next round's draw could be taken back before, and no longer can (section 4.4).
    draw_undo_lost: bool = False


@dataclass(frozen=True)
class EntryChanged:
    """The ``entry`` after a change, and what it recomputed in a closed round, else None."""

    entry: Entry
    recomputed: Recomputed | None = None


@dataclass(frozen=True)
class PlayChanged:
    """The ``play`` after a change, and what it recomputed in a closed round, else None."""

    play: TablePlay
    recomputed: Recomputed | None = None


@transaction.atomic
def results_recompute(*, rnd: Round) -> Recomputed:
    """After a host's correction to a closed round: results, and the next seating if unplayed.
    Locks the night after the round's rows (lock order: docs/architecture.md, Design notes).
    Returns what changed, for the host's answer."""
    rnd.night = night_lock(rnd.night_id)
    board = round_board(rnd)
    for tr in board.tables:
        if tr.winner_side is None:
            raise ServiceError(_no_winner(tr.table.number, tr.scores), "no_winner")
    won_before = set(Seat.objects.filter(round=rnd, won=True).values_list("table_id", "number"))
    _seat_results(board)
    won_now = {(s.table_id, s.number) for tr in board.tables for s in tr.seats if s.won}
    nxt = rnd.night.rounds.filter(number=rnd.number + 1).first()
    # Same winners: the next seating stays (swaps too); a started round keeps its seating
    # (docs/rules.md sections 6.2 and 10).
    moved, seating, undo_lost = won_now != won_before, None, False
    if nxt is not None and moved and not nxt.is_pending:
        seating = SEATING_KEPT
    elif nxt is not None and moved and nxt.seats.exists():
        undo_lost = nxt.replaced_seating is not None
        _seat_next_round_again(board)
        # Its draw can no longer be taken back (docs/rules.md section 6.2).
        Round.objects.filter(pk=nxt.pk).update(replaced_seating=None)
        seating = SEATING_DRAWN_AGAIN
    night_touch(rnd.night)
    flipped = {table_id for table_id, _ in won_now ^ won_before}
    return Recomputed(
        winners=tuple(
            TableWinner(tr.table.number, tr.side_names()[tr.winner_side], tr.table.pk in flipped)
            for tr in board.tables
        ),
        next_round=None if nxt is None else nxt.number,
        next_seating=seating,
        draw_undo_lost=undo_lost,
    )


def _no_winner(number: int, scores: tuple[int, ...]) -> str:
    """Why a correction leaving table ``number`` tied (docs/rules.md 3.4) is refused."""
    top = max(scores, default=0)
    if list(scores).count(top) > 1:
        return (
            f"After this change table {number} is tied at {top} to {top}: "
            "pick its winner or record the tie-break."
        )
    return f"After this change table {number} has no winner: pick it."
