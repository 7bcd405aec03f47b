"""A night's standings and prizes, read from the closed rounds (docs/rules.md section 7)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import NamedTuple

from bunco_night.core.money import format_cents
from bunco_night.games.models import BuckThrow
from bunco_night.games.selectors import buck_results
from bunco_night.groups.models import Player
from bunco_night.nights.dues import dues_summary, money_record_of
from bunco_night.nights.models import Night, Seat
from bunco_night.rules.awards import PrizeAwards, PrizeResult, award_prizes
from bunco_night.rules.errors import RuleError
from bunco_night.rules.money import figures_from_data
from bunco_night.rules.prizes import DoorDraw
from bunco_night.rules.scoring import BUNCO
from bunco_night.rules.shares import FUZZY_DIE, PrizeCategory, split_pot
from bunco_night.rules.standings import (
    BuncoRoll,
    PlayerRound,
    Standing,
    rank_standings,
    set_standings,
    tally,
)

from .models import Entry


def set_roll_off_code(number: int) -> str:
    """How a set's roll-off is stored beside the prizes' tie-breaks."""
    return f"set-{number}"


@dataclass(frozen=True)
class SetResult:
    """One set's standings (docs/rules.md section 7.1); ``level``: tied before a roll-off.
    ``complete``: no more rounds of the set will be played (section 7.4)."""

    number: int
    rows: list[tuple[Standing, Player]]
    level: list[Player]
    complete: bool
    rounds_played: int = 0
    rounds_in_set: int = 0

    @property
    def cut_short(self) -> bool:
        """The night ended before the set's last round."""
        return self.complete and self.rounds_played < self.rounds_in_set

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


@dataclass(frozen=True)
class PrizeRow:
    """A prize as pages show it, with players and payments (docs/rules.md 7.3-7.8)."""

    prize: PrizeResult
    candidates: list[Player]
    winner: Player | None
    payouts: list[tuple[Player, int]]

    @property
    def lines(self) -> list[tuple[Player, Player, int]]:
        """(who won, who is paid, cents) per share of the prize (docs/rules.md 7.6, 7.7)."""
        if self.prize.split:
            return [
                (won, paid, cents)
                for won, (paid, cents) in zip(self.candidates, self.payouts, strict=True)
            ]
        if self.winner is not None and self.payouts:
            paid, cents = self.payouts[0]
            return [(self.winner, paid, cents)]
        return []


class LeftoverLine(NamedTuple):
    """Where some money left over went, in words (docs/rules.md section 7.8); ``short``
    fits a line of the room screen's side column."""

    kind: str  # "first", "next", "host" or "none" (asked for by no prize)
    cents: int
    text: str
    short: str


@dataclass
class NightStandings:
    standings: list[Standing]
    prizes: list[PrizeResult]
    players: dict[int, Player]
    last_bunco: Entry | BuckThrow | None
    buncos_rolled: int
    pot_cents: int
    rounds_closed: int
    payout_error: str = ""
    sets: list[SetResult] = field(default_factory=list)
    plays_fuzzy_die: bool = False
    awards: PrizeAwards | None = None
    door: DoorDraw | None = None
    substitutes: dict[int, int] = field(default_factory=dict)
    over: bool = False
    rounds_total: int = 0
    # Substitutes were left off the door prize's list (docs/rules.md section 7.7).
    door_without_substitutes: bool = False

    @property
    def over_text(self) -> str:
        """How the night ended, once it is over (docs/rules.md section 7.4); "" before."""
        played, total = self.rounds_closed, self.rounds_total
        if not self.over:
            return ""
        if not played:
            return "Night over before any round was played"
        if played >= total == 1:
            return "Night over: its round is played"
        if played >= total:
            return f"Night over: all {total} rounds played"
        return f"Night over after round {played} of {total}"

    @property
    def prizes_note(self) -> str:
        """When the prize tallies were counted, beside a list of prizes so far."""
        n = self.rounds_closed
        if not n:
            return "tallied as each round ends"
        return f"tallies after {n} round{'s' if n != 1 else ''}"

    @property
    def rounding(self) -> str:
        """What a percent share was rounded down to: "dollars", "quarters" or "cents"."""
        return self.awards.rounding if self.awards else "cents"

    @property
    def leftover_cents(self) -> int:
        return self.awards.leftover_cents if self.awards else 0

    @property
    def leftover_lines(self) -> list[LeftoverLine]:
        """Where money left over went, in words (docs/rules.md section 7.8)."""
        a = self.awards
        if a is None or not (a.leftover_cents or a.unassigned_cents):
            return []
        lines = []
        first = next((p.title for p in self.prizes), "")
        if a.first_prize_cents:
            amount = format_cents(a.first_prize_cents)
            lines.append(
                LeftoverLine(
                    "first",
                    a.first_prize_cents,
                    f"{first} includes the {amount} left over when the pot is split",
                    f"{first} includes {amount} left over",
                )
            )
        if a.carried_cents:
            said = f"{format_cents(a.carried_cents)} left over: kept for next month's pot"
            lines.append(LeftoverLine("next", a.carried_cents, said, said))
        if a.host_cents:
            said = f"{format_cents(a.host_cents)} left over: the host's to decide"
            lines.append(LeftoverLine("host", a.host_cents, said, said))
        if a.unassigned_cents:
            amount = format_cents(a.unassigned_cents)
            said = f"{amount} not asked for by any prize: the host's to decide"
            lines.append(LeftoverLine("none", a.unassigned_cents, said, said))
        return lines

    @property
    def door_winner(self) -> Player | None:
        return self.players.get(self.door.winner) if self.door else None

    @property
    def rounding_text(self) -> str:
        """What the percent shares were rounded down to, in words (section 7.8)."""
        return {"dollars": "whole dollars", "quarters": "quarters"}.get(self.rounding, "the cent")

    @property
    def door_rows(self) -> list[tuple[int, Player]]:
        """The door prize's list, numbered from 1, as the draw was made from it."""
        if self.door is None:
            return []
        return [(i, self.players[p]) for i, p in enumerate(self.door.order, start=1)]

    @property
    def rows(self) -> list[tuple[Standing, Player]]:
        """Ranked standings with each player; players who share a rank in name order."""
        return _by_name(self.standings, self.players)

    def set_result(self, number: int) -> SetResult | None:
        return next((s for s in self.sets if s.number == number), None)

    @property
    def prize_rows(self) -> list[PrizeRow]:
        """Each prize with its candidates, winner and payouts as players."""
        return [
            PrizeRow(
                p,
                [self.players[c] for c in p.candidates],
                self.players.get(p.winner) if p.winner is not None else None,
                [(self.players[who], cents) for who, cents in p.payouts],
            )
            for p in self.prizes
        ]

    @property
    def fuzzy_die(self) -> Player | None:
        """The fuzzy die goes to whoever rolled the latest bunco (docs/rules.md section 7.2)."""
        return self.last_bunco.roller if self.last_bunco else None


def _present(night: Night) -> tuple[list[Player], dict[int, int]]:
    """Who is here in name order (docs/rules.md 7.5), and {substitute: regular} (7.7)."""
    present, subs = [], {}
    for a in night.attendances.select_related("player", "substitute"):
        if a.plays is not None:
            present.append(a.plays)
        if a.sends_substitute:
            subs[a.substitute_id] = a.player_id
    present.sort(key=lambda p: (p.name.casefold(), p.pk))
    return present, subs


def night_buncos(night: Night) -> list[Entry]:
    """The night's counting buncos in the order rolled (docs/rules.md section 6.3)."""
    return list(
        Entry.objects.counting()
        .filter(round__night=night, kind=BUNCO, roller__isnull=False)
        .filter(round__in=night.rounds.started())
        .select_related("roller", "table", "round")
        .order_by("round__number", "created", "id")
    )


def bunco_rolls(
    night: Night, big_bucks: list[tuple[BuncoRoll, BuckThrow]] | None = None
) -> list[tuple[BuncoRoll, Entry | BuckThrow]]:
    """Every counting bunco in order, as (engine roll, row); Big Bucks count (docs/rules.md
    section 9.3): ``big_bucks`` as ``buck_results`` gives them, else read."""
    rolled = [
        (BuncoRoll(e.roller_id, (e.round.number, e.created, e.pk)), e) for e in night_buncos(night)
    ]
    if night.rules_obj.is_buck_dice:
        if big_bucks is None:
            big_bucks = buck_results(night)[1]
        rolled = sorted(rolled + big_bucks, key=lambda pair: pair[0].when)
    return rolled


@dataclass(frozen=True)
class BuncoFacts:
    """The night's bunco count and latest (the fuzzy die): a cheap read for the screens."""

    buncos_rolled: int
    last_bunco: Entry | BuckThrow | None
    plays_fuzzy_die: bool

    @property
    def fuzzy_die(self) -> Player | None:
        return self.last_bunco.roller if self.last_bunco else None


def bunco_facts(night: Night) -> BuncoFacts:
    rolled = bunco_rolls(night)
    fuzzy = any(p["code"] == FUZZY_DIE for p in night.prizes)
    return BuncoFacts(len(rolled), rolled[-1][1] if rolled else None, fuzzy)


def night_standings(night: Night, *, pot_cents: int | None = None) -> NightStandings:
    """Standings from the closed rounds (or games) and prizes (docs/rules.md section 7). A
    finished night shows its recorded prizes (7.9), unless ``pot_cents`` asks for now."""
    rules = night.rules_obj
    seats = Seat.objects.filter(
        round__in=night.rounds.closed(), player__isnull=False, won__isnull=False
    ).select_related("player", "round", "table")
    players: dict[int, Player] = {}
    rows = []
    for s in seats:
        players[s.player_id] = s.player
        rows.append(
            PlayerRound(
                s.player_id,
                s.won,
                s.buncos,
                s.mini_buncos,
                s.marks or {},
                s.round.set_number,
                low_buncos=s.low_buncos,
                high_buncos=s.high_buncos,
                table=s.table.number,
                score=s.score,
            )
        )
    tiebreaks = {t.code: t.player_id for t in night.tiebreaks.all()}
    big_bucks = None
    if rules.is_buck_dice:
        buck_rows, big_bucks = buck_results(night)
        rows += buck_rows
    rolled = bunco_rolls(night, big_bucks)
    ranked = rank_standings(tally(rows))
    last = rolled[-1][1] if rolled else None
    record = money_record_of(night) if pot_cents is None else None
    present, subs = _present(night)
    categories = night.prize_categories
    if record is not None:
        kept = figures_from_data(record.figures)
        pot, awards, payout_error = kept.pot_cents, kept.awards, kept.payout_error
    else:
        pot = dues_summary(night).pot_cents if pot_cents is None else pot_cents
        policy = rules.prize_policy
        payout_error = ""
        try:
            split_pot(pot, categories, policy=policy)
        except RuleError as error:
            # Less money collected than the fixed prizes need: show winners, no amounts yet.
            payout_error = error.message
            categories = [
                PrizeCategory(c.code, amount_cents=0, label=c.label, mark=c.mark)
                for c in categories
            ]
        # Prizes count closed rounds only (docs/rules.md section 7.2).
        closed_numbers = set(night.rounds.closed().values_list("number", flat=True))
        settings = {
            "pot_cents": pot,
            "buncos": [roll for roll, _ in rolled if roll.when[0] in closed_numbers],
            "policy": policy,
            "present": [p.pk for p in present],
            "substitutes": subs,
            "door_seed": night.door_seed,
        }
        awards = award_prizes(ranked, categories, **settings)
        # A tie-break counts while its winner is still tied (docs/rules.md section 7.3).
        held = {
            r.key: tiebreaks[r.key]
            for r in awards.results
            if len(r.candidates) > 1 and tiebreaks.get(r.key) in r.candidates
        }
        if held:
            awards = award_prizes(ranked, categories, tiebreaks=held, **settings)
    needed = {roll.player for roll, _ in rolled} | {p.pk for p in present}
    needed |= {who for r in awards.results for who in (*r.candidates, *(w for w, _ in r.payouts))}
    if awards.door is not None:
        needed |= set(awards.door.order)
    missing = needed - set(players)
    players.update({p.pk: p for p in present if p.pk in missing})
    missing -= set(players)
    players.update({p.pk: p for p in Player.objects.filter(pk__in=missing)})
    closed = night.rounds.closed().count()
    sets = _set_results(night, rows, players, tiebreaks)
    fuzzy = any(c.code == FUZZY_DIE for c in categories)
    return NightStandings(
        ranked,
        awards.results,
        players,
        last,
        len(rolled),
        pot,
        closed,
        payout_error,
        sets,
        fuzzy,
        awards,
        awards.door,
        subs,
        night.is_over,
        night.total_rounds,
        awards.door is not None
        and any(p.pk in subs for p in present)
        and not (set(subs) & set(awards.door.order)),
    )


def prizes_for_pot(night: Night, pot_cents: int) -> tuple[PrizeAwards, str]:
    """The prizes out of ``pot_cents`` now, and why no money is paid yet ("" if it is)."""
    ns = night_standings(night, pot_cents=pot_cents)
    return ns.awards, ns.payout_error


def _by_name(ranked: list[Standing], players: dict[int, Player]) -> list[tuple[Standing, Player]]:
    rows = [(s, players[s.player]) for s in ranked]
    return sorted(rows, key=lambda row: (row[0].rank, row[1].name.casefold()))


def _set_results(
    night: Night, rows: list[PlayerRound], players: dict[int, Player], tiebreaks: dict
) -> list[SetResult]:
    """Each set with a closed round: its standings and any recorded roll-off."""
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
            closed[number] == per_set or night.is_over,
            closed[number],
            per_set,
        )
        for number in after
    ]
