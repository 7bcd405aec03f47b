"""make_* helpers for tests: small, explicit, built through the services."""

import datetime as dt

from django.contrib.auth import get_user_model

from bunco_night.groups.models import Player
from bunco_night.groups.services import group_create, player_add, rules_update
from bunco_night.nights.services import night_create


def make_user(username="host", password="bunco"):
    return get_user_model().objects.create_user(username, password=password)


def make_group(
    *, user=None, rules="house", regulars=12, substitutes=2, name="Maple Street", **knobs
):
    group = group_create(name=name, user=user or make_user(), rules=rules)
    if knobs:
        rules_update(group=group, changes=knobs)
    for i in range(1, regulars + 1):
        player_add(
            group=group,
            name=f"Regular {i}",
            phone=f"555-01{i:02d}",
            email=f"regular{i}@example.com",
        )
    for i in range(1, substitutes + 1):
        player_add(
            group=group, name=f"Sub {i}", kind=Player.Kind.SUBSTITUTE, phone=f"555-09{i:02d}"
        )
    return group


def make_night(group, *, date=None, sets=None):
    return night_create(group=group, date=date or dt.date(2026, 12, 5), sets=sets)
