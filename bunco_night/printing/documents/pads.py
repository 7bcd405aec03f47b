"""Score pads: a pad per table per set, a row per round (docs/rules.md section 3)."""

from __future__ import annotations

from dataclasses import dataclass

from django.http import QueryDict

from bunco_night.nights.models import Night
from bunco_night.nights.selectors import players_tonight
from bunco_night.rules.errors import RuleError
from bunco_night.rules.layouts import plan_layout
from bunco_night.rules.presets import ANY_TABLE, FILL_GHOSTS, HEAD_TABLE, Rules
from bunco_night.rules.rounds import table_game

from .parts import Options, Parts, Sizes, Source, cut
from .shared import Slot, night_slots


@dataclass(frozen=True)
class ScorePad:
    """A table's pad for one set; ``ghosts``: remind who rolls for one (docs/rules.md 4.2)."""

    table: int | None
    head: bool
    set_number: int
    sides: list[str]
    rule: str
    slots: list[Slot]
    is_card_game: bool
    ghosts: bool = False


def _pad_tables(night: Night, rules: Rules) -> list[tuple[int, int]]:
    """(number, seats) of tonight's tables: the active ones, else the layout to come."""
    tables = [(t.number, t.seats) for t in night.tables.filter(active=True).order_by("number")]
    if tables:
        return tables
    try:
        layout = plan_layout(len(players_tonight(night)), rules)
    except RuleError:
        return []
    return [(t.number, t.seats) for t in layout.tables]


def pad_rule(rules: Rules, *, target: int, head: bool | None) -> str:
    """How a round ends at this table, in a line (docs/rules.md 3); ``head`` None: blank."""
    if rules.is_card_game:
        return "The host enters each game's winner"
    clock = f"; the bell rings after {rules.round_minutes} minutes" if rules.is_timed else ""
    if rules.round_end == HEAD_TABLE:
        if head is None:
            return f"Head table: first to {target} rings the bell{clock}"
        if head:
            return f"First to {target} rings the bell for every table{clock}"
        return f"Play until the bell rings: the higher score wins{clock}"
    # Two dice: three doubles in a row are the bunco (section 9.2).
    bunco = "three doubles in a row win" if rules.is_two_dice else "a bunco wins"
    if rules.round_end == ANY_TABLE:  # section 3.9
        rule = f"The first side anywhere to {target} stops every table: the higher score wins"
        if rules.bunco_ends_round:
            rule = f"{rule}; {bunco} at once"
        return f"{rule}{clock}"
    rule = f"First to {target} wins the round"
    if rules.bunco_ends_round:
        rule = f"{rule}; {bunco.removesuffix(' win').removesuffix(' wins')} ends it everywhere"
    return f"{rule}{clock}"


def score_pads(*, night: Night, blank: bool = False) -> list[ScorePad]:
    """One pad per table per set; ``blank`` pads (Us/Them, no table number) one per set."""
    rules = night.rules_obj
    card = rules.is_card_game
    slots = night_slots(night, every_round=True)
    sets = [[s for s in slots if s.set_number == n] for n in range(1, night.sets + 1)]
    tables = [] if blank else _pad_tables(night, rules)
    ghosts = rules.fill == FILL_GHOSTS and not card
    if not tables:
        rule = pad_rule(rules, target=table_game(rules, seats=4, tables=2).target, head=None)
        sides = ["Winner"] if card else ["Us", "Them"]
        return [
            ScorePad(None, False, n, sides, rule, s, card, ghosts) for n, s in enumerate(sets, 1)
        ]
    pads = []
    for number, seats in tables:
        game = table_game(rules, seats=seats, tables=len(tables))
        sides = ["Us", "Them"] if game.teams else [f"Seat {i}" for i in range(1, seats + 1)]
        rule = pad_rule(rules, target=game.target, head=number == 1)
        for set_number, set_slots in enumerate(sets, start=1):
            pads.append(
                ScorePad(
                    number,
                    number == 1,
                    set_number,
                    sides,
                    rule,
                    set_slots,
                    card,
                    ghosts and game.teams,
                )
            )
    return pads


def pieces(source: Source) -> Parts:
    """The pads in runs, a page each."""
    runs = cut(score_pads(night=source.night, blank=source.options.blank_pads))
    return Parts([{"pads": run} for run in runs], [len(run) for run in runs])


def pages(sizes: Sizes, options: Options) -> int:
    return sizes.sets * (1 if options.blank_pads else max(sizes.tables, 1))


def read_options(query: QueryDict) -> Options:
    """``?blank=1``: Us/Them pads without a table number."""
    return Options(blank_pads=query.get("blank") == "1")
