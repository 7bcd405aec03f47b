"""A group's rules in words, made from its knobs, section by section as docs/rules.md
(the comments say which), for its rules page and printed rules card."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .presets import (
    ANY_TABLE,
    EVERY_TABLE,
    EXTRA_TURN,
    FILL_GHOSTS,
    HEAD_TABLE,
    LADDER_MOVEMENT,
    RESET_ROUND_SCORE,
    Rules,
)
from .prizes import (
    BEST_ROUND,
    DOOR_PRIZE,
    FIRST_BUNCO,
    LEFTOVER_FIRST_PRIZE,
    LEFTOVER_NEXT_POT,
    MOST_HEAD_ROUNDS,
    MOST_HIGH,
    MOST_LOW,
    MOST_MARK,
    MOST_MINIS,
    ROUND_CENTS,
    ROUND_QUARTERS,
    SUBSTITUTE_CANNOT_WIN,
    SUBSTITUTE_FOR_REGULAR,
    TIE_SPLIT,
)
from .shares import (
    FEWEST_WINS,
    FUZZY_DIE,
    LAST_BUNCO,
    MOST_BUNCOS,
    MOST_LOSSES,
    MOST_WINS,
    PrizeCategory,
)


@dataclass(frozen=True)
class Section:
    """One part of the rules: a heading and its sentences."""

    key: str
    title: str
    lines: tuple[str, ...]


def _count(n: int, word: str) -> str:
    """ "1 round", "3 rounds"."""
    return f"{n} {word}{'s' if n != 1 else ''}"


def _points(n: int) -> str:
    return _count(n, "point")


def _list(words: Sequence[str]) -> str:
    words = list(words)
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def _scoring(rules: Rules) -> tuple[str, ...]:
    """What scores what: docs/rules.md sections 2.1, 2.2, 2.4 and 9.2."""
    if rules.is_card_game:
        return (
            "The game is played with cards at each table; the app does not score it.",
            "When someone gets rid of their Bunco pile, every table stops. The player with "
            "the fewest cards left in their pile wins the table: a punch. The host records "
            "each table's winner.",
        )
    if rules.is_buck_dice:
        return _buck_scoring(rules)
    if rules.is_two_dice:
        lines = [
            "A roll is two dice.",
            f"One die showing the round's number: {_points(rules.mark_die_points)}. Both dice "
            f"showing it (a pair): {_points(rules.mark_pair_points)}.",
            "Doubles of any other number score nothing, but you roll again, as you do after "
            "any roll that shows the round's number.",
            "Three doubles in a row in one turn are a BUNCO: your side wins the round at once, "
            "whatever the scores. The phone counts the doubles for you.",
            "A roll with no round's number and no doubles ends your turn: pass the dice to "
            "the left.",
        ]
    else:
        lines = [
            "A roll is three dice.",
            "Each die showing the round's number: 1 point.",
            f"Three of the round's number, a BUNCO: {_points(rules.bunco_points)} (not 3 more).",
        ]
        if rules.split_low_high:
            lines.append(
                f"Three of a lower number, a low bunco: {_points(rules.low_points)}. Three of "
                f"a higher number, a high bunco: {_points(rules.high_points)}."
            )
        else:
            lines.append(f"Three of any other number, a mini bunco: {_points(rules.mini_points)}.")
        lines.append(
            "A roll that scores lets you roll again. A roll that scores nothing (a miss) ends "
            "your turn: pass the dice to the left."
        )
    for mark in rules.group_marks:
        if mark.effect == RESET_ROUND_SCORE:
            what = "puts your side's score for the round back to 0"
        elif mark.points:
            what = f"scores {mark.points:+d} for your side"
        else:
            what = "is tallied on your card"
        lines.append(f"{mark.label}: {what}.")
    if rules.dice == 3:
        lines.append("On the phone, tap what each roll scored, or enter the dice; a miss too.")
    else:
        lines.append("On the phone, tap what each roll scored, or enter the two dice; a miss too.")
    return tuple(lines)


def _buck_scoring(rules: Rules) -> tuple[str, ...]:
    """Buck Dice: docs/rules.md section 9.3."""
    target = rules.buck_target
    return (
        "One table, everyone for themselves. Each player throws the three dice for the order "
        "of play: the highest total goes first. Players level throw again.",
        "The last in the order throws one die: the point number, for the whole game.",
        "On your turn, throw the three dice: 1 point for each die showing the point number, "
        "and throw again. A throw without the point number passes the dice.",
        f"Three of another number, a Little Buck: {_points(rules.little_buck_points)}, and "
        "the dice pass.",
        f"Three of the point number, a Big Buck: you are at {target} at once.",
        f"You are out when you reach exactly {target}. A throw that would take you past "
        f"{target} does not count, and the dice pass.",
        "The last player left in is the loser.",
    )


def _targets(rules: Rules) -> str:
    """docs/rules.md section 3.3."""
    if rules.quick_game:
        return "Every table plays to 11 (the quick game)."
    parts = [f"a team at a table of four: {rules.target_teams}"]
    if not rules.is_two_dice and rules.fill != FILL_GHOSTS:
        parts.append(f"each player at a table of two or three: {rules.target_individuals}")
    parts.append(f"each player when there is only one table: {rules.target_one_table}")
    return "The target: " + "; ".join(parts) + "."


def _round_end(rules: Rules) -> tuple[str, ...]:
    """When a round ends: docs/rules.md sections 3.1 to 3.4, 3.8 and 3.9."""
    if rules.is_card_game:
        lines = ["The host starts every round; every table plays one game."]
        if rules.is_timed:
            lines.append(
                f"Each round has {rules.round_minutes} minutes: when the time is up, the host "
                "records each table's winner."
            )
        return tuple(lines)
    if rules.is_buck_dice:
        return ("A game ends when one player is left in.",)
    lines = ["The host starts every round, and every table starts at once.", _targets(rules)]
    if rules.round_end == HEAD_TABLE:
        lines.append(
            "The head table controls the round: when a side at Table 1 reaches its target, the "
            "bell rings for everyone. At the other tables a side may pass the target and keep "
            "rolling."
        )
        lines.append(
            "After the bell, the player rolling finishes the turn and nobody else starts one"
            + (
                ", except that everyone who has not rolled yet this round takes one turn"
                if rules.everyone_rolls_once
                else ""
            )
            + ". Then tap Done on the phone."
        )
    elif rules.round_end == EVERY_TABLE:
        lines.append(
            "Every table plays to its target: the first side there wins the table, and that "
            "table stops. The other tables keep playing."
        )
        if rules.bunco_ends_round:
            lines.append(
                "A BUNCO ends the round at every table at once: the bell rings, and the side "
                "ahead at each table wins it."
            )
    elif rules.round_end == ANY_TABLE:
        lines.append(
            "The first side anywhere to reach its target stops every table: the bell rings, "
            "and the side ahead at each table wins it."
        )
        if rules.bunco_ends_round:
            lines.append("A BUNCO anywhere rings the bell too.")
    if rules.round_end != HEAD_TABLE and rules.everyone_rolls_once:
        lines.append(
            "A table stopped by the bell first lets everyone who has not rolled this round "
            "take one turn."
        )
    if rules.is_timed:
        lines.append(
            f"Each round has {_count(rules.round_minutes, 'minute')}, "
            "counted down on every phone. When the time is up the bell rings, as if the host "
            "rang it, and each table's leader wins."
        )
    lines.append("The host can also ring the bell by hand.")
    if rules.tie_break == EXTRA_TURN:
        lines.append(
            "A tie at a table: every player at that table takes one more turn, and the scores "
            "are added up again. Still tied? Another turn each."
        )
    else:
        lines.append(
            "A tie at a table: the tied sides roll off. The round's number scores 1 point"
            + ("" if rules.is_two_dice else " and a BUNCO 21")
            + "; the first side to 5 points wins. Tap who won."
        )
    return tuple(lines)


def _first_roller(rules: Rules) -> tuple[str, ...]:
    """Who rolls first: docs/rules.md section 2.5."""
    if rules.is_card_game or rules.is_buck_dice:
        return ()
    return (
        "At each table the scorekeeper rolls first: the person in seat 1 (or the next seat "
        "with a person, if a ghost sits there). The phone says who.",
        "When everyone plays at one table, the player to the left of the last round's winner "
        "rolls first.",
    )


def _moving(rules: Rules) -> tuple[str, ...]:
    """Moving: docs/rules.md sections 4, 5.1 to 5.6."""
    if rules.is_buck_dice:
        return ("Nobody moves: everyone plays at one table, every game.",)
    if rules.is_card_game:
        return (
            "Tables of up to four, as even as possible. After each game, each table's winner "
            "moves to the next table (the last table's winner to Table 1); everyone else stays.",
        )
    lines = []
    if rules.fill == FILL_GHOSTS:
        lines.append(
            "Every table has four: ghosts fill the empty seats. A ghost is played by its "
            "partner, who gets anything rolled for it."
        )
    else:
        lines.append(
            "Tables of four play in teams: partners sit across from each other (seats 1 and 3, "
            "2 and 4). Where the numbers do not fill tables of four, the last tables seat two "
            "or three, who play for themselves."
        )
    if rules.movement == LADDER_MOVEMENT:
        lines.append(
            "After each round the winners move up a table; the losers stay. At the head table "
            "the winners stay and the losers go to the bottom table."
        )
    else:
        lines.append(
            "After each round every table sends two players to the next table, and the last "
            "table sends two to Table 1: a table of four sends its losing team, a table of "
            "three its two losers, a table of two both players."
        )
    if rules.head_partners_stay:
        lines.append(
            "Partners at the head table stay together until they lose; everywhere else, "
            "nobody has the same partner two rounds in a row."
        )
    else:
        lines.append("Nobody has the same partner two rounds in a row.")
    lines.append("The phones and everyone's own page say where to sit next.")
    return tuple(lines)


def _length(rules: Rules, sets: int | None) -> tuple[str, ...]:
    """Sets and marks: docs/rules.md sections 1 and 8.4."""
    sets = rules.sets_per_night if sets is None else sets
    if rules.is_buck_dice:
        return (f"The night has {sets} game{'s' if sets != 1 else ''}.",)
    if rules.is_card_game:
        return (
            f"A set is {_count(rules.card_games, 'game')}; the night has {_count(sets, 'set')}.",
        )
    rounds = rules.rounds_per_set
    marks = ", ".join(str(m) for m in rules.marks)
    lines = [
        f"A set is {rounds} round{'s' if rounds != 1 else ''}; the night has "
        f"{sets} set{'s' if sets != 1 else ''}."
    ]
    if rules.draw_mark_with_die:
        lines.append("A die is rolled at the head table for each round's number.")
    else:
        lines.append(f"The rounds are played for {marks}, in that order, set after set.")
    return tuple(lines)


_WHO_WINS = {
    MOST_BUNCOS: "the most buncos",
    MOST_WINS: "the most wins",
    MOST_LOSSES: "the most losses",
    LAST_BUNCO: "whoever rolls the night's last bunco",
    FEWEST_WINS: "the fewest wins",
    FUZZY_DIE: "whoever holds the fuzzy die at the end: it goes to each new bunco's roller",
    MOST_MINIS: "the most mini buncos (low and high included)",
    MOST_LOW: "the most low buncos",
    MOST_HIGH: "the most high buncos",
    FIRST_BUNCO: "whoever rolls the night's first bunco",
    MOST_HEAD_ROUNDS: "the most rounds played at the head table",
    BEST_ROUND: "the most points rolled in one round",
    DOOR_PRIZE: "drawn at random among everyone present, with a number the host shows",
}


def _share(c: PrizeCategory) -> str:
    if c.percent is not None:
        return f"{c.percent}% of the pot"
    dollars, cents = divmod(c.amount_cents or 0, 100)
    return f"${dollars:,}.{cents:02d}" if cents else f"${dollars:,}"


def _prizes(rules: Rules, categories: Sequence[PrizeCategory]) -> tuple[str, ...]:
    """What wins a prize: docs/rules.md sections 7.1 to 7.8."""
    if rules.is_card_game:
        lines = ["Standings: the most punches, then the host records a cut of the cards for ties."]
    else:
        lines = [
            "Standings: the most wins, then the most buncos; players still level roll off "
            "(first to 5 points)."
        ]
    for c in categories:
        if c.code == MOST_MARK:
            who = f"the {c.title.lower()}"
        else:
            who = _WHO_WINS.get(c.code, c.code)
        lines.append(f"{c.title}: {who}. {_share(c)}.")
    if not categories:
        lines.append("The group gives no prizes.")
        return tuple(lines)
    if any(c.code in (MOST_BUNCOS, LAST_BUNCO, FUZZY_DIE, FIRST_BUNCO) for c in categories):
        lines.append("Nobody wins a bunco prize on a night without a bunco.")
    if rules.prize_ties == TIE_SPLIT:
        lines.append("Players tied for a prize split its money.")
    else:
        lines.append("Players tied for a prize roll off for it; the host records who won.")
    unit = {ROUND_CENTS: "the cent", ROUND_QUARTERS: "the quarter"}.get(
        rules.prize_rounding, "the whole dollar"
    )
    where = {
        LEFTOVER_FIRST_PRIZE: f"goes to {categories[0].title.lower()}",
        LEFTOVER_NEXT_POT: "is kept for next month's pot",
    }.get(rules.prize_leftover, "goes to the host, who decides")
    lines.append(
        f"The pot is the dues collected. A percent share is rounded down to {unit}; what is "
        f"left over {where}."
    )
    if rules.substitute_prizes == SUBSTITUTE_FOR_REGULAR:
        lines.append("A substitute who wins a prize wins it for the regular they came for.")
    elif rules.substitute_prizes == SUBSTITUTE_CANNOT_WIN:
        lines.append("Substitutes cannot win prizes.")
    if rules.fewest_wins_min_rounds and any(c.code == FEWEST_WINS for c in categories):
        n = rules.fewest_wins_min_rounds
        lines.append(
            f"Fewest wins is for players who played at least {n} round{'s' if n != 1 else ''}."
        )
    return tuple(lines)


def how_to_play(
    rules: Rules, prizes: Sequence[PrizeCategory] = (), *, sets: int | None = None
) -> list[Section]:
    """The rules of a group (or of a night, with its ``sets``) in words, part by part."""
    sections = [
        Section("scoring", "What scores", _scoring(rules)),
        Section(
            "round",
            "When a game ends" if rules.is_buck_dice else "When a round ends",
            _round_end(rules),
        ),
        Section("first", "Who rolls first", _first_roller(rules)),
        Section("moving", "Seats and moving", _moving(rules)),
        Section("length", "How long a night is", _length(rules, sets)),
        Section("prizes", "Prizes", _prizes(rules, prizes)),
    ]
    return [s for s in sections if s.lines]
