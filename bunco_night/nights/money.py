"""Money that has been paid stays paid (docs/rules.md section 7.9). ``money_record`` records a
night's money as it ends; ``money_settle`` checks a later change. The play app (above this one)
hands its prize reader to ``use_prize_reader`` at load."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bunco_night.core.errors import ServiceError
from bunco_night.core.money import format_cents
from bunco_night.groups.models import Player
from bunco_night.rules.awards import PrizeAwards, PrizeResult
from bunco_night.rules.money import (
    NightFigures,
    Place,
    change_token,
    money_of,
    only_names_winners,
)
from bunco_night.rules.prizes import DOOR_PRIZE

from . import history
from .dues import dues_collection
from .models import MoneyRecord, Night

# (night, pot in cents) -> (the prizes now, why no money is paid yet or "").
PrizeReader = Callable[[Night, int], tuple[PrizeAwards, str]]
_prize_reader: PrizeReader | None = None


def use_prize_reader(reader: PrizeReader) -> None:
    """The play app's reader of a night's prizes (called once, as the apps load)."""
    global _prize_reader
    _prize_reader = reader


def figures_now(night: Night) -> NightFigures:
    """The night's money now; a finished night's on the footing recorded when it ended."""
    if _prize_reader is None:  # pragma: no cover - the play app is always installed
        raise RuntimeError("No prize reader: is bunco_night.play in INSTALLED_APPS?")
    summary = dues_collection(night)
    awards, error = _prize_reader(night, summary.pot_cents)
    return NightFigures(
        collected_cents=summary.collected_cents,
        season_share_cents=summary.season_share_cents,
        season_name=summary.season.name if summary.season else "",
        season_percent=summary.season.pot_percent if summary.season else None,
        places=tuple(
            Place(r.attendance.pk, r.owes_cents, r.paid_cents, r.prepaid_cents)
            for r in summary.rows
        ),
        awards=awards,
        payout_error=error,
    )


def money_record(night: Night) -> MoneyRecord:
    """Record ``night``'s money, in the transaction that ends it (docs/rules.md 7.9)."""
    record = MoneyRecord.objects.select_for_update().filter(night_id=night.pk).first()
    record = record or MoneyRecord(night_id=night.pk)
    record.keep(figures_now(night))
    record.save()
    return record


@dataclass(frozen=True)
class MoneyLine:
    """One line of a night's money, before and after a change, in words."""

    label: str
    before: str
    after: str

    @property
    def changed(self) -> bool:
        return self.before != self.after


class MoneyChange(ServiceError):
    """A change that would move a finished night's money: nothing saved; ``lines`` before
    and after, and the ``token`` to send again to say yes."""

    def __init__(self, night: Night, lines: list[MoneyLine], token: str):
        super().__init__(
            "This night is over and its prize money was paid out: this change would change "
            "it. Check the money before and after, then confirm.",
            "money_change",
        )
        self.night = night
        self.lines = lines
        self.token = token

    @property
    def changed_lines(self) -> list[MoneyLine]:
        return [line for line in self.lines if line.changed]


def _prize_text(r: PrizeResult, name: Callable[[int], str]) -> str:
    """Who a prize pays and how much, in words."""
    money = format_cents(r.amount_cents)
    if r.split and r.payouts:
        shares = ", ".join(f"{name(who)} {format_cents(c)}" for who, c in r.payouts)
        left = f" ({format_cents(r.remainder_cents)} not split)" if r.remainder_cents else ""
        return f"split: {shares}{left}"
    if r.payouts:
        (paid, cents), won = r.payouts[0], r.winner
        who = name(won) if paid == won else f"{name(won)} (for {name(paid)})"
        return f"{who} {format_cents(cents)}"
    if r.tied:
        tied = ", ".join(sorted((name(c) for c in r.candidates), key=str.casefold))
        return f"tie: {tied} ({money} kept for the winner)"
    if r.code == DOOR_PRIZE and r.seed is None:
        return f"not drawn yet ({money})"
    return f"nobody ({money})"


def money_lines(before: NightFigures, after: NightFigures) -> list[MoneyLine]:
    """The night's money before and after a change, line by line, as the host reads it."""
    ids = {
        p
        for f in (before, after)
        for r in f.awards.results
        for p in (*r.candidates, *(who for who, _ in r.payouts))
    }
    names = dict(Player.objects.filter(pk__in=ids).values_list("pk", "name"))

    def name(pk) -> str:
        return names.get(pk, "someone")

    cents = format_cents
    lines = [
        MoneyLine("Dues collected", cents(before.collected_cents), cents(after.collected_cents))
    ]
    if before.season_percent is not None or after.season_percent is not None:
        season = after.season_name or before.season_name
        lines.append(
            MoneyLine(
                f"To the {season} pot",
                cents(before.season_share_cents),
                cents(after.season_share_cents),
            )
        )
    lines.append(MoneyLine("Prize pot", cents(before.pot_cents), cents(after.pot_cents)))
    old = {r.key: r for r in before.awards.results}
    new = {r.key: r for r in after.awards.results}
    for key in dict.fromkeys([*old, *new]):
        title = (new.get(key) or old[key]).title
        lines.append(
            MoneyLine(
                title,
                _prize_text(old[key], name) if key in old else "",
                _prize_text(new[key], name) if key in new else "",
            )
        )
    for label, attr in (
        ("Kept for next month's pot", "carried_cents"),
        ("The host's to decide", "host_cents"),
        ("Asked for by no prize", "unassigned_cents"),
    ):
        b, a = getattr(before.awards, attr), getattr(after.awards, attr)
        if b or a:
            lines.append(MoneyLine(label, cents(b), cents(a)))
    if before.payout_error != after.payout_error:
        paid = (before.payout_error or "paid", after.payout_error or "paid")
        lines.append(MoneyLine("Prizes", *paid))
    return lines


def money_settle(*, night: Night, by=None, money_ok: str = "") -> bool:
    """After a host's change to a finished ``night``, in its transaction: re-record its
    money if nobody's money moves, or if ``money_ok`` is this change's token; else raise
    ``MoneyChange``. Returns whether the record changed."""
    night = Night.objects.get(pk=night.pk)
    if not night.is_over:
        return False
    record = MoneyRecord.objects.select_for_update().filter(night_id=night.pk).first()
    after = figures_now(night)
    if record is None:  # ended before money was recorded: record it now
        record = MoneyRecord(night_id=night.pk)
        record.keep(after)
        record.save()
        return False
    before = record.as_figures
    if before == after:
        return False
    if money_of(before) == money_of(after) or only_names_winners(before, after):
        record.keep(after)
        record.save()
        return False
    token = change_token(before, after)
    lines = money_lines(before, after)
    if money_ok != token:
        raise MoneyChange(night, lines, token)
    record.keep(after)
    record.save()
    moved = "; ".join(f"{x.label} {x.before} → {x.after}" for x in lines if x.changed)
    history.record(
        night=night,
        by=by,
        kind=history.Kind.MONEY,
        text=f"Changed the night's money after it ended: {moved}",
    )
    return True
