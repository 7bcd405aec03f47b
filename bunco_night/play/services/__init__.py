"""Playing a night, the writes: entries from table phones, Done and tie-breaks, the bell,
closing a round and seating the next one, the host's corrections.

Every write is one transaction that locks the row serialising the change (the
table's ``TablePlay`` for entries, the ``Round`` for closing; then the ``Night`` too,
before seating the next round, as the seating services do) and is safe to retry: an
entry's client ``nonce`` is unique, so a repeated submit is a no-op. The rules engine
decides scores, round end and movement; ``state`` reads where a round stands.

The services live in modules by what they do; their public names are all here.
"""

from .closing import RESULT_FIELDS, round_close
from .corrections import (
    SEATING_DRAWN_AGAIN,
    SEATING_KEPT,
    EntryChanged,
    PlayChanged,
    Recomputed,
    TableWinner,
    results_recompute,
)
from .links import table_link_renew
from .prizes import SET_CODE, door_prize_draw, night_finish, prize_tiebreak_record
from .rounds import (
    bell_ring,
    extra_turns_done,
    round_clock,
    round_start,
    table_done,
    tiebreak_record,
    winner_set,
)
from .taps import DICE, MAX_ROUND_NUMBER, TapResult, entry_record
from .undo import entry_put_back, entry_undo, late_entry_decide

__all__ = [
    "DICE",
    "MAX_ROUND_NUMBER",
    "RESULT_FIELDS",
    "SEATING_DRAWN_AGAIN",
    "SEATING_KEPT",
    "SET_CODE",
    "EntryChanged",
    "PlayChanged",
    "Recomputed",
    "TapResult",
    "TableWinner",
    "bell_ring",
    "door_prize_draw",
    "entry_put_back",
    "entry_record",
    "entry_undo",
    "extra_turns_done",
    "late_entry_decide",
    "night_finish",
    "prize_tiebreak_record",
    "results_recompute",
    "round_clock",
    "round_close",
    "round_start",
    "table_done",
    "table_link_renew",
    "tiebreak_record",
    "winner_set",
]
