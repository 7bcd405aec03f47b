"""What the host's night page shows (attendance, dues, seating) and the seating on a TV."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.utils import timezone

from bunco_night.core.forms import whole_number
from bunco_night.groups.models import Player
from bunco_night.rules.presets import FILL_GHOSTS, PRESET_NAMES

from .history import night_history
from .models import Attendance, Night, Payment, Round
from .played import Played, played_a_round, substitute_left, who_played
from .seat_tags import tagged
from .selectors import (
    DuesRow,
    SeatedTable,
    dues_summary,
    partners_again,
    seated_tables,
    seating_round,
)


@dataclass
class AttendanceRow:
    """An attendance with the message of a change that failed on it, if any."""

    attendance: Attendance
    error: str = ""
    error_in: str = ""  # which of the row's forms failed: "status", "pick", "new" or "leave"
    typed: dict | None = None  # what was typed into the new-substitute form
    fields: frozenset = frozenset()  # the inputs the error is about, for aria-invalid
    dues: DuesRow | None = None  # the row's dues tonight (None: no dues line)
    came_and_went: str = ""  # "Arrived for round 2", "Left after round 1" (docs/rules.md 10)
    substitute_left: bool = False  # a regular's row: her substitute played and left
    # Someone of it sat in a closed round: they can only leave early (docs/rules.md 10).
    played: bool = False


@dataclass
class RowError:
    attendance_pk: int
    where: str
    message: str
    typed: dict | None = None
    fields: frozenset = frozenset()


@dataclass
class DuesLine:
    """A dues row with its latest payment (to undo) and a refused payment's message."""

    row: DuesRow
    last_payment: Payment | None
    error: str = ""

    @property
    def shown(self) -> bool:
        """Whether the row owes, paid or carries anything (else it is a placeholder)."""
        r = self.row
        return bool(r.owes_cents or r.paid_cents or r.carried_cents or r.prepaid_cents)


@dataclass(frozen=True)
class NextStep:
    """The host's next step: "standings", "buck", "live", "start", "answers" (``note``:
    how they stand) or "draw"."""

    kind: str
    round: Round | None = None
    note: str = ""


def night_next_step(
    night: Night, rnd: Round | None, chart: list[SeatedTable], today: dt.date
) -> NextStep:
    """The host's next step on ``night`` (seating round ``rnd`` as ``chart``), ``today``."""
    if night.is_over:
        return NextStep("standings")
    if night.rules_obj.is_buck_dice:
        return NextStep("buck")
    if rnd is not None and rnd.is_playing:
        return NextStep("live", rnd)
    if rnd is not None and chart:
        return NextStep("start", rnd)
    if rnd is None and night.date > today:
        return NextStep("answers", note=_answers_note(night))
    return NextStep("draw", rnd)


def _answers_note(night: Night) -> str:
    """How the regulars' answers to ``night`` stand, in a line (the invites app's rows)."""
    regulars = night.attendances.filter(player__kind=Player.Kind.REGULAR)
    answered = regulars.filter(answer__isnull=False).count()
    if not answered and not night.notices.filter(kind__in=("invitation", "reminder")).exists():
        return "Send the invitations; answers come in below."
    said = [
        f"{answered} of {regulars.count()} answered."
        if answered
        else "Invitations sent; nobody has answered yet."
    ]
    absent = regulars.filter(status=Attendance.Status.ABSENT)
    asking = absent.filter(calls__status="open").distinct().count()
    alone = absent.count() - asking
    if alone:
        said.append(f"{alone} not coming, no substitute yet.")
    if asking:
        said.append(f"Substitutes asked for {asking}.")
    return " ".join(said)


def night_context(
    night: Night,
    *,
    today: dt.date | None = None,
    pick: str | None = None,
    row_error: RowError | None = None,
    guest_error: str = "",
    pay_error: RowError | None = None,
    draw_error: str = "",
    swap_error: str = "",
    confirm_draw: str = "",
    draw_seed: str = "",
    confirm_undo: int | None = None,
    new_tables: list[int] = (),
) -> dict:
    """Everything the night page shows, on ``today`` (default: the group's today)."""
    night.refresh_from_db()
    attendances = list(night.attendances.select_related("player", "substitute"))
    summary = dues_summary(night)
    last_payment = {
        p.attendance_id: p
        for p in Payment.objects.filter(attendance__night=night).order_by("created", "pk")
    }
    dues_rows = [
        DuesLine(
            r,
            last_payment.get(r.attendance.pk),
            pay_error.message if pay_error and pay_error.attendance_pk == r.attendance.pk else "",
        )
        for r in summary.rows
    ]
    dues_of = {r.attendance.pk: r for r in summary.rows}
    played = {p.player.pk: p for p in who_played(night)}
    sat = played_a_round(night)
    seating = _seating_parts(night)
    seat_ids = {s.pk for t in seating["chart"] for s in t.seats}
    picked = whole_number(pick) if seating["pickable"] else None
    return {
        **_list_parts(night, attendances, played),
        **seating,
        "rules_label": PRESET_NAMES.get(night.rules_obj.name, night.rules_obj.name),
        "rows": [_row(a, row_error, dues_of.get(a.pk), played, sat) for a in attendances],
        "guest_error": guest_error,
        "summary": summary,
        "dues_rows": dues_rows,
        "dues_shown": sum(1 for line in dues_rows if line.shown),
        "pick": picked if picked in seat_ids else None,
        "draw_error": draw_error,
        "swap_error": swap_error,
        "confirm_draw": confirm_draw,
        "confirm_undo": confirm_undo,
        "draw_seed": draw_seed,
        "new_tables": new_tables,
        "next_step": night_next_step(
            night, seating["round"], seating["chart"], today or timezone.localdate()
        ),
        "history": list(night_history(night)),
        "history_count": night.actions.count(),  # the list shows the newest lines only
    }


def attendance_row_context(
    night: Night, attendance_pk: int, *, row_error: RowError | None = None, added: bool = False
) -> dict | None:
    """What one attendance change redraws: the row, counts, dues and seating; ``added``:
    a new row, put before ``after``. None when the row is gone (redraw the section)."""
    night.refresh_from_db()
    attendances = list(night.attendances.select_related("player", "substitute"))
    index = next((i for i, a in enumerate(attendances) if a.pk == attendance_pk), None)
    if index is None:
        return None
    after = attendances[index + 1].pk if index + 1 < len(attendances) else None
    dues = _dues_of_one(night, attendance_pk)
    played = {p.player.pk: p for p in who_played(night)}
    line = dues["line"].row if dues["line"] else None
    row = _row(attendances[index], row_error, line, played, played_a_round(night))
    return {
        **_list_parts(night, attendances, played),
        **dues,
        **_seating_parts(night),
        "row": row,
        "row_error": row_error,
        "added": added,
        "after": after,
        "pick": None,
        "history_count": night.actions.count(),
    }


def _row(
    attendance: Attendance,
    row_error: RowError | None,
    dues: DuesRow | None = None,
    played: dict[int, Played] | None = None,
    sat: set[int] = frozenset(),
) -> AttendanceRow:
    """An attendance row with its dues, comings and goings (``played``), whether it sat in
    a closed round (``sat``), and its refused change's error."""
    who = (attendance.plays or attendance.player).pk
    played = played or {}
    note = played[who].came_and_went if who in played else ""
    sub_left = substitute_left(attendance, played)
    row = AttendanceRow(attendance, dues=dues, came_and_went=note, substitute_left=sub_left)
    row.played = bool({attendance.player_id, getattr(attendance.plays, "pk", None)} & sat)
    if row_error and row_error.attendance_pk == attendance.pk:
        row.error, row.error_in, row.typed = row_error.message, row_error.where, row_error.typed
        row.fields = row_error.fields
    return row


def _list_parts(night: Night, attendances: list[Attendance], played: dict[int, Played]) -> dict:
    """The attendance list's count playing and who is free to come late or substitute."""
    on_list = {a.player_id for a in attendances} | {a.substitute_id for a in attendances}
    free = night.group.players.filter(retired=False).exclude(pk__in=on_list)
    if night.is_over:
        playing = len(played)
    else:
        playing = sum(1 for a in attendances if a.plays is not None)
    return {
        "night": night,
        "group": night.group,
        "over": night.is_over,
        "playing": playing,
        "ghosts_fill": night.rules_obj.fill == FILL_GHOSTS,
        "has_played": night.rounds.closed().exists(),
        "free_subs": free.filter(kind=Player.Kind.SUBSTITUTE),
        "free_players": free,
    }


def _seating_parts(night: Night) -> dict:
    """The seating section: the round it seats, its chart, and what the host may do."""
    rnd = seating_round(night)
    chart = tagged(night, seated_tables(rnd)) if rnd is not None else []
    pickable = bool(chart) and rnd.is_pending
    return {
        "round": rnd,
        "chart": chart,
        "pickable": pickable,
        "redraw": rnd is not None and not chart,
        "can_undo_draw": rnd is not None and rnd.is_pending and rnd.replaced_seating is not None,
        "partners_again": partners_again(rnd, chart) if pickable else [],
    }


def _dues_of_one(night: Night, attendance_pk: int, error: str = "") -> dict:
    """The dues totals and one attendance's dues line (None: no longer on the list)."""
    summary = dues_summary(night)
    row = next((r for r in summary.rows if r.attendance.pk == attendance_pk), None)
    line = None
    if row is not None:
        payments = Payment.objects.filter(attendance_id=attendance_pk)
        line = DuesLine(row, payments.order_by("-created", "-pk").first(), error)
    return {
        "summary": summary,
        "line": line,
        "dues_shown": sum(1 for r in summary.rows if DuesLine(r, None).shown),
    }


def dues_row_context(
    night: Night, attendance_pk: int, *, pay_error: str = "", confirm_undo: int | None = None
) -> dict:
    """What a payment (or its undo) redraws: the dues line and the totals."""
    night.refresh_from_db()
    return {
        "night": night,
        "group": night.group,
        "ghosts_fill": night.rules_obj.fill == FILL_GHOSTS,
        "confirm_undo": confirm_undo,
        "history_count": night.actions.count(),
        **_dues_of_one(night, attendance_pk, pay_error),
    }


# A TV cannot scroll: pages of at most this many tables turn by themselves (pages.js).
TV_TABLES_PER_PAGE = 20
# The grid of a TV page by the most tables a page of the night shows: (up to, columns, rows).
TV_GRIDS = (
    (1, 1, 1),
    (2, 2, 1),
    (4, 2, 2),
    (6, 3, 2),
    (8, 4, 2),
    (12, 4, 3),
    (15, 5, 3),
    (TV_TABLES_PER_PAGE, 5, 4),
)
# The most characters of a name a TV card's line holds (static/css/site.css).
TV_LINE_CHARS = 16


@dataclass(frozen=True)
class TvPage:
    """One screenful of the seating TV: its tables and the grid they fill."""

    number: int
    tables: list[SeatedTable]
    columns: int
    rows: int

    @property
    def chart_class(self) -> str:
        """The chart's classes: grid, compact cards, long names."""
        return (
            f"tv-grid tv-grid-{self.columns}x{self.rows}"
            + ("" if self.roomy else " tv-compact")
            + (" tv-long-names" if self.long_names else "")
        )

    @property
    def long_names(self) -> bool:
        """A name on the page, with its tag, is longer than a card's line holds."""
        return any(
            len(seat.occupant_name) + (len(tag.short_text) + 1 if tag else 0) > TV_LINE_CHARS
            for t in self.tables
            for seat, _, tag in t.chart_rows
        )

    @property
    def roomy(self) -> bool:
        """One or two tables: cards have room for how the table plays and seat boxes."""
        return self.columns * self.rows <= 2

    @property
    def teams(self) -> bool:
        return any(t.teams for t in self.tables)


def even_pages(items: list, most: int) -> list[list]:
    """``items`` in as few pages of at most ``most`` as can be, evenly (13 by 12: 7 and 6)."""
    if not items:
        return []
    count = -(-len(items) // most)
    size, extra = divmod(len(items), count)  # the first ``extra`` pages have one more
    pages, start = [], 0
    for number in range(1, count + 1):
        end = start + size + (number <= extra)
        pages.append(items[start:end])
        start = end
    return pages


def tv_pages(chart: list[SeatedTable]) -> list[TvPage]:
    """``chart`` in even pages of at most ``TV_TABLES_PER_PAGE``, in the largest's grid."""
    pages = even_pages(chart, TV_TABLES_PER_PAGE)
    if not pages:
        return []
    columns, rows = next((c, r) for most, c, r in TV_GRIDS if len(pages[0]) <= most)
    return [TvPage(n, tables, columns, rows) for n, tables in enumerate(pages, start=1)]
