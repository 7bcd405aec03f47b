"""Play a whole night through the rules engine with seeded random dice, for previews and tests:
``simulate_night`` returns the JSON the management command prints. Timed rounds (docs/rules.md
section 3.8) run on a pretend clock (``SECONDS_PER_ROLL``)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from .buck import buck_game, buck_order
from .errors import RuleError
from .layouts import plan_layout
from .movement import next_seating, partner_seat, seat_players
from .presets import EXTRA_TURN, Rules
from .rounds import Entry, TableState, round_status, side_of
from .scoring import BUNCO, score_roll
from .standings import PlayerRound, rank_standings, tally

MAX_ROLLS_PER_ROUND = 200_000
ROLL_OFF_TARGET = 5
# The pretend clock of a timed round: a throw, a count and a tap on the phone.
SECONDS_PER_ROLL = 10


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
    streak: int = 0  # doubles in a row in the turn being played (two-dice bunko)
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
            bunco_side=next(
                (side_of(e.seat, self.teams) for e in self.entries if e.kind == BUNCO), None
            ),
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
        dice = [rng.randint(1, 6) for _ in range(rules.dice)]
        scored = score_roll(dice, mark, rules, doubles_before=self.streak)
        self.streak = self.streak + 1 if scored.doubles and scored.roll_again else 0
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
        self.current, self.streak = seat, 0
        for _ in range(MAX_ROLLS_PER_ROUND):
            again = self.roll(rng, mark, rules)
            if not again or (rules.bunco_ends_round and self.entries[-1].kind == BUNCO):
                break
        self.in_turn = False

    def play_extra_turns(self, rng: random.Random, mark: int, rules: Rules) -> None:
        """One pass of extra turns, seat 1 first (docs/rules.md section 3.4)."""
        if self.play_scores is None:
            self.play_scores = tuple(self.scores)
        self.extra_pass = len(self.pass_scores) + 1
        for seat in range(1, self.size + 1):
            self.take_turn(rng, mark, rules, seat)
            if rules.is_two_dice and self.entries[-1].kind == BUNCO:
                break  # docs/rules.md section 9.2: three doubles win the round at once
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
        # Every player takes one more turn; the next round_status says who won.
        table.play_extra_turns(rng, mark, rules)
        return
    # Deluxe roll-off: first side to 5 points; not added to the round's score.
    points = dict.fromkeys(tied, 0)
    for _ in range(MAX_ROLLS_PER_ROUND):
        for side in tied:
            dice = [rng.randint(1, 6) for _ in range(rules.dice)]
            count = dice.count(mark)
            points[side] += rules.bunco_points if count == 3 else count
            if points[side] >= ROLL_OFF_TARGET:
                table.tiebreak_winner = side
                return
    raise RuleError("The roll-off did not end.", "endless_round")


def _time_up(rules: Rules, ticks: int) -> bool:
    """Whether a timed round's clock has run out after ``ticks`` rolls at every table."""
    return rules.is_timed and ticks * SECONDS_PER_ROLL >= rules.round_minutes * 60


def _play_dice_round(rules: Rules, tables: list[_Table], mark: int, rng: random.Random) -> bool:
    """Play a round to its end; returns whether a timed round's time ran out."""
    for ticks in range(MAX_ROLLS_PER_ROUND):
        status = round_status(rules, [t.state() for t in tables], time_up=_time_up(rules, ticks))
        if status.over:
            return _time_up(rules, ticks)
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


def _buck_round(rules: Rules, names: list[str], rng: random.Random) -> tuple[dict, dict, int]:
    """One game of Buck Dice (docs/rules.md section 9.3): (table JSON, {player: place},
    point number); place 1 went out first."""
    throws = {p: [sum(rng.randint(1, 6) for _ in range(3))] for p in names}
    order = buck_order(throws)
    while not order.settled:
        for group in order.tied:
            for p in group:
                throws[p].append(sum(rng.randint(1, 6) for _ in range(3)))
        order = buck_order(throws)
    point = rng.randint(1, 6)
    game = buck_game(order.order, point, rules)
    seats = {p: s for s, p in enumerate(game.players, start=1)}
    thrown = []
    for _ in range(MAX_ROLLS_PER_ROUND):
        if game.over:
            break
        thrown.append([rng.randint(1, 6) for _ in range(3)])
        game = game.throw(thrown[-1])
    else:
        raise RuleError("The game did not end.", "endless_round")
    table = {
        "table": 1,
        "teams": False,
        "seats": [{"seat": s, "player": p, "ghost": False} for p, s in seats.items()],
        "rolls": [
            {"seat": seats[t.player], "dice": dice, "points": t.points, "kind": t.kind}
            for t, dice in zip(game.throws, thrown, strict=True)
        ],
        "score": {str(seats[p]): game.score_of(p) for p in game.players},
        "winners": [seats[p] for p in game.out],
        "tiebreak": False,
        "out": list(game.out),
        "loser": game.loser,
    }
    return table, {p: place for place, p in enumerate(game.places, start=1)}, point


def _simulate_buck(names: list[str], rules: Rules, sets: int, rng: random.Random) -> dict:
    """A night of Buck Dice: one game a set."""
    rows: list[PlayerRound] = []
    rounds = []
    places: dict[str, list[int]] = {p: [] for p in names}
    for number in range(1, sets * rules.rounds_per_set + 1):
        table, place, point = _buck_round(rules, names, rng)
        rounds.append(
            {"number": number, "set": rules.set_of(number), "mark": point, "tables": [table]}
        )
        by_seat = {s["seat"]: s["player"] for s in table["seats"]}
        for p in names:
            places[p].append(place[p])
            mine = [r["kind"] for r in table["rolls"] if by_seat[r["seat"]] == p]
            rows.append(
                PlayerRound(
                    player=p,
                    won=p != table["loser"],
                    buncos=mine.count(BUNCO),
                    mini_buncos=mine.count("mini"),
                    set_number=rules.set_of(number),
                )
            )
    return {"rounds": rounds, "rows": rows, "places": places}


def simulate_night(*, players: int, rules: Rules, sets: int | None = None, seed: int = 0) -> dict:
    """A whole night, played with dice from ``random.Random(seed)``."""
    rng = random.Random(seed)
    names = [f"Player {i}" for i in range(1, players + 1)]
    layout, seating, ghosts = _first_seating(rules, names, rng)
    sets = rules.sets_per_night if sets is None else sets
    if not 1 <= sets <= 12:
        raise RuleError("Sets must be 1 to 12.", "bad_sets")
    if rules.is_buck_dice:
        return _buck_night(rules, names, layout.sizes, sets, rng)
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
                time_up = _play_dice_round(rules, tables, mark, rng)
                status = round_status(rules, [t.state() for t in tables], time_up=time_up)
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
            rnd = {
                "number": number,
                "set": set_number,
                "mark": mark,
                "tables": [
                    _table_json(t, ghosts, tuple(w)) for t, w in zip(tables, winners, strict=True)
                ],
            }
            if rules.is_timed and not rules.is_card_game:
                rnd["time_up"] = time_up
            rounds.append(rnd)
            seating = next_seating(rules, seating, winners, ghosts)
    return _night_json(rules, names, layout.sizes, rounds, rows)


def _night_json(
    rules: Rules,
    names: list[str],
    sizes: list[int],
    rounds: list[dict],
    rows: list[PlayerRound],
    places: dict[str, list[int]] | None = None,
) -> dict:
    standings = []
    for s in rank_standings(tally(rows, names)):
        row = {
            "player": s.player,
            "wins": s.wins,
            "losses": s.losses,
            "buncos": s.buncos,
            "mini_buncos": s.mini_buncos,
        }
        if places is not None:
            row["out"] = places[s.player]
        standings.append(row)
    return {
        "rules": rules.name,
        "players": names,
        "layout": sizes,
        "rounds": rounds,
        "standings": standings,
    }


def _buck_night(
    rules: Rules, names: list[str], sizes: list[int], sets: int, rng: random.Random
) -> dict:
    played = _simulate_buck(names, rules, sets, rng)
    return _night_json(rules, names, sizes, played["rounds"], played["rows"], played["places"])
