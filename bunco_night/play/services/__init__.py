"""Playing a night, the writes; every public name is here. Each write is one transaction locking
the row that serialises it (``TablePlay``, ``Round``, then ``Night``), and retry-safe by its
``nonce``."""

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
from .locks import MAX_ROUND_NUMBER
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
from .taps import TapResult, entry_record
from .undo import entry_put_back, entry_undo, late_entry_decide

__all__ = [
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
