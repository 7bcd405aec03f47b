"""Roster and dues: who came, who sent a substitute, who is absent, who paid and who owes."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from bunco_night.core.money import format_cents
from bunco_night.groups.models import Season
from bunco_night.nights.models import Night, Seat
from bunco_night.nights.played import left_note, who_played
from bunco_night.nights.selectors import DuesRow, dues_summary

from .parts import Options, Parts, Sizes, Source


@dataclass(frozen=True)
class DuesLine:
    """Someone on the roster sheet and their dues; ``due_cents``: what to ask them for."""

    name: str
    note: str
    phone: str
    dues: DuesRow
    due_cents: int = -1  # -1: the row's own balance due

    @property
    def asked_cents(self) -> int:
        return self.dues.due_cents if self.due_cents < 0 else self.due_cents


@dataclass(frozen=True)
class DuesSection:
    title: str
    lines: list[DuesLine]
    note: str = ""


@dataclass(frozen=True)
class RosterSheet:
    sections: list[DuesSection]
    dues_cents: int
    playing: int  # before the night: who plays; once started: everyone who played
    expected_cents: int
    collected_cents: int
    outstanding_cents: int
    payouts: list = field(default_factory=list)
    payout_error: str = ""
    pot_cents: int = 0  # the prize pot: the collection less the season's share
    season_share_cents: int = 0
    season: Season | None = None
    over: bool = False  # the night is over: "Played", not "Playing"


def roster_sheet(*, night: Night) -> RosterSheet:
    """Who came, who sent a substitute, who is absent (and owes), who paid and who owes."""
    summary = dues_summary(night)
    planning = night.status == Night.Status.PLANNING
    played = {} if planning else {p.player.pk: p for p in who_played(night)}
    ghosts = set(
        Seat.objects.filter(round__night=night, ghost_for__isnull=False).values_list(
            "ghost_for_id", flat=True
        )
    )
    coming, subs, absent, left = [], [], [], []
    for row in summary.rows:
        a = row.attendance
        player = a.player
        if a.sends_substitute:
            tonight = max(row.owes_cents - row.prepaid_cents - row.paid_cents, 0)
            note = f"for {player.name}"
            if row.due_cents > tonight:
                earlier = format_cents(row.due_cents - tonight)
                note += f"; {player.name} still owes {earlier} from earlier nights"
            subs.append(DuesLine(a.substitute.name, note, a.substitute.phone, row, tonight))
        elif a.is_absent:
            note = "a ghost plays for them" if a.pk in ghosts else "not coming"
            if not row.owes_cents:
                note = "not coming (substitute: owes nothing)"
            absent.append(DuesLine(player.name, note, player.phone, row))
        elif a.has_left:
            left.append(DuesLine(player.name, left_note(a, played), player.phone, row))
        else:
            note = "" if player.is_regular else "guest"
            coming.append(DuesLine(player.name, note, player.phone, row))
    sections = [
        DuesSection("Coming", coming),
        DuesSection("Substitutes", subs, "A substitute plays for a regular; dues are the seat's."),
        DuesSection(
            "Absent, no substitute",
            absent,
            "A regular who sends nobody still owes the dues (the group's rule).",
        ),
        DuesSection("Left early", left),
    ]
    return RosterSheet(
        sections=[s for s in sections if s.lines or s.title == "Coming"],
        dues_cents=night.dues_cents,
        playing=len(coming) + len(subs) if planning else len(played),
        expected_cents=summary.expected_cents,
        collected_cents=summary.collected_cents,
        outstanding_cents=summary.outstanding_cents,
        payouts=summary.payouts,
        payout_error=summary.payout_error,
        pot_cents=summary.pot_cents,
        season_share_cents=summary.season_share_cents,
        season=summary.season,
        over=night.is_over,
    )


LINES_PER_PAGE = 40  # about, for the estimate


def pieces(source: Source) -> Parts:
    return Parts([{"doc": roster_sheet(night=source.night)}])


def pages(sizes: Sizes, options: Options) -> int:
    return math.ceil(sizes.players / LINES_PER_PAGE)
