"""What the group pages read: the groups and players a host may see."""

from __future__ import annotations

from django.shortcuts import get_object_or_404

from .models import Group, Player


def group_for_host(user, slug: str) -> Group:
    """The group ``slug`` if ``user`` hosts it, else a 404 (as for a group that does not exist)."""
    return get_object_or_404(Group.objects.hosted_by(user), slug=slug)


def player_for_host(user, slug: str, player_pk: int) -> Player:
    """A player of a group ``user`` hosts, else a 404."""
    group = group_for_host(user, slug)
    return get_object_or_404(Player.objects.select_related("group"), pk=player_pk, group=group)
