"""The group's money over a season, night by night, from each night's ``dues_summary``
(docs/rules.md sections 7.4 and 8.6)."""

from __future__ import annotations

from dataclasses import dataclass

from bunco_night.groups.models import Player, Season
from bunco_night.nights.models import Night, Prepayment
from bunco_night.nights.selectors import DuesAccount, dues_accounts, dues_summary
from bunco_night.rules.errors import RuleError
from bunco_night.rules.season import SEASON_PRIZE_LABELS
from bunco_night.rules.shares import split_pot

from .standings import season_money_nights


@dataclass(frozen=True)
class NightMoney:
    """One night's money: the dues collected and where they went."""

    night: Night
    collected_cents: int
    cash_cents: int
    prepaid_cents: int
    season_cents: int
    prizes_cents: int
    payout_error: str

    @property
    def left_cents(self) -> int:
        """Collected but given to no prize and not kept for the season: the host decides."""
        return self.collected_cents - self.season_cents - self.prizes_cents


@dataclass(frozen=True)
class Balance:
    player: Player
    account: DuesAccount


@dataclass(frozen=True)
class SeasonLedger:
    season: Season
    nights: list[NightMoney]
    year_end_prizes_cents: int
    year_end_error: str
    balances: list[Balance]
    prepayments: list[Prepayment]

    def _sum(self, name: str) -> int:
        return sum(getattr(n, name) for n in self.nights)

    @property
    def collected_cents(self) -> int:
        return self._sum("collected_cents")

    @property
    def cash_cents(self) -> int:
        return self._sum("cash_cents")

    @property
    def prepaid_cents(self) -> int:
        return self._sum("prepaid_cents")

    @property
    def prizes_cents(self) -> int:
        return self._sum("prizes_cents")

    @property
    def left_cents(self) -> int:
        return self._sum("left_cents")

    @property
    def season_pot_cents(self) -> int:
        """The year-end pot: the season's share of every night."""
        return self._sum("season_cents")

    @property
    def season_left_cents(self) -> int:
        """The year-end pot not promised to a year-end prize."""
        return self.season_pot_cents - self.year_end_prizes_cents

    @property
    def owed(self) -> list[Balance]:
        """Who still owes dues, the most first."""
        owing = [b for b in self.balances if b.account.balance_cents > 0]
        return sorted(owing, key=lambda b: (-b.account.balance_cents, b.player.name.casefold()))

    @property
    def owed_cents(self) -> int:
        return sum(b.account.balance_cents for b in self.owed)

    @property
    def ahead(self) -> list[Balance]:
        """Who has prepaid dues left or has paid too much."""
        return [
            b
            for b in self.balances
            if b.account.prepaid_left_cents > 0 or b.account.balance_cents < 0
        ]

    @property
    def prepaid_left_cents(self) -> int:
        return sum(b.account.prepaid_left_cents for b in self.balances)


def night_money(night: Night) -> NightMoney:
    """A night's money from its dues summary."""
    summary = dues_summary(night)
    return NightMoney(
        night=night,
        collected_cents=summary.collected_cents,
        cash_cents=sum(r.paid_cents for r in summary.rows),
        prepaid_cents=summary.prepaid_cents,
        season_cents=summary.season_share_cents,
        prizes_cents=sum(p.amount_cents for p in summary.payouts),
        payout_error=summary.payout_error,
    )


def season_ledger(season: Season) -> SeasonLedger:
    """The season's held nights, its pot and prizes, and every player's balance today."""
    nights = [night_money(n) for n in season_money_nights(season)]
    pot = sum(n.season_cents for n in nights)
    categories = [p.as_category() for p in season.prizes.all()]
    try:
        year_end = sum(split_pot(pot, categories, labels=SEASON_PRIZE_LABELS).values())
        error = ""
    except RuleError as exc:
        year_end, error = 0, exc.message
    players = list(season.group.players.all())
    accounts = dues_accounts(season.group, [p.pk for p in players])
    balances = [Balance(p, accounts[p.pk]) for p in players]
    prepayments = list(
        Prepayment.objects.filter(player__group=season.group)
        .filter(starts__range=(season.starts, season.ends))
        .select_related("player")
        .order_by("-starts", "-pk")
    )
    return SeasonLedger(season, nights, year_end, error, balances, prepayments)
