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
    """What a host's correction to a closed round changed (docs/rules.md section 6.2):
    each table's winner, and the next round's seating (``next_seating``): drawn again
    from the new winners, kept because that round had started, or None when it did not
    change (the same winners, or a next round with no seating yet) or there is no next
    round."""

    winners: tuple[TableWinner, ...]
    next_round: int | None
    next_seating: str | None
    # The next round's draw could be taken back before, and no longer can (section 4.4).
    draw_undo_lost: bool = False


@dataclass(frozen=True)
class EntryChanged:
    """What a change to one ``entry`` did (undone, put back, a late one decided): the
    entry as it is now, and what it recomputed in a closed round, else None."""

    entry: Entry
    recomputed: Recomputed | None = None


@dataclass(frozen=True)
class PlayChanged:
    """What a change to a table's ``play`` in a round did (its winner, its tie-break): the
    play as it is now, and what it recomputed in a closed round, else None."""

    play: TablePlay
    recomputed: Recomputed | None = None


@transaction.atomic
def results_recompute(*, rnd: Round) -> Recomputed:
    """After a host's correction to a closed round: results, and the next seating if unplayed.

    The night is locked before the winners and the next round are read, as the services
    that seat the next round or start it lock it (``night_lock``): a draw, a swap or a
    start in progress commits first, and those wait for this. The order of the locks:
    a started round's rows (the correction holds the closed round's row and its table's
    play, ``_lock_play``), then the night, then a pending round's rows. A tap holds its
    play when it moves the night's scores version: a correction taking the night before
    the play could deadlock with a late tap at that table.

    Returns what changed, for the host's answer: each table's winner, and what became of
    the next round's seating."""
    rnd.night = night_lock(rnd.night_id)
    board = round_board(rnd)
    for tr in board.tables:
        if tr.winner_side is None:
            raise ServiceError(_no_winner(tr.table.number, tr.scores), "no_winner")
    won_before = set(Seat.objects.filter(round=rnd, won=True).values_list("table_id", "number"))
    _seat_results(board)
    won_now = {(s.table_id, s.number) for tr in board.tables for s in tr.seats if s.won}
    nxt = rnd.night.rounds.filter(number=rnd.number + 1).first()
    # The movement follows the winners: with the same winners the next seating stays as it
    # is, seats the host swapped by hand included. A next round that has started keeps
    # the seating it was played with; one with no seating has none because who plays
    # changed since this round: the movement from it no longer fits, and the host draws
    # it (docs/rules.md sections 6.2 and 10).
    moved, seating, undo_lost = won_now != won_before, None, False
    if nxt is not None and moved and not nxt.is_pending:
        seating = SEATING_KEPT
    elif nxt is not None and moved and nxt.seats.exists():
        undo_lost = nxt.replaced_seating is not None
        _seat_next_round_again(board)
        # A draw of that round can no longer be taken back: the seating it replaced
        # followed the old winners (docs/rules.md section 6.2).
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
    """Why a correction that leaves table ``number`` without a winner is refused: a tie at
    the top (docs/rules.md section 3.4) says so."""
    top = max(scores, default=0)
    if list(scores).count(top) > 1:
        return (
            f"After this change table {number} is tied at {top} to {top}: "
            "pick its winner or record the tie-break."
        )
    return f"After this change table {number} has no winner: pick it."
