"""What the group pages read: the groups and players a host may see."""

from __future__ import annotations

from django.shortcuts import get_object_or_404

from bunco_night.rules.explain import how_to_play
from bunco_night.rules.presets import Rules

from .models import Group, Player


def group_for_host(user, slug: str) -> Group:
    """The group ``slug`` if ``user`` hosts it, else a 404 (as for a group that does not exist)."""
    return get_object_or_404(Group.objects.hosted_by(user), slug=slug)


def player_for_host(user, slug: str, player_pk: int) -> Player:
    """A player of a group ``user`` hosts, else a 404."""
    group = group_for_host(user, slug)
    return get_object_or_404(Player.objects.select_related("group"), pk=player_pk, group=group)


def rules_explained(group: Group, rules: Rules | None = None, *, sets: int | None = None):
    """The group's rules in words, with its prizes (docs/rules.md, every section): the
    group's own rules, or a night's ``rules`` and ``sets``."""
    rules = rules or group.rules_obj
    prizes = [p.as_category(rules) for p in group.prizes.all()]
    return how_to_play(rules, prizes, sets=sets)
