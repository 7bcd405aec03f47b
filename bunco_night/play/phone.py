"""The table phone's news word and what each tap would add (docs/rules.md section 2.3)."""

from __future__ import annotations

import json
from functools import lru_cache
from itertools import combinations_with_replacement
from typing import TYPE_CHECKING, NamedTuple

from bunco_night.rules.presets import RESET_ROUND_SCORE, Rules
from bunco_night.rules.scoring import POINTS, score_roll, score_tap

if TYPE_CHECKING:
    from .pages import TablePage
    from .rolls import Tap


def news(page: TablePage) -> str:
    """What the top of the table phone says, in a word."""
    if page.status != "playing":
        return page.status
    if page.host_winner is not None:
        return "winner-set"
    if page.extra_turns:
        return "extra-turns"
    if page.roll_off:
        return "roll-off"
    if page.here.play.finished_turn:
        return "done"
    if page.outcome.done:
        return "over-here"
    return "bell" if page.bell else "playing"


class TapButton(NamedTuple):
    """A ``rolls.Tap`` with its ``points`` or ``reset`` (docs/rules.md section 2.4)."""

    tap: Tap
    points: int
    reset: bool


def tap_buttons(rules: Rules, taps: list[Tap]) -> list[TapButton]:
    """Each of ``taps`` scored with no doubles before (docs/rules.md section 9.2)."""
    buttons = []
    for tap in taps:
        kind, _, arg = tap.value.partition(":")
        if kind == "mark":
            mark = rules.group_mark(arg)
            buttons.append(TapButton(tap, mark.points, mark.effect == RESET_ROUND_SCORE))
        else:
            scored = score_tap(kind, rules, int(arg) if kind == POINTS else 0)
            buttons.append(TapButton(tap, scored.points, False))
    return buttons


@lru_cache(maxsize=256)
def dice_points(rules: Rules, mark: int | None) -> str:
    """JSON {"113": points} for every roll of the dice entry (sections 2.1, 9.2), or "{}"
    without a mark; cached per (rules, mark)."""
    if mark is None:
        return "{}"
    dice = 2 if rules.is_two_dice else 3
    scores = {
        "".join(map(str, faces)): score_roll(faces, mark, rules).points
        for faces in combinations_with_replacement(range(1, 7), dice)
    }
    return json.dumps(scores, separators=(",", ":"))
