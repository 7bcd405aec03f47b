"""Money that has been paid stays paid (docs/rules.md section 7.9).

When a night ends, its money is recorded as it stands (``money_record``), in the
transaction that ends it, and from then on every page and printout reads the record
(``selectors.dues_summary``, ``play.standings.night_standings``). A change elsewhere in
the group (a season made or its share changed, dues paid ahead, rules or prizes, the
roster) applies to the nights to come only. A host's change to the finished night itself
(a payment or its taking back, a correction, a tie-break) is worked out again on the
recorded footing (``money_settle``): when it would move money, the host is shown the
money before and after and asked first (``MoneyChange``); with their yes the new money
is recorded, and the night's history says so.

Sharing the pot out among the prizes needs the night's standings, which the play app
reads (it sits above this one): it hands its reader to ``use_prize_reader`` as the apps
load (``play.apps``).
"""

from __future__ import annotations

from collections.abc import Callable

from bunco_night.rules.money import (
    NightFigures,
    Place,
)
from bunco_night.rules.standings import PrizeAwards

from .models import MoneyRecord, Night
from .selectors import dues_summary

# (night, pot in cents) -> the prizes shared out of that pot as the night's standings
# decide them now, and why no money is paid yet ("" when it is).
PrizeReader = Callable[[Night, int], tuple[PrizeAwards, str]]
_prize_reader: PrizeReader | None = None


def use_prize_reader(reader: PrizeReader) -> None:
    """The play app's reader of a night's prizes (called once, as the apps load)."""
    global _prize_reader
    _prize_reader = reader


def figures_now(night: Night) -> NightFigures:
    """The night's money worked out now: for a finished night, on the footing recorded
    when it ended (the season's share, each place's dues and dues paid ahead), with the
    payments, results and tie-breaks as they are now."""
    if _prize_reader is None:  # pragma: no cover - the play app is always installed
        raise RuntimeError("No prize reader: is bunco_night.play in INSTALLED_APPS?")
    summary = dues_summary(night, now=True)
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
    """Record ``night``'s money as it stands: called where a night ends, in the same
    transaction (docs/rules.md section 7.9)."""
    record = MoneyRecord.objects.select_for_update().filter(night_id=night.pk).first()
    record = record or MoneyRecord(night_id=night.pk)
    record.keep(figures_now(night))
    record.save()
    return record
