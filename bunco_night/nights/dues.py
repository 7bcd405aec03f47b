"""Dues across nights, and a night's collection, season share, pot and payouts
(docs/rules.md sections 7.4, 7.9 and 8); a finished night reads its record."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from django.db import models
from django.db.models import Exists, OuterRef, Q, Sum

from bunco_night.groups.models import Season
from bunco_night.rules.errors import RuleError
from bunco_night.rules.season import season_share
from bunco_night.rules.shares import split_pot

from .models import Attendance, MoneyRecord, Night, Payment, Prepayment, Round


@dataclass(frozen=True)
class DuesRow:
    """A place's dues on one night: owed, carried, prepaid used and cash paid tonight
    (docs/rules.md sections 8.3 and 8.6)."""

    attendance: Attendance
    owes_cents: int
    paid_cents: int
    carried_cents: int = 0
    prepaid_cents: int = 0

    @property
    def collected_cents(self) -> int:
        """What this place put in the night's pot: cash, and prepaid dues used tonight."""
        return self.paid_cents + self.prepaid_cents

    @property
    def balance_cents(self) -> int:
        """Still to pay, earlier nights included (negative: paid too much)."""
        return self.carried_cents + self.owes_cents - self.prepaid_cents - self.paid_cents

    @property
    def credit_cents(self) -> int:
        """Paid too much on earlier nights, or 0."""
        return max(-self.carried_cents, 0)

    @property
    def earlier_paid_cents(self) -> int:
        """Tonight's cash that paid earlier nights' dues, oldest first (docs/rules.md 8.6)."""
        return min(self.paid_cents, max(self.carried_cents, 0))

    @property
    def earlier_owed_cents(self) -> int:
        """Dues from earlier nights still owed after tonight's cash, or 0."""
        return max(self.carried_cents, 0) - self.earlier_paid_cents

    @property
    def due_cents(self) -> int:
        """Still to pay, or 0."""
        return max(self.balance_cents, 0)

    @property
    def overpaid_cents(self) -> int:
        """Paid beyond the dues, or 0."""
        return max(-self.balance_cents, 0)


@dataclass(frozen=True)
class DuesAccount:
    """A player's dues across nights, first night first, and their prepayments."""

    rows: list[DuesRow]
    prepaid_cents: int = 0

    @property
    def prepaid_used_cents(self) -> int:
        return sum(r.prepaid_cents for r in self.rows)

    @property
    def prepaid_left_cents(self) -> int:
        """Prepaid dues not used yet."""
        return self.prepaid_cents - self.prepaid_used_cents

    @property
    def balance_cents(self) -> int:
        """Owed after the last night (negative: paid too much), prepaid dues left aside."""
        return self.rows[-1].balance_cents if self.rows else 0

    @property
    def credit_cents(self) -> int:
        """Paid too much over the nights, or 0 (prepaid dues left aside)."""
        return max(-self.balance_cents, 0)


def held_nights(group) -> models.QuerySet:
    """The group's nights with a round started or dues recorded (only those carry dues)."""
    started = Round.objects.filter(
        night=OuterRef("pk"), status__in=[Round.Status.PLAYING, Round.Status.CLOSED]
    )
    paid = Payment.objects.filter(attendance__night=OuterRef("pk"))
    return group.nights.filter(Exists(started) | Exists(paid))


def dues_accounts(
    group, player_ids: Iterable[int], *, until: Night | None = None
) -> dict[int, DuesAccount]:
    """Each player's dues night by night over the held nights, up to ``until`` (counted
    even before it is held); prepaid dues pay first, in date order."""
    player_ids = set(player_ids)
    attendances = Attendance.objects.filter(
        night__group=group, player_id__in=player_ids, night__in=held_nights(group).values("pk")
    )
    if until is not None:
        attendances = attendances.filter(
            Q(night__date__lt=until.date) | Q(night__date=until.date, night__pk__lt=until.pk)
        ) | Attendance.objects.filter(night=until, player_id__in=player_ids)
    attendances = (
        attendances.select_related("player", "substitute", "night")
        .annotate(paid=Sum("payments__amount_cents"))
        .order_by("night__date", "night__pk", "pk")
    )
    prepaid: dict[int, list[tuple]] = {}
    for player_id, starts, amount in Prepayment.objects.filter(
        player_id__in=player_ids
    ).values_list("player_id", "starts", "amount_cents"):
        prepaid.setdefault(player_id, []).append((starts, amount))
    kept = recorded_places({a.night_id for a in attendances})
    rows: dict[int, list[DuesRow]] = {pk: [] for pk in player_ids}
    for a in attendances:
        before = rows[a.player_id]
        carried = before[-1].balance_cents if before else 0
        used = sum(r.prepaid_cents for r in before)
        available = sum(n for starts, n in prepaid.get(a.player_id, ()) if starts <= a.night.date)
        owes = a.night.dues_cents if a.owes_dues else 0
        use = max(min(available - used, owes), 0)
        if a.pk in kept:  # a finished night's dues and prepaid dues are as they ended
            owes, use = kept[a.pk]
        before.append(DuesRow(a, owes, a.paid or 0, carried, use))
    return {pk: DuesAccount(rows[pk], sum(n for _, n in prepaid.get(pk, ()))) for pk in player_ids}


def recorded_places(night_ids: Iterable[int]) -> dict[int, tuple[int, int]]:
    """{attendance id: (dues, prepaid used)} as recorded at the end of the finished nights
    among ``night_ids`` (docs/rules.md section 7.9)."""
    kept = {}
    for places in MoneyRecord.objects.filter(night_id__in=night_ids).values_list(
        "figures__places", flat=True
    ):
        for attendance, owes, _paid, prepaid in places or ():
            kept[attendance] = (owes, prepaid)
    return kept


@dataclass(frozen=True)
class Payout:
    code: str
    title: str
    amount_cents: int


@dataclass(frozen=True)
class NightSeasonShare:
    """The season a night's share of the pot went to, as it was then: its name and percent."""

    name: str
    pot_percent: int


@dataclass(frozen=True)
class DuesCollection:
    """A night's dues: who owes and paid, the collection, and the season's share of it."""

    rows: list[DuesRow]
    expected_cents: int
    collected_cents: int
    season_share_cents: int = 0
    season: NightSeasonShare | None = None
    # Read from the money recorded when the night ended (docs/rules.md section 7.9).
    recorded: bool = False

    @property
    def outstanding_cents(self) -> int:
        """Dues still owed, earlier nights included."""
        return sum(r.due_cents for r in self.rows)

    @property
    def earlier_owed_cents(self) -> int:
        """Dues from earlier nights that the people on tonight's list still owe."""
        return sum(r.earlier_owed_cents for r in self.rows)

    @property
    def earlier_paid_cents(self) -> int:
        """The part of tonight's collection that paid dues from earlier nights."""
        return sum(r.earlier_paid_cents for r in self.rows)

    @property
    def prepaid_cents(self) -> int:
        """The part of the pot paid ahead."""
        return sum(r.prepaid_cents for r in self.rows)

    @property
    def pot_cents(self) -> int:
        """The night's prize pot: the dues collected less the season's share."""
        return self.collected_cents - self.season_share_cents


@dataclass(frozen=True)
class DuesSummary(DuesCollection):
    """A night's dues and each prize's payout from the pot (docs/rules.md section 7.4)."""

    payouts: list[Payout] = field(default_factory=list)
    payout_error: str = ""


def money_record_of(night: Night) -> MoneyRecord | None:
    """The money recorded when ``night`` ended, if it has ended (docs/rules.md 7.9)."""
    if not night.is_over:
        return None
    return MoneyRecord.objects.filter(night_id=night.pk).first()


def dues_collection(night: Night) -> DuesCollection:
    """The night's dues worked out now (``dues_summary`` without the payouts); a finished
    night's on the footing recorded when it ended: the season's share as it was then."""
    record = money_record_of(night)
    return _collection(night, record, now=True)


def dues_summary(night: Night) -> DuesSummary:
    """Who owes and paid, the collection, the season's share, the pot and payouts
    (docs/rules.md sections 7.4 and 8); a finished night's as recorded (7.9)."""
    record = money_record_of(night)
    collection = _collection(night, record, now=False)
    if record is not None:
        figures = record.as_figures
        payouts = []
        if not figures.payout_error:
            payouts = [Payout(r.key, r.title, r.amount_cents) for r in figures.awards.results]
        return DuesSummary(**vars(collection), payouts=payouts, payout_error=figures.payout_error)
    payouts, error = [], ""
    try:
        # Rounded and with the leftover where the night's rules say (docs/rules.md 7.8).
        categories = night.prize_categories
        shares = split_pot(collection.pot_cents, categories, policy=night.rules_obj.prize_policy)
        payouts = [Payout(c.key, c.title, shares[c.key]) for c in categories]
    except RuleError as exc:
        error = exc.message
    return DuesSummary(**vars(collection), payouts=payouts, payout_error=error)


def _collection(night: Night, record: MoneyRecord | None, *, now: bool) -> DuesCollection:
    """The night's dues; as ``record`` (the money recorded when it ended) says, unless
    ``now``: worked out again, with the season's share as ``record`` has it."""
    attendances = list(night.attendances.values_list("pk", "player_id"))
    accounts = dues_accounts(night.group, {p for _, p in attendances}, until=night)
    tonight = {
        r.attendance.pk: r
        for account in accounts.values()
        for r in account.rows
        if r.attendance.night_id == night.pk
    }
    rows = [tonight[pk] for pk, _ in attendances]
    expected = sum(r.owes_cents for r in rows)
    if record is not None:
        figures = record.as_figures
        season = None
        if figures.season_percent is not None:
            season = NightSeasonShare(figures.season_name, figures.season_percent)
        if not now:
            share = figures.season_share_cents
            return DuesCollection(rows, expected, figures.collected_cents, share, season, True)
    else:
        found = Season.objects.filter(group_id=night.group_id).covering(night.date).first()
        season = NightSeasonShare(found.name, found.pot_percent) if found else None
    collected = sum(r.collected_cents for r in rows)
    share = season_share(collected, season.pot_percent) if season else 0
    return DuesCollection(rows, expected, collected, share, season)
