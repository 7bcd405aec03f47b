"""A night's standings and prizes, read from the closed rounds (docs/rules.md section 7)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from bunco_night.groups.models import Player
from bunco_night.nights.models import Night, Seat
from bunco_night.nights.selectors import dues_summary
from bunco_night.rules.errors import RuleError
from bunco_night.rules.scoring import BUNCO
from bunco_night.rules.standings import (
    FUZZY_DIE,
    BuncoRoll,
    PlayerRound,
    PrizeCategory,
    PrizeResult,
    Standing,
    prize_standings,
    rank_standings,
    set_standings,
    split_pot,
    tally,
)

from .models import Entry


def set_roll_off_code(number: int) -> str:
    """How a set's roll-off is stored beside the prizes' tie-breaks."""
    return f"set-{number}"


@dataclass(frozen=True)
class SetResult:
    """One set's standings (docs/rules.md section 7.1): most wins, then most buncos, then a
    roll-off the host records; ``level`` are the players tied before any roll-off."""

    number: int
    rows: list[tuple[Standing, Player]]
    level: list[Player]
    complete: bool

    @property
    def leaders(self) -> list[Player]:
        """Who is first now: the winner, or everyone still tied."""
        return [p for s, p in self.rows if s.rank == 1]

    @property
    def tied(self) -> bool:
        return len(self.leaders) > 1

    @property
    def rolled_off(self) -> bool:
        """The host recorded a roll-off among the level players."""
        return len(self.level) > 1 and not self.tied

    @property
    def code(self) -> str:
        return set_roll_off_code(self.number)


@dataclass
class NightStandings:
    standings: list[Standing]
    prizes: list[PrizeResult]
    players: dict[int, Player]
    last_bunco: Entry | None
    buncos_rolled: int
    pot_cents: int
    rounds_closed: int
    payout_error: str = ""
    sets: list[SetResult] = field(default_factory=list)
    plays_fuzzy_die: bool = False

    @property
    def rows(self) -> list[tuple[Standing, Player]]:
        """Ranked standings with each player; players who share a rank in name order."""
        return _by_name(self.standings, self.players)

    def set_result(self, number: int) -> SetResult | None:
        return next((s for s in self.sets if s.number == number), None)

    @property
    def prize_rows(self) -> list[tuple[PrizeResult, list[Player], Player | None]]:
        """Each prize with its candidates and winner as players."""
        return [
            (
                p,
                [self.players[c] for c in p.candidates],
                self.players.get(p.winner) if p.winner is not None else None,
            )
            for p in self.prizes
        ]

    @property
    def fuzzy_die(self) -> Player | None:
        """The fuzzy die goes to whoever rolled the latest bunco (docs/rules.md section 7.2)."""
        return self.last_bunco.roller if self.last_bunco else None


def night_buncos(night: Night) -> list[Entry]:
    """The night's buncos that count, in the order they were rolled: round first, then
    time (docs/rules.md section 6.3)."""
    return list(
        Entry.objects.counting()
        .filter(round__night=night, kind=BUNCO, roller__isnull=False)
        .filter(round__in=night.rounds.started())
        .select_related("roller", "table", "round")
        .order_by("round__number", "created", "id")
    )


@dataclass(frozen=True)
class BuncoFacts:
    """What the host's screens say about the night's buncos between closes: how many, the
    latest and so the fuzzy die. A cheap read, for updates that skip the standings."""

    buncos_rolled: int
    last_bunco: Entry | None
    plays_fuzzy_die: bool

    @property
    def fuzzy_die(self) -> Player | None:
        return self.last_bunco.roller if self.last_bunco else None


def bunco_facts(night: Night) -> BuncoFacts:
    buncos = night_buncos(night)
    fuzzy = night.group.prizes.filter(code=FUZZY_DIE).exists()
    return BuncoFacts(len(buncos), buncos[-1] if buncos else None, fuzzy)


def night_standings(night: Night) -> NightStandings:
    """Standings from the closed rounds; prizes per the group's categories and the pot."""
    seats = Seat.objects.filter(
        round__in=night.rounds.closed(), player__isnull=False, won__isnull=False
    ).select_related("player", "round")
    players: dict[int, Player] = {}
    rows = []
    for s in seats:
        players[s.player_id] = s.player
        rows.append(
            PlayerRound(
                s.player_id, s.won, s.buncos, s.mini_buncos, s.marks or {}, s.round.set_number
            )
        )
    ranked = rank_standings(tally(rows))
    tiebreaks = {t.code: t.player_id for t in night.tiebreaks.all()}
    buncos = night_buncos(night)
    last = buncos[-1] if buncos else None
    pot = dues_summary(night).pot_cents
    categories = [p.as_category() for p in night.group.prizes.all()]
    payout_error = ""
    try:
        split_pot(pot, categories)
    except RuleError as error:
        # Less money collected than the fixed prizes need: show winners, no amounts yet.
        payout_error = error.message
        categories = [PrizeCategory(c.code, amount_cents=0) for c in categories]
    prizes = prize_standings(
        ranked,
        categories,
        pot_cents=pot,
        # In the order they were rolled: round first, then time (docs/rules.md section 6.3).
        buncos=[BuncoRoll(e.roller_id, (e.round.number, e.created, e.pk)) for e in buncos],
        tiebreaks=tiebreaks,
    )
    missing = {e.roller_id for e in buncos} - set(players)
    players.update({p.pk: p for p in Player.objects.filter(pk__in=missing)})
    closed = night.rounds.closed().count()
    sets = _set_results(night, rows, players, tiebreaks)
    fuzzy = any(c.code == FUZZY_DIE for c in categories)
    return NightStandings(
        ranked, prizes, players, last, len(buncos), pot, closed, payout_error, sets, fuzzy
    )


def _by_name(ranked: list[Standing], players: dict[int, Player]) -> list[tuple[Standing, Player]]:
    rows = [(s, players[s.player]) for s in ranked]
    return sorted(rows, key=lambda row: (row[0].rank, row[1].name.casefold()))


def _set_results(
    night: Night, rows: list[PlayerRound], players: dict[int, Player], tiebreaks: dict
) -> list[SetResult]:
    """Each set with a closed round: its standings, with the host's roll-off if recorded."""
    roll_offs = {}
    for number in {r.set_number for r in rows}:
        winner = tiebreaks.get(set_roll_off_code(number))
        if winner is not None:
            roll_offs[number] = {winner: 1}
    before = set_standings(rows)
    after = set_standings(rows, roll_offs=roll_offs)
    closed = Counter(night.rounds.closed().values_list("set_number", flat=True))
    per_set = night.rules_obj.rounds_per_set
    return [
        SetResult(
            number,
            _by_name(after[number], players),
            [players[s.player] for s in before[number] if s.rank == 1],
            closed[number] == per_set,
        )
        for number in after
    ]
