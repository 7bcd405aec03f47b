"""The night's standings, set by set, and its first and last buncos (docs/rules.md
sections 6 and 7.1). Ghosts have no rows (section 5)."""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class PlayerRound:
    """One player's result for one round (docs/rules.md sections 7.1 and 7.5). ``low_buncos`` and
    ``high_buncos`` are part of ``mini_buncos``; ``table`` 1 is the head."""

    player: Hashable
    won: bool
    buncos: int = 0
    mini_buncos: int = 0
    marks: Mapping[str, int] = field(default_factory=dict)
    set_number: int = 1
    low_buncos: int = 0
    high_buncos: int = 0
    table: int | None = None
    score: int | None = None


@dataclass(frozen=True)
class BuncoRoll:
    """A true bunco: who rolled it and ``when``: (round number, time) (docs/rules.md 6, 7)."""

    player: Hashable
    when: object


@dataclass(frozen=True)
class Standing:
    """A player's totals for the night and their place."""

    player: Hashable
    wins: int
    losses: int
    buncos: int
    mini_buncos: int
    marks: Mapping[str, int]
    rank: int = 0
    tied: bool = False
    low_buncos: int = 0
    high_buncos: int = 0
    head_rounds: int = 0
    best_round: int | None = None

    @property
    def rounds(self) -> int:
        """Rounds the player has a result for."""
        return self.wins + self.losses


def tally(rows: Iterable[PlayerRound], players: Iterable[Hashable] = ()) -> list[Standing]:
    """Sum rows into one unranked ``Standing`` per player (``players`` adds those with none)."""
    totals: dict[Hashable, dict] = {}

    def blank() -> dict:
        return {
            "wins": 0,
            "losses": 0,
            "buncos": 0,
            "mini_buncos": 0,
            "marks": {},
            "low_buncos": 0,
            "high_buncos": 0,
            "head_rounds": 0,
            "best_round": None,
        }

    for player in players:
        totals.setdefault(player, blank())
    for row in rows:
        t = totals.setdefault(row.player, blank())
        t["wins" if row.won else "losses"] += 1
        t["buncos"] += row.buncos
        t["mini_buncos"] += row.mini_buncos
        t["low_buncos"] += row.low_buncos
        t["high_buncos"] += row.high_buncos
        t["head_rounds"] += row.table == 1
        if row.score is not None and (t["best_round"] is None or row.score > t["best_round"]):
            t["best_round"] = row.score
        for code, n in row.marks.items():
            t["marks"][code] = t["marks"].get(code, 0) + n
    return [Standing(player=p, **t) for p, t in totals.items()]


def rank_standings(
    standings: Iterable[Standing], roll_off: Mapping[Hashable, int] | None = None
) -> list[Standing]:
    """Rank by wins, then buncos, then ``roll_off`` places (docs/rules.md section 7.1)."""
    roll_off = roll_off or {}

    def key(s: Standing) -> tuple:
        return (-s.wins, -s.buncos, roll_off.get(s.player, float("inf")))

    ordered = sorted(standings, key=lambda s: (*key(s), str(s.player)))
    first: dict[tuple, int] = {}
    count: dict[tuple, int] = {}
    for i, s in enumerate(ordered):
        k = key(s)
        first.setdefault(k, i + 1)
        count[k] = count.get(k, 0) + 1
    return [dataclasses.replace(s, rank=first[key(s)], tied=count[key(s)] > 1) for s in ordered]


def set_standings(
    rows: Iterable[PlayerRound],
    players: Iterable[Hashable] = (),
    roll_offs: Mapping[int, Mapping[Hashable, int]] | None = None,
) -> dict[int, list[Standing]]:
    """Each set's own standings, set 1 first (docs/rules.md section 7.1). ``roll_offs``: set
    number -> roll-off places; ``players`` are added to every set."""
    roll_offs = roll_offs or {}
    everyone = list(players)
    by_set: dict[int, list[PlayerRound]] = {}
    for row in rows:
        by_set.setdefault(row.set_number, []).append(row)
    return {
        number: rank_standings(tally(by_set[number], everyone), roll_offs.get(number))
        for number in sorted(by_set)
    }


def last_bunco(buncos: Iterable[BuncoRoll]) -> BuncoRoll | None:
    """The latest bunco of the night, or None."""
    latest = None
    for b in buncos:
        if latest is None or b.when >= latest.when:
            latest = b
    return latest


def fuzzy_die_holder(buncos: Iterable[BuncoRoll]) -> Hashable | None:
    """The fuzzy die goes to whoever rolled the latest bunco (docs/rules.md section 7.2)."""
    latest = last_bunco(buncos)
    return latest.player if latest else None


def first_bunco(buncos: Iterable[BuncoRoll]) -> BuncoRoll | None:
    """The earliest bunco of the night, in the order of docs/rules.md section 6.3, or None."""
    earliest = None
    for b in buncos:
        if earliest is None or b.when < earliest.when:
            earliest = b
    return earliest
