"""Prizes and standings: each prize's winner (or tie) and money, and the ranked standings."""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

from bunco_night.nights.models import Night
from bunco_night.nights.played import came_and_went
from bunco_night.play.standings import LeftoverLine, night_standings
from bunco_night.rules.prizes import DOOR_PRIZE
from bunco_night.rules.shares import FEWEST_WINS, MOST_BUNCOS, MOST_LOSSES, MOST_WINS

from .parts import Options, Parts, Sizes, Source
from .shared import Columns, columns, night_slots


@dataclass(frozen=True)
class PrizeLine:
    title: str
    amount_cents: int
    names: list[str]
    tied: bool
    broken_by_host: bool
    detail: str
    percent: int | None = None
    split: bool = False
    # (winner, paid to if not them (docs/rules.md section 7.7) else "", cents) per share.
    payouts: tuple[tuple[str, str, int], ...] = ()
    # Leftover added to the first prize (docs/rules.md section 7.8); the percent excludes it.
    leftover_cents: int = 0
    # The door prize (section 7.5): pending, or drawn with ``seed``.
    door_pending: bool = False
    present: int = 0
    seed: int | None = None

    @property
    def share_cents(self) -> int:
        """The prize's own share of the pot, without the money left over added to it."""
        return self.amount_cents - self.leftover_cents


@dataclass(frozen=True)
class StandingLine:
    rank: int
    tied: bool
    name: str
    wins: int
    losses: int
    buncos: int
    mini_buncos: int
    marks: tuple[int, ...]
    note: str = ""  # "Arrived for round 2", "Left after round 1" (``Played.came_and_went``)


@dataclass(frozen=True)
class LastBunco:
    name: str
    when: object
    table: int
    round: int
    mark: int | None


@dataclass(frozen=True)
class DoorDrawSheet:
    """The door prize's draw as the standings page shows it (docs/rules.md sections 7.5
    and 7.7: ``without_substitutes``)."""

    seed: int
    number: int
    winner: str
    names: list[str]
    without_substitutes: bool = False


@dataclass(frozen=True)
class PrizeSheet:
    pot_cents: int
    payout_error: str
    buncos_rolled: int
    last_bunco: LastBunco | None
    fuzzy_die: str | None
    prizes: list[PrizeLine]
    standings: list[StandingLine]
    rounds_closed: int
    rounds_total: int
    columns: Columns
    rounding_text: str = "the cent"
    leftover_lines: tuple[LeftoverLine, ...] = ()
    # Whether the night awards the fuzzy die (its prizes, docs/rules.md section 8.5).
    plays_fuzzy_die: bool = False
    door: DoorDrawSheet | None = None
    over_text: str = ""  # how the night ended, once it is over (docs/rules.md section 7.4)


PRIZE_UNITS = {
    MOST_BUNCOS: ("bunco", "buncos"),
    MOST_WINS: ("win", "wins"),
    MOST_LOSSES: ("loss", "losses"),
    FEWEST_WINS: ("win", "wins"),
}


def prize_line(
    prize, names: list[str], detail: str, percents: dict, payouts: tuple = ()
) -> PrizeLine:
    """An engine ``PrizeResult`` as the sheets print it; ``percents`` by prize key."""
    return PrizeLine(
        title=prize.title,
        amount_cents=prize.amount_cents,
        names=names,
        tied=prize.tied,
        broken_by_host=prize.broken_by_host,
        detail=detail,
        percent=percents.get(prize.key),
        split=prize.split,
        payouts=payouts,
    )


def _detail(code: str, value: int | None) -> str:
    if code not in PRIZE_UNITS or value is None:
        return ""
    one, many = PRIZE_UNITS[code]
    return f"{value} {one if value == 1 else many}"


def prize_sheet(*, night: Night) -> PrizeSheet:
    """Each prize's winner (or the tie), its money from the pot, and the ranked standings."""
    ns = night_standings(night)
    cols = columns(night.rules_obj)
    name = {pk: p.name for pk, p in ns.players.items()}
    # No percents beside amounts nobody is paid yet.
    percents = {} if ns.payout_error else {c.key: c.percent for c in night.prize_categories}
    to_first = ns.awards.first_prize_cents if ns.awards else 0
    prizes = []
    for i, (p, row) in enumerate(zip(ns.prizes, ns.prize_rows, strict=True)):
        pending = p.code == DOOR_PRIZE and p.seed is None
        if pending:  # everyone present is in line for it: nobody is its winner yet
            names = []
        elif p.winner is not None:
            names = [name[p.winner]]
        else:
            names = [name[c] for c in p.candidates]
        payouts = tuple(
            (won.name, "" if paid == won else paid.name, cents) for won, paid, cents in row.lines
        )
        line = prize_line(p, names, _detail(p.code, p.value), percents, payouts)
        prizes.append(
            dataclasses.replace(
                line,
                leftover_cents=to_first if i == 0 else 0,
                door_pending=pending,
                present=len(p.candidates) if pending else 0,
                seed=p.seed,
            )
        )
    door = None
    if ns.door is not None:
        door = DoorDrawSheet(
            seed=ns.door.seed,
            number=ns.door.number,
            winner=ns.door_winner.name,
            names=[p.name for _, p in ns.door_rows],
            without_substitutes=ns.door_without_substitutes,
        )
    notes = came_and_went(night)
    standings = [
        StandingLine(
            s.rank,
            s.tied,
            player.name,
            s.wins,
            s.losses,
            s.buncos,
            s.mini_buncos,
            tuple(s.marks.get(c, 0) for c in cols.mark_codes),
            notes.get(player.pk, ""),
        )
        for s, player in ns.rows  # a shared place in name order, as the standings page
    ]
    last = ns.last_bunco
    return PrizeSheet(
        pot_cents=ns.pot_cents,
        payout_error=ns.payout_error,
        buncos_rolled=ns.buncos_rolled,
        last_bunco=LastBunco(
            last.roller.name, last.created, last.table.number, last.round.number, last.round.mark
        )
        if last
        else None,
        fuzzy_die=ns.fuzzy_die.name if ns.fuzzy_die else None,
        prizes=prizes,
        standings=standings,
        rounds_closed=ns.rounds_closed,
        rounds_total=len(night_slots(night)),
        over_text=ns.over_text,
        columns=cols,
        rounding_text=ns.rounding_text,
        leftover_lines=tuple(ns.leftover_lines),
        plays_fuzzy_die=ns.plays_fuzzy_die,
        door=door,
    )


LINES_PER_PAGE = 40  # about, for the estimate


def pieces(source: Source) -> Parts:
    return Parts([{"doc": prize_sheet(night=source.night)}])


def pages(sizes: Sizes, options: Options) -> int:
    return math.ceil(sizes.players / LINES_PER_PAGE)
