"""The night's standings (docs/rules.md sections 6 and 7.1): each player's rows summed,
ranked by wins, buncos and a recorded roll-off, set by set, and the night's first and last
buncos. A bunco rolled for a ghost counts for its partner (section 5); ghosts have no rows.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class PlayerRound:
    """One player's result for one round: a win or a loss, and what they rolled.

    ``set_number`` is the set the round belongs to (docs/rules.md section 7.1).
    ``low_buncos`` and ``high_buncos`` are the part of ``mini_buncos`` that were low or
    high buncos, under rules that split them; ``table`` is the number of the table the
    player sat at (1 is the head table) and ``score`` the points they rolled in the
    round (``points_rolled`` in ``rounds``), for the prizes of section 7.5.
    """

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
    """A true bunco: who rolled it and when (any value that sorts in time order).

    Pass ``when`` as (round number, time): buncos are in the order they were rolled,
    by round first, so one the host adds later to an earlier round as a correction
    does not become the night's last (docs/rules.md sections 6 and 7).
    """

    player: Hashable
    when: object


@dataclass(frozen=True)
class Standing:
    """A player's totals for the night and their place.

    ``head_rounds`` counts the rounds played at the head table and ``best_round`` is the
    highest score the player rolled in one round (None when no round had a score).
    """

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
    """Rank by wins, then buncos, then a recorded roll-off (docs/rules.md section 7.1).

    ``roll_off`` maps a player to their place in a roll-off the host recorded
    (lower is better). Players still level share a rank and are marked tied.
    """
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
    """Each set's own standings, set 1 first (docs/rules.md section 7.1).

    "The winner of the set is the player with the most wins", then most buncos, then
    the roll-off the host recorded for that set (``roll_offs`` maps a set number to
    ``rank_standings``' roll-off places); players still level stay tied. Every set
    with a row is listed; ``players`` adds those with no row in a set to each set.
    The night's standings are ``rank_standings(tally(rows, players))`` as before.
    """
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
