"""Rule presets a group copies and changes knob by knob (docs/rules.md section 11);
``validate_rules`` refuses combinations that make no sense, with a stable code."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from .errors import RuleError
from .prizes import (
    LEFTOVER_FIRST_PRIZE,
    ROUND_DOLLARS,
    SUBSTITUTE_WINS,
    TIE_ROLL_OFF,
    PrizePolicy,
    check_policy,
)

# Round-end triggers (docs/rules.md section 3; 3.9 for the first side anywhere).
HEAD_TABLE = "head_table"
EVERY_TABLE = "every_table"
ANY_TABLE = "any_table"
ROUND_ENDS = (HEAD_TABLE, EVERY_TABLE, ANY_TABLE)

# Movement after a round (docs/rules.md section 5; 5.6 for the card party).
DELUXE_MOVEMENT = "deluxe"
LADDER_MOVEMENT = "ladder"
CARD_MOVEMENT = "card"
MOVEMENTS = (DELUXE_MOVEMENT, LADDER_MOVEMENT, CARD_MOVEMENT)

# How a night with a player count that is not a multiple of four is seated (section 4).
FILL_TABLES = "tables"
FILL_GHOSTS = "ghosts"
FILLS = (FILL_TABLES, FILL_GHOSTS)

# Tie-breaks at a table (section 3).
ROLL_OFF = "roll_off"
EXTRA_TURN = "extra_turn"
TIE_BREAKS = (ROLL_OFF, EXTRA_TURN)

# The games (docs/rules.md sections 1, 9.1 and 9.3); two-dice bunko (9.2) is ``dice`` 2.
DICE_GAME = "dice"
CARD_GAME = "cards"
BUCK_GAME = "buck_dice"
GAMES = (DICE_GAME, CARD_GAME, BUCK_GAME)

# Timed rounds (docs/rules.md section 3.8): minutes per round, 0 for no clock.
MAX_ROUND_MINUTES = 120

# Effects a group-defined mark may have on the table score (section 2).
NO_EFFECT = "none"
RESET_ROUND_SCORE = "reset_round_score"
MARK_EFFECTS = (NO_EFFECT, RESET_ROUND_SCORE)
# A mark's code is recorded with every entry of that mark, in a column this long.
MARK_CODE_MAX_LENGTH = 30


@dataclass(frozen=True)
class GroupMark:
    """A counter a group tallies, such as a wipeout or a Monte Carlo (docs/rules.md section 2.4).
    ``points`` go to the roller's side; ``reset_round_score`` sets its round score to 0."""

    code: str
    label: str
    points: int = 0
    effect: str = NO_EFFECT


@dataclass(frozen=True)
class Rules:
    """Every knob of a night's rules. Copy with ``dataclasses.replace`` or ``with_``."""

    name: str
    game: str = DICE_GAME
    # Scoring a roll (section 2): three dice, or two in two-dice bunko (section 9.2).
    dice: int = 3
    bunco_points: int = 21
    split_low_high: bool = False
    mini_points: int = 5
    low_points: int = 7
    high_points: int = 5
    mark_die_points: int = 1
    mark_pair_points: int = 2
    # Targets (section 3).
    target_teams: int = 21
    target_individuals: int = 11
    target_one_table: int = 21
    quick_game: bool = False
    # Round end (section 3).
    round_end: str = HEAD_TABLE
    bunco_ends_round: bool = False
    everyone_rolls_once: bool = True
    tie_break: str = EXTRA_TURN
    round_minutes: int = 0
    # Marks and sets (section 1).
    marks: tuple[int, ...] = (1, 2, 3, 4, 5, 6)
    draw_mark_with_die: bool = False
    card_games: int = 10
    sets_per_night: int = 1
    # Seating and movement (sections 4-5).
    movement: str = DELUXE_MOVEMENT
    fill: str = FILL_TABLES
    head_partners_stay: bool = False
    group_marks: tuple[GroupMark, ...] = field(default_factory=tuple)
    # Buck Dice (section 9.3).
    buck_target: int = 15
    little_buck_points: int = 5
    # Prizes (sections 7.6 to 7.8).
    prize_rounding: str = ROUND_DOLLARS
    prize_leftover: str = LEFTOVER_FIRST_PRIZE
    prize_ties: str = TIE_ROLL_OFF
    substitute_prizes: str = SUBSTITUTE_WINS
    fewest_wins_min_rounds: int = 0

    def with_(self, **changes) -> Rules:
        """A copy with some knobs changed, validated."""
        return validate_rules(dataclasses.replace(self, **changes))

    @property
    def is_card_game(self) -> bool:
        """The 1904 progressive card party: results are entered by hand."""
        return self.game == CARD_GAME

    @property
    def is_buck_dice(self) -> bool:
        """Buck Dice (docs/rules.md section 9.3)."""
        return self.game == BUCK_GAME

    @property
    def is_two_dice(self) -> bool:
        """Two-dice bunko (docs/rules.md section 9.2): a roll is two dice."""
        return self.game == DICE_GAME and self.dice == 2

    @property
    def is_timed(self) -> bool:
        """Rounds run on the clock (docs/rules.md section 3.8)."""
        return self.round_minutes > 0

    @property
    def prize_policy(self) -> PrizePolicy:
        """The group's prize settings (docs/rules.md sections 7.6 to 7.8)."""
        return PrizePolicy(
            rounding=self.prize_rounding,
            leftover=self.prize_leftover,
            ties=self.prize_ties,
            substitutes=self.substitute_prizes,
            fewest_wins_min_rounds=self.fewest_wins_min_rounds,
        )

    @property
    def rounds_per_set(self) -> int:
        """Rounds in one set: one per mark, ten of cards (9.1), one of Buck Dice (9.3)."""
        if self.is_buck_dice:
            return 1
        return self.card_games if self.is_card_game else len(self.marks)

    def set_of(self, round_number: int) -> int:
        """The set (from 1) that round ``round_number`` (from 1) belongs to."""
        return (round_number - 1) // self.rounds_per_set + 1

    def place_in_set(self, round_number: int) -> int:
        """Where round ``round_number`` comes in its set, from 1."""
        return (round_number - 1) % self.rounds_per_set + 1

    def rounds_for(self, sets: int) -> int:
        """How many rounds ``sets`` sets have."""
        return sets * self.rounds_per_set

    def sets_for(self, rounds: int) -> int:
        """How many sets it takes to play ``rounds`` rounds."""
        return -(-rounds // self.rounds_per_set)

    def planned_mark(self, round_number: int) -> int | None:
        """The mark of round ``round_number`` if known in advance, else None."""
        if self.is_card_game or self.is_buck_dice or self.draw_mark_with_die:
            return None
        return self.marks[(round_number - 1) % len(self.marks)]

    def group_mark(self, code: str) -> GroupMark:
        """The group-defined mark with this code."""
        for mark in self.group_marks:
            if mark.code == code:
                return mark
        raise RuleError(f"There is no mark called {code!r} in these rules.", "unknown_mark")

    def as_dict(self) -> dict:
        """Plain values, for storing a snapshot with a night."""
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> Rules:
        """Rebuild rules from ``as_dict`` output; unknown keys are refused."""
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise RuleError(f"Unknown rule settings: {', '.join(sorted(unknown))}.", "unknown_knob")
        values = dict(data)
        values["marks"] = tuple(values.get("marks", (1, 2, 3, 4, 5, 6)))
        values["group_marks"] = tuple(
            m if isinstance(m, GroupMark) else GroupMark(**m) for m in values.get("group_marks", ())
        )
        return validate_rules(cls(**values))


def _require(condition: bool, message: str, code: str) -> None:
    if not condition:
        raise RuleError(message, code)


def validate_rules(rules: Rules) -> Rules:
    """Return ``rules`` unchanged if every knob makes sense, else raise ``RuleError``."""
    _require(rules.game in GAMES, "The game must be dice, cards or Buck Dice.", "bad_game")
    _require(rules.dice in (2, 3), "A roll is three dice, or two in two-dice bunko.", "bad_dice")
    for knob in (
        "bunco_points",
        "mini_points",
        "low_points",
        "high_points",
        "mark_die_points",
        "mark_pair_points",
        "little_buck_points",
    ):
        _require(getattr(rules, knob) >= 0, f"{knob} cannot be negative.", "negative_points")
    for knob in ("target_teams", "target_individuals", "target_one_table"):
        _require(1 <= getattr(rules, knob) <= 1000, f"{knob} must be 1 to 1000.", "bad_target")
    _require(rules.round_end in ROUND_ENDS, "Unknown round-end rule.", "bad_round_end")
    _require(rules.tie_break in TIE_BREAKS, "Unknown tie-break.", "bad_tie_break")
    _require(rules.movement in MOVEMENTS, "Unknown movement.", "bad_movement")
    _require(rules.fill in FILLS, "Fill must be tables or ghosts.", "bad_fill")
    _require(len(rules.marks) >= 1, "A set needs at least one round.", "bad_marks")
    _require(all(1 <= m <= 6 for m in rules.marks), "Marks are die faces 1 to 6.", "bad_marks")
    _require(1 <= rules.card_games <= 50, "Card games per set must be 1 to 50.", "bad_card_games")
    _require(1 <= rules.sets_per_night <= 12, "Sets per night must be 1 to 12.", "bad_sets")
    _require(
        rules.movement != LADDER_MOVEMENT or rules.fill == FILL_GHOSTS,
        "Ladder movement is played at tables of four: fill empty seats with ghosts.",
        "ladder_needs_ghosts",
    )
    # docs/rules.md section 5.4: with Deluxe movement the arrivals were partners: refused.
    _require(
        not rules.head_partners_stay or rules.movement == LADDER_MOVEMENT,
        "Head-table partners stay together only with ladder movement.",
        "head_partners_need_ladder",
    )
    _require(
        (rules.movement == CARD_MOVEMENT) == rules.is_card_game,
        "The card game moves winners to the next table; dice games use deluxe or ladder movement.",
        "bad_movement",
    )
    _require(
        0 <= rules.round_minutes <= MAX_ROUND_MINUTES,
        f"Minutes per round must be 0 (no clock) to {MAX_ROUND_MINUTES}.",
        "bad_round_minutes",
    )
    # docs/rules.md section 9.3: three dice at one table, no movement, no clock.
    _require(
        not rules.is_buck_dice
        or (rules.dice == 3 and rules.movement == DELUXE_MOVEMENT and not rules.is_timed),
        "Buck Dice is three dice at one table, played to the last player: no movement, no clock.",
        "bad_buck_dice",
    )
    _require(1 <= rules.buck_target <= 100, "The Buck Dice target must be 1 to 100.", "bad_target")
    _require(
        rules.dice == 3 or rules.game == DICE_GAME,
        "Two dice are for two-dice bunko.",
        "bad_dice",
    )
    check_policy(
        rounding=rules.prize_rounding,
        leftover=rules.prize_leftover,
        ties=rules.prize_ties,
        substitutes=rules.substitute_prizes,
        fewest_wins_min_rounds=rules.fewest_wins_min_rounds,
    )
    codes = [m.code for m in rules.group_marks]
    _require(len(codes) == len(set(codes)), "Two group marks share a code.", "duplicate_mark")
    for mark in rules.group_marks:
        _require(bool(mark.code) and bool(mark.label.strip()), "A mark needs a name.", "bad_mark")
        _require(mark.effect in MARK_EFFECTS, "Unknown mark effect.", "bad_mark")
        _require(-100 <= mark.points <= 100, "Mark points must be -100 to 100.", "bad_mark")
    return rules


# The presets of docs/rules.md section 11.1.
DELUXE = Rules(
    name="deluxe",
    split_low_high=True,
    round_end=EVERY_TABLE,
    bunco_ends_round=True,
    everyone_rolls_once=False,
    tie_break=ROLL_OFF,
    sets_per_night=1,
    movement=DELUXE_MOVEMENT,
)

HOUSE = Rules(
    name="house",
    round_end=HEAD_TABLE,
    tie_break=EXTRA_TURN,
    sets_per_night=4,
    movement=DELUXE_MOVEMENT,
)

LADDER = Rules(
    name="ladder",
    round_end=HEAD_TABLE,
    tie_break=EXTRA_TURN,
    sets_per_night=3,
    movement=LADDER_MOVEMENT,
    fill=FILL_GHOSTS,
)

ONE_TABLE = dataclasses.replace(DELUXE, name="one_table")

CARD_1904 = Rules(  # section 9.1
    name="card_1904",
    game=CARD_GAME,
    round_end=EVERY_TABLE,
    everyone_rolls_once=False,
    movement=CARD_MOVEMENT,
    card_games=10,
    sets_per_night=1,
)

TWO_DICE = Rules(  # section 9.2
    name="two_dice",
    dice=2,
    round_end=ANY_TABLE,
    bunco_ends_round=True,
    everyone_rolls_once=False,
    tie_break=EXTRA_TURN,
    draw_mark_with_die=True,
    sets_per_night=3,
    movement=LADDER_MOVEMENT,
    fill=FILL_GHOSTS,
    head_partners_stay=True,
)

BUCK_DICE = Rules(  # section 9.3
    name="buck_dice",
    game=BUCK_GAME,
    round_end=EVERY_TABLE,
    everyone_rolls_once=False,
    movement=DELUXE_MOVEMENT,
    sets_per_night=1,
)

PRESETS: dict[str, Rules] = {
    r.name: validate_rules(r)
    for r in (DELUXE, HOUSE, LADDER, ONE_TABLE, CARD_1904, TWO_DICE, BUCK_DICE)
}


# Each preset's name: in full where a host chooses, short in a header.
PRESET_LABELS = {
    "house": "House rules: the head table rings the bell, 4 sets",
    "deluxe": "Deluxe box: every table plays to 21, low and high buncos",
    "ladder": "Ladder: winners climb, ghosts fill empty seats, 3 sets",
    "one_table": "One table: 2 to 4 players, no moving",
    "card_1904": "1904 progressive card party",
    "two_dice": "Two-dice bunko: the first team to 21 stops every table, winners climb",
    "buck_dice": "Buck Dice: one table of 2 to 20, out on exactly 15, the last one left loses",
}
PRESET_NAMES = {
    "house": "House rules",
    "deluxe": "Deluxe rules",
    "ladder": "Ladder rules",
    "one_table": "One-table rules",
    "card_1904": "1904 card party",
    "two_dice": "Two-dice bunko",
    "buck_dice": "Buck Dice",
}


def preset(name: str) -> Rules:
    """The preset called ``name``."""
    try:
        return PRESETS[name]
    except KeyError:
        raise RuleError(
            f"Unknown rules {name!r}; choose one of {', '.join(PRESETS)}.", "unknown_preset"
        ) from None
