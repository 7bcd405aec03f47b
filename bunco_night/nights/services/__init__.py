"""Planning a night, the writes (one transaction each); every public name is here."""

from .attendance import (
    attendance_leave,
    attendance_send_new_substitute,
    attendance_set,
    guest_add,
    lists_follow_retirement,
)
from .nights import night_create, night_delete, night_lock, night_touch, night_update
from .payments import payment_record, payment_undo, prepayment_record, prepayment_undo
from .seating import (
    round_for,
    round_mark,
    seating_draw,
    seating_draw_undo,
    seating_reseat,
    seating_swap,
    seats_save,
    tables_sync,
)

__all__ = [
    "attendance_leave",
    "attendance_send_new_substitute",
    "attendance_set",
    "guest_add",
    "lists_follow_retirement",
    "night_create",
    "night_delete",
    "night_lock",
    "night_touch",
    "night_update",
    "payment_record",
    "payment_undo",
    "prepayment_record",
    "prepayment_undo",
    "round_for",
    "round_mark",
    "seating_draw",
    "seating_draw_undo",
    "seating_reseat",
    "seating_swap",
    "seats_save",
    "tables_sync",
]
