"""What the table phone shows beyond its page's facts (pages.TablePage): the news at the top
of its screen, in a word, and what each tap would add to its side's score, for the taps a
phone holds that are not sent yet (docs/rules.md section 2.3)."""

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
    """What the top of the table phone says, in a word (the status, or in play: the host's
    winner, a tie, Done, the round over here, the bell, or nothing new). js/bunco-round.js shows
    the top of the page when it changes."""
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
    """A tap button (``rolls.Tap``) with what its roll does to its side's score: adds
    ``points``, or (``reset``) puts the score back to 0 (docs/rules.md section 2.4)."""

    tap: Tap
    points: int
    reset: bool


def tap_buttons(rules: Rules, taps: list[Tap]) -> list[TapButton]:
    """Each of ``taps`` with what its roll does to the score, as the rules score it with
    no doubles rolled before (a third double in a row, which only the table's entries
    know, is the server's to count: docs/rules.md section 9.2)."""
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
    """What each roll the dice entry can make scores, as JSON for the phone: the faces in
    order ("113") -> points (section 2.1; 9.2 with two dice, no doubles before); "{}"
    when the round has no mark to roll for. Kept per (rules, mark): every board a tap or a
    poll draws asks for it."""
    if mark is None:
        return "{}"
    dice = 2 if rules.is_two_dice else 3
    scores = {
        "".join(map(str, faces)): score_roll(faces, mark, rules).points
        for faces in combinations_with_replacement(range(1, 7), dice)
    }
    return json.dumps(scores, separators=(",", ":"))
