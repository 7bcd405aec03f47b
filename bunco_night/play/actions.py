"""The host's play actions: each its ``services`` namesake plus a history line, in one
transaction (docs/rules.md section 6.6); ``money_ok`` says yes to a money change (7.9)."""

from __future__ import annotations

from django.db import transaction

from bunco_night.core.text import is_nonce
from bunco_night.groups.models import Player
from bunco_night.nights import history
from bunco_night.nights.models import Night, Round, Table
from bunco_night.nights.money import money_settle
from bunco_night.rules.shares import ALL_PRIZE_LABELS

from . import services
from .models import Entry
from .state import table_round

Kind = history.Kind


@transaction.atomic
def round_close(*, rnd: Round, by) -> Round | None:
    """``services.round_close``, kept in the night's history."""
    nxt = services.round_close(rnd=rnd)
    text = f"Closed round {rnd.number}"
    if nxt is None:
        text += ": the night is over"
    history.record(
        night=rnd.night_id, by=by, kind=Kind.FINISH if nxt is None else Kind.ROUND, text=text
    )
    return nxt


@transaction.atomic
def night_finish(*, night: Night, by) -> Night:
    """``services.night_finish``: the host ends the night, kept in its history."""
    night = services.night_finish(night=night)
    last = night.rounds.closed().order_by("-number").first()
    after = f" after round {last.number}" if last else " before any round was played"
    history.record(night=night, by=by, kind=Kind.FINISH, text=f"Ended the night{after}")
    return night


def _where(rnd: Round, table: Table) -> str:
    return f"Round {rnd.number}, table {table.number}"


def _entry_text(entry: Entry, rules) -> str:
    who = f" by {entry.roller.name}" if entry.roller_id else ""
    return f"“{entry.describe(rules)}” for seat {entry.seat}{who}"


def _correct(rnd: Round, table: Table, by, money_ok: str, text: str) -> None:
    """A host's correction at ``table``: the history's line, and a finished night's money."""
    where = f"{_where(rnd, table)}: {text}"
    history.record(night=rnd.night_id, by=by, kind=Kind.CORRECTION, text=where)
    money_settle(night=rnd.night, by=by, money_ok=money_ok)  # reads the night afresh


@transaction.atomic
def entry_add(*, table: Table, rnd: Round, by, money_ok: str = "", **tap) -> services.TapResult:
    """``services.entry_record`` for the host, correcting ``rnd`` at ``table``."""
    nonce = tap.get("nonce") or ""
    known = is_nonce(nonce) and Entry.objects.filter(nonce=nonce).exists()
    done = services.entry_record(table=table, by_host=True, rnd=rnd, **tap)
    if not known:
        text = f"added {_entry_text(done.entry, rnd.night.rules_obj)}"
        _correct(rnd, table, by, money_ok, text)
    return done


def _held_entry(table: Table, entry_id: int) -> Entry | None:
    return Entry.objects.filter(pk=entry_id, table=table).select_related("roller", "round").first()


@transaction.atomic
def entry_undo(*, table: Table, entry_id: int, by, money_ok: str = "") -> services.EntryChanged:
    """``services.entry_undo`` by the host."""
    before = _held_entry(table, entry_id)
    done = services.entry_undo(table=table, entry_id=entry_id, by_host=True)
    entry = done.entry
    if before is not None and before.undone_at is None and entry.undone_at is not None:
        rules = entry.round.night.rules_obj
        _correct(entry.round, table, by, money_ok, f"undid {_entry_text(before, rules)}")
    return done


@transaction.atomic
def entry_put_back(*, table: Table, entry_id: int, by, money_ok: str = "") -> services.EntryChanged:
    """``services.entry_put_back`` by the host."""
    before = _held_entry(table, entry_id)
    done = services.entry_put_back(table=table, entry_id=entry_id)
    entry = done.entry
    if before is not None and before.undone_at is not None and entry.undone_at is None:
        rules = entry.round.night.rules_obj
        _correct(entry.round, table, by, money_ok, f"put back {_entry_text(before, rules)}")
    return done


@transaction.atomic
def late_entry_decide(
    *, entry: Entry, accept: bool, by, money_ok: str = ""
) -> services.EntryChanged:
    """``services.late_entry_decide``."""
    done = services.late_entry_decide(entry=entry, accept=accept)
    entry = done.entry
    held = _held_entry(entry.table, entry.pk)
    decided = "counted" if accept else "discarded"
    text = f"{decided} the late entry {_entry_text(held, entry.round.night.rules_obj)}"
    _correct(entry.round, entry.table, by, money_ok, text)
    return done


def _side_name(rnd: Round, table: Table, side: int | None) -> str:
    here = table_round(rnd, table)
    if side is None or here is None:
        return ""
    names = here.seated.side_names()
    return names[side] if 0 <= side < len(names) else ""


@transaction.atomic
def winner_set(
    *, rnd: Round, table: Table, side: int | None, by, money_ok: str = ""
) -> services.PlayChanged:
    """``services.winner_set``: the host sets (or clears) a table's winner."""
    done = services.winner_set(rnd=rnd, table=table, side=side)
    text = (
        "winner cleared: the scores decide"
        if side is None
        else f"winner set to {_side_name(rnd, table, side)}"
    )
    _correct(rnd, table, by, money_ok, text)
    return done


@transaction.atomic
def tiebreak_record(
    *, table: Table, side: int, rnd: Round, by, money_ok: str = ""
) -> services.PlayChanged:
    """``services.tiebreak_record`` by the host, in any started round."""
    done = services.tiebreak_record(table=table, side=side, rnd=rnd, by_host=True)
    _correct(rnd, table, by, money_ok, f"tie-break won by {_side_name(rnd, table, side)}")
    return done


def _prize_title(night: Night, code: str) -> str:
    if code.startswith("set-"):
        return f"Set {code.removeprefix('set-')} roll-off"
    for c in night.prize_categories:
        if c.key == code:
            return c.title
    return ALL_PRIZE_LABELS.get(code, code)


@transaction.atomic
def prize_tiebreak_record(
    *, night: Night, code: str, player: Player | None, by, money_ok: str = ""
) -> None:
    """``services.prize_tiebreak_record``: who won a tied prize or set, or cleared."""
    services.prize_tiebreak_record(night=night, code=code, player=player)
    title = _prize_title(night, code)
    text = f"{title}: {player.name} won the tie-break" if player else f"{title}: tie-break cleared"
    history.record(night=night, by=by, kind=Kind.TIEBREAK, text=text)
    money_settle(night=night, by=by, money_ok=money_ok)


@transaction.atomic
def door_prize_draw(*, night: Night, by, money_ok: str = "") -> Night:
    """``services.door_prize_draw``: kept in the history the first time it is drawn."""
    drawn = Night.objects.filter(pk=night.pk, door_seed__isnull=False).exists()
    night = services.door_prize_draw(night=night)
    if not drawn:
        text = f"Drew the door prize (number {night.door_seed})"
        history.record(night=night, by=by, kind=Kind.DOOR, text=text)
        money_settle(night=night, by=by, money_ok=money_ok)
    return night
