"""A night's money as plain values: what is recorded at its end, whether it adds up, and
what a later change would move (docs/rules.md section 7.9)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields

from .awards import PrizeAwards, PrizeResult
from .prizes import DOOR_PRIZE, DoorDraw


@dataclass(frozen=True)
class Place:
    """A place on the night's list: owed, cash, and ahead used (docs/rules.md 8.3, 8.6)."""

    attendance: int
    owes_cents: int
    paid_cents: int
    prepaid_cents: int

    @property
    def collected_cents(self) -> int:
        return self.paid_cents + self.prepaid_cents


@dataclass(frozen=True)
class NightFigures:
    """A night's money: collected, the season's share, the pot and the prizes; JSON by
    ``figures_data``. ``payout_error``: the prizes ask for more than the pot."""

    collected_cents: int
    season_share_cents: int
    season_name: str
    season_percent: int | None
    places: tuple[Place, ...]
    awards: PrizeAwards
    payout_error: str = ""

    @property
    def pot_cents(self) -> int:
        """The night's prize pot: the dues collected less the season's share (section 7.4)."""
        return self.collected_cents - self.season_share_cents


def _result_from_data(data: Mapping) -> PrizeResult:
    known = {f.name for f in fields(PrizeResult)}
    values = {k: v for k, v in data.items() if k in known}
    values["candidates"] = tuple(values.get("candidates", ()))
    values["payouts"] = tuple(tuple(p) for p in values.get("payouts", ()))
    return PrizeResult(**values)


def awards_data(awards: PrizeAwards) -> dict:
    """``awards`` as JSON-ready values (players as their ids)."""
    return json.loads(json.dumps(asdict(awards)))


def awards_from_data(data: Mapping) -> PrizeAwards:
    """The ``PrizeAwards`` that ``awards_data`` gave ``data`` for."""
    door = data.get("door")
    return PrizeAwards(
        results=[_result_from_data(r) for r in data.get("results", ())],
        pot_cents=data["pot_cents"],
        rounding=data["rounding"],
        leftover_cents=data["leftover_cents"],
        first_prize_cents=data["first_prize_cents"],
        carried_cents=data["carried_cents"],
        host_cents=data["host_cents"],
        unassigned_cents=data["unassigned_cents"],
        door=DoorDraw(door["seed"], tuple(door["order"]), door["number"], door["winner"])
        if door
        else None,
    )


def figures_data(figures: NightFigures) -> dict:
    """``figures`` as JSON-ready values."""
    return {
        "collected_cents": figures.collected_cents,
        "season_share_cents": figures.season_share_cents,
        "season_name": figures.season_name,
        "season_percent": figures.season_percent,
        "places": [
            [p.attendance, p.owes_cents, p.paid_cents, p.prepaid_cents] for p in figures.places
        ],
        "awards": awards_data(figures.awards),
        "payout_error": figures.payout_error,
    }


def figures_from_data(data: Mapping) -> NightFigures:
    """The ``NightFigures`` that ``figures_data`` gave ``data`` for."""
    return NightFigures(
        collected_cents=data["collected_cents"],
        season_share_cents=data["season_share_cents"],
        season_name=data.get("season_name", ""),
        season_percent=data.get("season_percent"),
        places=tuple(Place(*p) for p in data.get("places", ())),
        awards=awards_from_data(data["awards"]),
        payout_error=data.get("payout_error", ""),
    )


def unbalanced(figures: NightFigures) -> list[str]:
    """What does not add up in ``figures``, to the cent; [] when everything does
    (docs/rules.md sections 7.4, 7.6, 7.8 and 8.7): dues, pot, and each prize paid."""
    problems = []
    collected = sum(p.collected_cents for p in figures.places)
    if collected != figures.collected_cents:
        problems.append(f"places paid {collected}, collected {figures.collected_cents}")
    if figures.pot_cents < 0 or figures.season_share_cents < 0:
        problems.append(f"negative pot or share: {figures.pot_cents}, {figures.season_share_cents}")
    a = figures.awards
    if a.pot_cents != figures.pot_cents:
        problems.append(f"the prizes share {a.pot_cents}, the pot is {figures.pot_cents}")
    shared = sum(r.amount_cents - r.remainder_cents for r in a.results)
    total = shared + a.carried_cents + a.host_cents + a.unassigned_cents
    if total != figures.pot_cents:
        problems.append(f"prizes and leftover make {total}, the pot is {figures.pot_cents}")
    for r in a.results:
        paid = sum(cents for _, cents in r.payouts)
        if r.payouts and paid + r.remainder_cents != r.amount_cents:
            problems.append(f"{r.title}: pays {paid} + {r.remainder_cents} of {r.amount_cents}")
        if min([r.amount_cents, r.remainder_cents, *(c for _, c in r.payouts)]) < 0:
            problems.append(f"{r.title}: a negative amount")
    return problems


def _paid(r: PrizeResult) -> tuple:
    """What a prize pays and to whom: the money side of a result."""
    return (r.key, r.amount_cents, r.remainder_cents, r.payouts, r.winner if r.payouts else None)


def money_of(figures: NightFigures) -> tuple:
    """Every amount in ``figures`` and who is paid it, for comparing."""
    a = figures.awards
    return (
        figures.collected_cents,
        figures.season_share_cents,
        figures.pot_cents,
        figures.payout_error,
        tuple(_paid(r) for r in a.results),
        (a.leftover_cents, a.first_prize_cents, a.carried_cents, a.host_cents, a.unassigned_cents),
    )


def _waiting(r: PrizeResult) -> bool:
    """A prize kept for a winner to be named (docs/rules.md sections 7.3 and 7.5)."""
    return not r.payouts and (r.tied or (r.code == DOOR_PRIZE and r.seed is None))


def only_names_winners(before: NightFigures, after: NightFigures) -> bool:
    """``after`` only names waiting winners: nobody's money moves (docs/rules.md 7.9)."""
    b, a = before.awards.results, after.awards.results
    if len(b) != len(a) or money_of(before)[:4] != money_of(after)[:4]:
        return False
    if money_of(before)[5] != money_of(after)[5]:
        return False
    named = False
    for old, new in zip(b, a, strict=True):
        if _paid(old) == _paid(new):
            continue
        if not (_waiting(old) and old.key == new.key and old.amount_cents == new.amount_cents):
            return False
        named = True
    return named


def change_token(before: NightFigures, after: NightFigures) -> str:
    """A short fingerprint of the change, so a host's "yes" is to that change only."""
    text = json.dumps([figures_data(before), figures_data(after)], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:20]
