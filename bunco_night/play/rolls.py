"""What a roll can score under a night's rules, as tap buttons (docs/rules.md 2, 9.2)."""

from __future__ import annotations

from dataclasses import dataclass

from bunco_night.rules.presets import RESET_ROUND_SCORE, Rules


@dataclass(frozen=True)
class Tap:
    """One thing a roll can score, as a button on the table phone and a choice for the host."""

    value: str
    label: str
    hint: str
    kind: str  # the button's look: points, bunco, mini, mark, miss


def taps(rules: Rules, mark: int | None) -> list[Tap]:
    """What a roll can score under ``rules`` when rolling for ``mark`` (docs/rules.md
    section 2; section 9.2 with two dice)."""
    face = mark or "the mark"
    if rules.is_two_dice:
        return _two_dice_taps(rules, face) + _mark_taps(rules)
    # The taps made every few seconds come first, two by two: they sit on the first screen.
    choices = [
        Tap("points:1", "+1", f"one {face}", "points"),
        Tap("points:2", "+2", f"two {face}s", "points"),
        Tap("bunco", "BUNCO!", f"three {face}s · +{rules.bunco_points}", "bunco"),
        Tap("miss", "Miss", "pass the dice", "miss"),
    ]
    if rules.split_low_high:
        choices += [
            Tap("low", "Low bunco", f"three of a lower number · +{rules.low_points}", "mini"),
            Tap("high", "High bunco", f"three of a higher number · +{rules.high_points}", "mini"),
        ]
    else:
        choices.append(
            Tap("mini", "Mini bunco", f"three of a kind · +{rules.mini_points}", "mini wide")
        )
    return choices + _mark_taps(rules)


def _two_dice_taps(rules: Rules, face) -> list[Tap]:
    """The taps of two-dice bunko (docs/rules.md section 9.2)."""
    return [
        Tap("points:1", f"+{rules.mark_die_points}", f"one {face}", "points"),
        Tap("pair", f"+{rules.mark_pair_points}", f"two {face}s · roll again", "points"),
        Tap("bunco", "BUNCO!", "three doubles in a row: round won", "bunco"),
        Tap("miss", "Miss", f"no {face}, no doubles: pass", "miss"),
        Tap("doubles", "Doubles", "two of another number · roll again", "mini wide"),
    ]


def _mark_taps(rules: Rules) -> list[Tap]:
    choices = []
    for m in rules.group_marks:
        if m.effect == RESET_ROUND_SCORE:
            hint = "score to 0"
        else:
            hint = f"{m.points:+d}" if m.points else "tally"
        choices.append(Tap(f"mark:{m.code}", m.label, hint, "mark"))
    return choices
