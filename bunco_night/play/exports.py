"""What was played, as CSV rows: every score entry of a group, and a night's results."""

from __future__ import annotations

from bunco_night.core.money import cents_text
from bunco_night.groups.models import Group
from bunco_night.nights.models import Night
from bunco_night.nights.played import came_and_went

from .models import Entry
from .standings import night_standings

ENTRIES_HEADER = [
    "night_id",
    "date",
    "round",
    "table",
    "seat",
    "roller",
    "kind",
    "mark",
    "points",
    "by_host",
    "entered_at",
    "undone_at",
]
RESULTS_HEADER = [
    "rank",
    "player",
    "came_and_went",
    "wins",
    "losses",
    "buncos",
    "mini_buncos",
    "prizes",
    "won",
]


def entry_rows(group: Group):
    """Every entry of the group's nights, undone ones too (with when they were undone)."""
    rows = Entry.objects.filter(round__night__group=group).select_related(
        "round__night", "table", "roller"
    )
    for e in rows.order_by("round__night__date", "round__night_id", "created", "pk"):
        yield [
            e.round.night_id,
            e.round.night.date.isoformat(),
            e.round.number,
            e.table.number,
            e.seat,
            e.roller.name if e.roller else "",
            e.kind,
            e.mark_code,
            e.points,
            e.by_host,
            e.created.isoformat(timespec="seconds"),
            e.undone_at.isoformat(timespec="seconds") if e.undone_at else "",
        ]


def result_rows(night: Night):
    """The night's standings with each player's prizes and money (docs/rules.md section
    7) and comings and goings (section 10)."""
    result = night_standings(night)
    notes = came_and_went(night)
    prizes: dict[int, list[tuple[str, int | None]]] = {}
    for row in result.prize_rows:
        prize = row.prize
        for won, paid, cents in row.lines:
            label = f"{prize.title} (split)" if prize.split else prize.title
            if paid != won:
                label += f" (paid to {paid.name})"
            prizes.setdefault(won.pk, []).append((label, cents))
        if prize.tied:
            for player in row.candidates:
                prizes.setdefault(player.pk, []).append((f"{prize.title} (tied)", None))
    for standing, player in result.rows:
        mine = prizes.get(player.pk, [])
        won = sum(cents for _, cents in mine if cents is not None)
        yield [
            standing.rank,
            player.name,
            notes.get(player.pk, ""),
            standing.wins,
            standing.losses,
            standing.buncos,
            standing.mini_buncos,
            "; ".join(label for label, _ in mine),
            cents_text(won) if mine else "",
        ]
