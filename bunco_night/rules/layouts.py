"""How many tables, of how many seats, for a night (docs/rules.md section 4)."""

from __future__ import annotations

from dataclasses import dataclass

from .errors import RuleError
from .presets import FILL_GHOSTS, Rules
from .rounds import table_game

MIN_PLAYERS = 2
MAX_PLAYERS = 1000
# Buck Dice is one table passing the dice round (docs/rules.md section 9.3).
MAX_BUCK_PLAYERS = 20


@dataclass(frozen=True)
class TablePlan:
    """One table of a layout: its seats, how many of them ghosts take, and its game."""

    number: int
    seats: int
    ghosts: int
    teams: bool
    target: int

    @property
    def is_head(self) -> bool:
        """Table 1 is the head table: it has the bell."""
        return self.number == 1

    @property
    def players(self) -> int:
        """Seats taken by people."""
        return self.seats - self.ghosts


@dataclass(frozen=True)
class Layout:
    """Every table of a night, head table first."""

    players: int
    tables: tuple[TablePlan, ...]

    @property
    def sizes(self) -> list[int]:
        """Seats per table, head table first."""
        return [t.seats for t in self.tables]

    @property
    def ghosts(self) -> int:
        """Seats played by ghosts."""
        return sum(t.ghosts for t in self.tables)


def check_player_count(players: int) -> int:
    """A night needs 2 to ``MAX_PLAYERS`` players."""
    if isinstance(players, bool) or not isinstance(players, int):
        raise RuleError("The number of players must be a whole number.", "bad_player_count")
    if players < MIN_PLAYERS:
        raise RuleError("A night needs at least 2 players.", "too_few_players")
    if players > MAX_PLAYERS:
        raise RuleError(f"A night can seat at most {MAX_PLAYERS} players.", "too_many_players")
    return players


def table_sizes(players: int) -> list[int]:
    """Seats per table with small tables (docs/rules.md section 4.1)."""
    check_player_count(players)
    if players <= 4:
        return [players]
    k, r = divmod(players, 4)
    return {0: [4] * k, 1: [4] * (k - 1) + [3, 2], 2: [4] * k + [2], 3: [4] * k + [3]}[r]


def ghost_sizes(players: int) -> list[tuple[int, int]]:
    """(seats, ghosts) per table when ghosts fill empty seats (docs/rules.md section 4.2)."""
    check_player_count(players)
    if players <= 4:
        return [(players, 0)]
    tables = -(-players // 4)
    ghosts = [0] * tables
    for i in range(tables * 4 - players):
        ghosts[tables - 1 - (i % tables)] += 1
    return [(4, g) for g in ghosts]


def balanced_sizes(players: int) -> list[int]:
    """Tables of (about) four, as even as possible: the card party (docs/rules.md section 4.3)."""
    check_player_count(players)
    tables = -(-players // 4)
    base, extra = divmod(players, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def buck_table_size(players: int) -> int:
    """Buck Dice seats everyone at one table (docs/rules.md section 9.3): 2 to 20 players."""
    check_player_count(players)
    if players > MAX_BUCK_PLAYERS:
        raise RuleError(
            f"Buck Dice is one table of at most {MAX_BUCK_PLAYERS} players.", "too_many_players"
        )
    return players


def plan_layout(players: int, rules: Rules) -> Layout:
    """The tables for ``players`` people under ``rules``."""
    if rules.is_buck_dice:
        shapes = [(buck_table_size(players), 0)]
    elif rules.is_card_game:
        shapes = [(s, 0) for s in balanced_sizes(players)]
    elif rules.fill == FILL_GHOSTS:
        shapes = ghost_sizes(players)
    else:
        shapes = [(s, 0) for s in table_sizes(players)]
    count = len(shapes)
    plans = []
    for number, (seats, ghosts) in enumerate(shapes, start=1):
        game = table_game(rules, seats=seats, tables=count)
        plans.append(TablePlan(number, seats, ghosts, game.teams, game.target))
    return Layout(players, tuple(plans))
