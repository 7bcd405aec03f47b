"""What the table phone shows beyond its page's facts (pages.TablePage): the news at the top
of its screen, in a word, and what each tap would add to its side's score, for the taps a
phone holds that are not sent yet (docs/rules.md section 2.3)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .pages import TablePage


def news(page: TablePage) -> str:
    """What the top of the table phone says, in a word (the status, or in play: the bell,
    a tie, Done, the round over here, or nothing new). js/bunco.js shows the top of the
    page when it changes."""
    if page.status != "playing":
        return page.status
    if page.extra_turns:
        return "extra-turns"
    if page.roll_off:
        return "roll-off"
    if page.here.play.finished_turn:
        return "done"
    if page.outcome.done:
        return "over-here"
    return "bell" if page.bell else "playing"
