"""Taking a tap back: undo, the host's put-back, and a late tap accepted or discarded."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from bunco_night.core.errors import ServiceError
from bunco_night.nights.models import Table

from ..models import Entry, TablePlay
from ..state import (
    table_round,
)
from .changes import _settle, _touch_table
from .corrections import EntryChanged
from .locks import _lock_play


@transaction.atomic
def late_entry_decide(*, entry: Entry, accept: bool) -> EntryChanged:
    """The host accepts or discards a late entry (docs/rules.md section 3.5)."""
    rnd = entry.round
    _lock_play(rnd, entry.table)
    entry.refresh_from_db()
    if not entry.is_late or entry.late_decision or entry.undone_at:
        raise ServiceError("That entry is not waiting for a decision.", "not_late")
    entry.late_decision = Entry.Late.ACCEPTED if accept else Entry.Late.DISCARDED
    entry.save(update_fields=["late_decision"])
    if accept:
        return EntryChanged(entry, _settle(rnd, entry.table).recomputed)
    _touch_table(rnd, entry.table)
    return EntryChanged(entry)


def _entry_held(table: Table, entry_id: int) -> tuple[Entry, TablePlay]:
    """(an entry at ``table``, its play), the entry read after the play is locked."""
    entry = Entry.objects.filter(pk=entry_id, table=table).select_related("round").first()
    if entry is None:
        raise ServiceError("That entry is not at this table.", "unknown_entry")
    play = _lock_play(entry.round, table)
    entry.refresh_from_db(fields=["undone_at", "extra_pass", "late_at", "late_decision"])
    return entry, play


@transaction.atomic
def entry_undo(*, table: Table, entry_id: int, by_host: bool = False) -> EntryChanged:
    """Undo an entry (kept, marked undone); undoing twice is a no-op."""
    entry, play = _entry_held(table, entry_id)
    rnd = entry.round
    if not by_host:
        here = table_round(rnd, table, play) if rnd.is_playing else None
        if here is None or not here.may_undo(entry):
            if here is not None and here.outcome.in_extra_turns and not entry.is_late:
                raise ServiceError(
                    "That turn was in an earlier pass of extra turns: ask the host to correct "
                    "it, or take back Extra turns done first.",
                    "round_closed",
                )
            raise ServiceError(
                "That round is over here: ask the host to correct it.", "round_closed"
            )
    # Written only if not undone meanwhile (a double tap held behind the table's lock).
    now = timezone.now()
    if Entry.objects.filter(pk=entry.pk, undone_at__isnull=True).update(undone_at=now):
        entry.undone_at = now
        return EntryChanged(entry, _settle(rnd, table).recomputed)
    return EntryChanged(entry)


@transaction.atomic
def entry_put_back(*, table: Table, entry_id: int) -> EntryChanged:
    """The host puts back an undone entry (docs/rules.md sections 3.4 and 6.2); twice is
    a no-op."""
    entry, play = _entry_held(table, entry_id)
    here = table_round(entry.round, table, play) if entry.extra_pass else None
    if entry.extra_pass and (
        entry.extra_pass > play.extra_passes + 1 or here is None or not here.outcome.done
    ):
        raise ServiceError(
            "That turn was in extra turns the table has taken back: add it again if it counts.",
            "extra_pass_taken_back",
        )
    if Entry.objects.filter(pk=entry.pk, undone_at__isnull=False).update(undone_at=None):
        entry.undone_at = None
        return EntryChanged(entry, _settle(entry.round, table).recomputed)
    return EntryChanged(entry)
