"""A group's roster as CSV rows (the group's download puts it in its zip)."""

from __future__ import annotations

from .models import Group

ROSTER_HEADER = [
    "id",
    "name",
    "kind",
    "phone",
    "email",
    "notes",
    "retired",
    "usual_substitute",
]


def roster_rows(group: Group):
    """Every player of the group, retired ones too."""
    for p in group.players.select_related("usual_substitute").order_by("name", "pk"):
        yield [
            p.pk,
            p.name,
            p.kind,
            p.phone,
            p.email,
            p.notes,
            p.retired,
            p.usual_substitute.name if p.usual_substitute else "",
        ]
