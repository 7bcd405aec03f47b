"""A night's standings and prizes, read from the closed rounds (docs/rules.md section 7)."""

from __future__ import annotations

from dataclasses import dataclass

from bunco_night.groups.models import Player
from bunco_night.nights.models import Night, Seat
from bunco_night.nights.selectors import dues_summary
from bunco_night.rules.errors import RuleError
from bunco_night.rules.scoring import BUNCO
from bunco_night.rules.standings import (
    BuncoRoll,
    PlayerRound,
    PrizeCategory,
    PrizeResult,
    Standing,
    prize_standings,
    rank_standings,
    split_pot,
    tally,
)

from .models import Entry


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

    @property
    def rows(self) -> list[tuple[Standing, Player]]:
        """Ranked standings with each player; players who share a rank in name order."""
        rows = [(s, self.players[s.player]) for s in self.standings]
        return sorted(rows, key=lambda row: (row[0].rank, row[1].name.casefold()))

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


def night_standings(night: Night) -> NightStandings:
    """Standings from the closed rounds; prizes per the group's categories and the pot."""
    seats = Seat.objects.filter(
        round__in=night.rounds.closed(), player__isnull=False, won__isnull=False
    ).select_related("player")
    players: dict[int, Player] = {}
    rows = []
    for s in seats:
        players[s.player_id] = s.player
        rows.append(PlayerRound(s.player_id, s.won, s.buncos, s.mini_buncos, s.marks or {}))
    ranked = rank_standings(tally(rows))
    buncos = list(
        Entry.objects.filter(
            round__night=night, kind=BUNCO, undone_at__isnull=True, roller__isnull=False
        )
        .filter(round__in=night.rounds.started())
        .select_related("roller", "table", "round")
        .order_by("created", "id")
    )
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
        buncos=[BuncoRoll(e.roller_id, (e.created, e.pk)) for e in buncos],
        tiebreaks={t.code: t.player_id for t in night.tiebreaks.all()},
    )
    missing = {e.roller_id for e in buncos} - set(players)
    players.update({p.pk: p for p in Player.objects.filter(pk__in=missing)})
    closed = night.rounds.closed().count()
    return NightStandings(ranked, prizes, players, last, len(buncos), pot, closed, payout_error)
