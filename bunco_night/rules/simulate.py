"""Play a whole night through the rules engine with seeded random dice.

Hosts use it to preview a night; tests use it end to end. Everything here is
plain Python: ``simulate_night`` returns the JSON-ready dict that the
``simulate_night`` management command prints.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from .errors import RuleError
from .layouts import plan_layout
from .movement import next_seating, partner_seat, seat_players
from .presets import EXTRA_TURN, Rules
from .rounds import Entry, TableState, round_status, side_of
from .scoring import BUNCO, score_roll
from .standings import PlayerRound, rank_standings, tally

MAX_ROLLS_PER_ROUND = 200_000
ROLL_OFF_TARGET = 5


@dataclass
class _Table:
    """One table's play in one round, as the simulator tracks it."""

    number: int
    occupants: tuple
    teams: bool
    target: int
    ghosts: frozenset
    entries: list[Entry] = field(default_factory=list)
    rolls: list[dict] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)
    seat_points: list[int] = field(default_factory=list)
    rolled: set[int] = field(default_factory=set)
    credits: list[tuple[str, str]] = field(default_factory=list)  # (roller, kind)
    current: int = 1
    in_turn: bool = False
    finished_turn: bool = False
    tiebreak_winner: int | None = None
    tiebreak: bool = False
    extra_pass: int = 0  # the pass of extra turns being played; 0 during the round's play
    play_scores: tuple[int, ...] | None = None
    pass_scores: list[tuple[int, ...]] = field(default_factory=list)

    def __post_init__(self):
        self.scores = [0] * (2 if self.teams else len(self.occupants))
        self.seat_points = [0] * len(self.occupants)

    @property
    def size(self) -> int:
        return len(self.occupants)

    def state(self) -> TableState:
        return TableState(
            number=self.number,
            size=self.size,
            teams=self.teams,
            target=self.target,
            scores=tuple(self.scores),
            rolled=frozenset(self.rolled),
            bunco=any(e.kind == BUNCO for e in self.entries),
            finished_turn=self.finished_turn,
            tiebreak_winner=self.tiebreak_winner,
            play_scores=self.play_scores,
            pass_scores=tuple(self.pass_scores),
        )

    def roller(self, seat: int) -> str:
        """Who physically rolls for ``seat``: a ghost's partner rolls for it."""
        occupant = self.occupants[seat - 1]
        if occupant in self.ghosts:
            return self.occupants[partner_seat(seat) - 1]
        return occupant

    def roll(self, rng: random.Random, mark: int, rules: Rules) -> bool:
        """The current roller rolls once; returns whether they keep the dice."""
        seat = self.current
        dice = [rng.randint(1, 6) for _ in range(3)]
        scored = score_roll(dice, mark, rules)
        self.entries.append(Entry(seat, scored.points, scored.kind, extra_pass=self.extra_pass))
        roll = {"seat": seat, "dice": dice, "points": scored.points, "kind": scored.kind}
        if self.extra_pass:
            roll["extra_pass"] = self.extra_pass
        self.rolls.append(roll)
        self.scores[side_of(seat, self.teams)] += scored.points
        self.seat_points[seat - 1] += scored.points
        if not self.extra_pass:
            self.rolled.add(seat)
        if scored.is_bunco or scored.is_mini:
            self.credits.append((self.roller(seat), scored.kind))
        self.in_turn = scored.roll_again
        if not scored.roll_again:
            self.current = self.current % self.size + 1
        return scored.roll_again

    def take_turn(self, rng: random.Random, mark: int, rules: Rules, seat: int) -> None:
        """``seat`` rolls until a miss (or a bunco, where a bunco ends the round)."""
        self.current = seat
        for _ in range(MAX_ROLLS_PER_ROUND):
            again = self.roll(rng, mark, rules)
            if not again or (rules.bunco_ends_round and self.entries[-1].kind == BUNCO):
                break
        self.in_turn = False

    def play_extra_turns(self, rng: random.Random, mark: int, rules: Rules) -> None:
        """One pass of extra turns: each player at the table takes one more turn, seat 1
        first, and the points are added to the round's score (docs/rules.md section 3.4)."""
        if self.play_scores is None:
            self.play_scores = tuple(self.scores)
        self.extra_pass = len(self.pass_scores) + 1
        for seat in range(1, self.size + 1):
            self.take_turn(rng, mark, rules, seat)
        self.pass_scores.append(tuple(self.scores))
        self.extra_pass = 0


def _first_seating(rules: Rules, players: list[str], rng: random.Random):
    layout = plan_layout(len(players), rules)
    ghosts = [f"Ghost {i}" for i in range(1, layout.ghosts + 1)]
    drawn = list(players)
    rng.shuffle(drawn)
    sizes = [(t.seats, t.ghosts) for t in layout.tables]
    return layout, seat_players(sizes, drawn, ghosts), frozenset(ghosts)


def _break_tie(table: _Table, rules: Rules, rng: random.Random, mark: int, tied: tuple) -> None:
    """Settle a tie as the rules say; the simulator plays the tie-break out."""
    table.tiebreak = True
    if rules.tie_break == EXTRA_TURN:
        # House and ladder presets: every player takes one more turn (not only the tied
        # ones); the next round_status says who won, or asks for another pass.
        table.play_extra_turns(rng, mark, rules)
        return
    # Deluxe roll-off: the first side to 5 points (the mark and buncos) wins; these
    # rolls decide the tie only and are not added to the round's score.
    points = dict.fromkeys(tied, 0)
    for _ in range(MAX_ROLLS_PER_ROUND):
        for side in tied:
            dice = [rng.randint(1, 6) for _ in range(3)]
            count = dice.count(mark)
            points[side] += rules.bunco_points if count == 3 else count
            if points[side] >= ROLL_OFF_TARGET:
                table.tiebreak_winner = side
                return
    raise RuleError("The roll-off did not end.", "endless_round")


def _play_dice_round(rules: Rules, tables: list[_Table], mark: int, rng: random.Random) -> None:
    for _ in range(MAX_ROLLS_PER_ROUND):
        status = round_status(rules, [t.state() for t in tables])
        if status.over:
            return
        for table, outcome in zip(tables, status.tables, strict=True):
            if outcome.done:
                if outcome.needs_tiebreak:
                    _break_tie(table, rules, rng, mark, outcome.tied_sides)
            elif not outcome.stopped:
                table.roll(rng, mark, rules)
            elif table.in_turn:
                # The bell rang: the player rolling finishes the turn.
                table.roll(rng, mark, rules)
            elif outcome.waiting_for:
                # Nobody else starts a turn, except those who have not rolled yet.
                table.take_turn(rng, mark, rules, min(outcome.waiting_for))
            else:
                table.finished_turn = True
    raise RuleError("The round did not end.", "endless_round")


def _table_json(table: _Table, ghosts: frozenset, winners: tuple[int, ...]) -> dict:
    return {
        "table": table.number,
        "teams": table.teams,
        "seats": [
            {"seat": s, "player": p, "ghost": p in ghosts}
            for s, p in enumerate(table.occupants, start=1)
        ],
        "rolls": table.rolls,
        "score": {str(s): pts for s, pts in enumerate(table.seat_points, start=1)},
        "winners": list(winners),
        "tiebreak": table.tiebreak,
    }


def simulate_night(*, players: int, rules: Rules, sets: int | None = None, seed: int = 0) -> dict:
    """A whole night, played with dice from ``random.Random(seed)``."""
    rng = random.Random(seed)
    names = [f"Player {i}" for i in range(1, players + 1)]
    layout, seating, ghosts = _first_seating(rules, names, rng)
    sets = rules.sets_per_night if sets is None else sets
    if not 1 <= sets <= 12:
        raise RuleError("Sets must be 1 to 12.", "bad_sets")
    rows: list[PlayerRound] = []
    rounds = []
    number = 0
    for set_number in range(1, sets + 1):
        for index in range(rules.rounds_per_set):
            number += 1
            mark = None
            if not rules.is_card_game:
                mark = rng.randint(1, 6) if rules.draw_mark_with_die else rules.marks[index]
            tables = [
                _Table(plan.number, occupants, plan.teams, plan.target, ghosts)
                for plan, occupants in zip(layout.tables, seating, strict=True)
            ]
            if rules.is_card_game:
                # The host enters each table's winner by hand (section 9.1): here, at random.
                winners = [(rng.randint(1, t.size),) for t in tables]
            else:
                _play_dice_round(rules, tables, mark, rng)
                status = round_status(rules, [t.state() for t in tables])
                winners = [
                    o.winner_seats(t.size, t.teams)
                    for t, o in zip(tables, status.tables, strict=True)
                ]
            for table, won in zip(tables, winners, strict=True):
                for seat, occupant in enumerate(table.occupants, start=1):
                    if occupant in ghosts:
                        continue
                    mine = [kind for roller, kind in table.credits if roller == occupant]
                    rows.append(
                        PlayerRound(
                            player=occupant,
                            won=seat in won,
                            buncos=mine.count(BUNCO),
                            mini_buncos=len(mine) - mine.count(BUNCO),
                        )
                    )
            rounds.append(
                {
                    "number": number,
                    "set": set_number,
                    "mark": mark,
                    "tables": [
                        _table_json(t, ghosts, tuple(w))
                        for t, w in zip(tables, winners, strict=True)
                    ],
                }
            )
            seating = next_seating(rules, seating, winners, ghosts)
    standings = rank_standings(tally(rows, names))
    return {
        "rules": rules.name,
        "players": names,
        "layout": layout.sizes,
        "rounds": rounds,
        "standings": [
            {
                "player": s.player,
                "wins": s.wins,
                "losses": s.losses,
                "buncos": s.buncos,
                "mini_buncos": s.mini_buncos,
            }
            for s in standings
        ],
    }
