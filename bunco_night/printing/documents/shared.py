"""What every printed document of a night shares: paper, play links, rounds, results and columns.
Seats are read once, as tuples (``seat_results``), not per player."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from django.urls import reverse

from bunco_night.groups.models import Group
from bunco_night.nights.models import Night, Round, Seat
from bunco_night.rules.presets import Rules


def paper(group: Group) -> str:
    """The CSS page size for the group's paper."""
    return "A4" if group.paper_size == Group.PaperSize.A4 else "letter"


# The paper's width, and the text width in print.css's "bare" margins (points).
PAPER_WIDTH_PT = {"letter": 612.0, "A4": 595.2756}
BARE_MARGINS_PT = 72.0


@dataclass(frozen=True)
class PlayLinks:
    """Absolute links to the play pages for QR codes; ``absolute(path)`` makes a URL."""

    absolute: Callable[[str], str]

    def table(self, token: str) -> str:
        """The table phone's page."""
        return self.absolute(reverse("play:table", kwargs={"token": token}))

    def player(self, token: str) -> str:
        """A player's own page."""
        return self.absolute(reverse("play:player", kwargs={"token": token}))


@dataclass(frozen=True)
class Slot:
    """One round of the night: its number overall and in its set, and its mark."""

    number: int
    set_number: int
    in_set: int
    mark: int | None
    closed: bool

    @property
    def starts_set(self) -> bool:
        """The first round of a set (the sheets draw a thick line above it)."""
        return self.in_set == 1


def night_slots(night: Night, *, every_round: bool = False) -> list[Slot]:
    """Every round of the night (a finished night's played ones, unless ``every_round``)."""
    rules = night.rules_obj
    rounds = {r.number: r for r in night.rounds.all()}
    if night.is_over and not every_round:
        numbers = sorted(n for n, r in rounds.items() if r.is_closed)
    else:
        numbers = list(range(1, night.total_rounds + 1))
    slots = []
    for number in numbers:
        rnd = rounds.get(number)
        mark = rnd.mark if rnd is not None else rules.planned_mark(number)
        slots.append(
            Slot(
                number=number,
                set_number=rules.set_of(number),
                in_set=rules.place_in_set(number),
                mark=mark,
                closed=rnd is not None and rnd.is_closed,
            )
        )
    return slots


@dataclass(frozen=True)
class Result:
    """Where a player sat in a round and, once it is closed, how they did."""

    table: int
    won: bool | None
    buncos: int | None
    mini_buncos: int | None
    marks: tuple[int | None, ...]

    @property
    def stars(self) -> str:
        """Buncos as stars for the master sheet: one star each, a count past three."""
        if not self.buncos:
            return ""
        return "★" * self.buncos if self.buncos <= 3 else f"★×{self.buncos}"


def seat_results(night: Night, mark_codes: tuple[str, ...]) -> dict[int, dict[int, Result]]:
    """Player id -> round number -> result, from one query over the night's seats."""
    rows = Seat.objects.filter(round__night=night, player__isnull=False).values_list(
        "player_id",
        "round__number",
        "round__status",
        "table__number",
        "won",
        "buncos",
        "mini_buncos",
        "marks",
    )
    results: dict[int, dict[int, Result]] = {}
    for player_id, number, status, table, won, buncos, minis, marks in rows:
        if status == Round.Status.CLOSED:
            marks = marks or {}
            result = Result(table, won, buncos, minis, tuple(marks.get(c, 0) for c in mark_codes))
        else:
            result = Result(table, None, None, None, tuple(None for _ in mark_codes))
        results.setdefault(player_id, {})[number] = result
    return results


@dataclass(frozen=True)
class Totals:
    """A player's night so far."""

    wins: int = 0
    losses: int = 0
    buncos: int = 0
    mini_buncos: int = 0
    marks: tuple[int, ...] = ()
    played: int = 0


def totals(results: Iterable[Result], marks: int) -> Totals:
    """Add up the closed rounds among ``results``."""
    closed = [r for r in results if r.won is not None]
    return Totals(
        wins=sum(1 for r in closed if r.won),
        losses=sum(1 for r in closed if not r.won),
        buncos=sum(r.buncos for r in closed),
        mini_buncos=sum(r.mini_buncos for r in closed),
        marks=tuple(sum(r.marks[i] or 0 for r in closed) for i in range(marks)),
        played=len(closed),
    )


@dataclass(frozen=True)
class Columns:
    """The counters a night's sheets have columns for."""

    mini_label: str
    mark_labels: tuple[str, ...]
    mark_codes: tuple[str, ...]
    is_card_game: bool


def columns(rules: Rules) -> Columns:
    """Mini buncos (or low/high buncos under Deluxe) and each group-defined mark."""
    return Columns(
        mini_label="Low/high buncos" if rules.split_low_high else "Mini buncos",
        mark_labels=tuple(m.label for m in rules.group_marks),
        mark_codes=tuple(m.code for m in rules.group_marks),
        is_card_game=rules.is_card_game,
    )


def row_density(rounds: int) -> str:
    """How tightly a sheet's rows are set, so one player's night fits on one page."""
    if rounds <= 12:
        return "roomy"
    if rounds <= 24:
        return "compact"
    return "dense"
