"""The rules card ("How we play"): a group's or a night's rules in words, on one page."""

from __future__ import annotations

from dataclasses import dataclass

from bunco_night.groups.models import Group
from bunco_night.groups.selectors import rules_explained
from bunco_night.nights.models import Night
from bunco_night.nights.selectors import night_rules_explained
from bunco_night.rules.explain import Section
from bunco_night.rules.presets import PRESET_NAMES

from .parts import Options, Parts, Sizes, Source


@dataclass(frozen=True)
class RulesCard:
    """A group's (or night's) rules in words on one page (``rules.explain``); ``density``
    "roomy", "compact" or "tight" keeps it to one page."""

    rules_label: str
    sections: list[Section]
    density: str


# Characters of rules text that fit one page at each size, biggest first; else "tight".
DENSITIES = (("roomy", 2500), ("compact", 3700))


def rules_card(*, group: Group, night: Night | None = None) -> RulesCard:
    """The rules card of ``group``, or of ``night`` (its rules and its number of sets)."""
    rules = night.rules_obj if night is not None else group.rules_obj
    sections = night_rules_explained(night) if night is not None else rules_explained(group)
    chars = sum(len(line) for s in sections for line in s.lines)
    return RulesCard(
        PRESET_NAMES.get(rules.name, ""),
        sections,
        next((name for name, most in DENSITIES if chars <= most), "tight"),
    )


def pieces(source: Source) -> Parts:
    """The card, one page: the night's rules, or the group's as they stand today."""
    return Parts([{"doc": rules_card(group=source.group, night=source.night)}], [1])


def pages(sizes: Sizes, options: Options) -> int:
    return 1
