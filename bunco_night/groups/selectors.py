"""What the group pages read: the groups and players a host may see."""

from __future__ import annotations

from django.shortcuts import get_object_or_404

from bunco_night.rules.explain import how_to_play
from bunco_night.rules.presets import Rules
from bunco_night.rules.shares import PrizeCategory

from .models import Group, HostingTurn, Player, Season


def group_for_host(user, slug: str) -> Group:
    """The group ``slug`` if ``user`` hosts it, else a 404 (as for a group that does not exist)."""
    return get_object_or_404(Group.objects.hosted_by(user), slug=slug)


def player_for_host(user, slug: str, player_pk: int) -> Player:
    """A player of a group ``user`` hosts, else a 404."""
    group = group_for_host(user, slug)
    return get_object_or_404(Player.objects.select_related("group"), pk=player_pk, group=group)


def rules_explained(
    group: Group,
    rules: Rules | None = None,
    *,
    sets: int | None = None,
    prizes: list[PrizeCategory] | None = None,
):
    """The group's (or a night's ``rules``, ``sets``, ``prizes``) rules in words."""
    rules = rules or group.rules_obj
    if prizes is None:
        prizes = [p.as_category(rules) for p in group.prizes.all()]
    return how_to_play(rules, prizes, sets=sets)


def season_for_host(user, pk: int) -> Season:
    """A season of a group ``user`` hosts, else a 404."""
    return get_object_or_404(
        Season.objects.filter(group__in=Group.objects.hosted_by(user)).select_related("group"),
        pk=pk,
    )


def season_covering(group: Group, date) -> Season | None:
    """The group's season that ``date`` falls in, if any."""
    return group.seasons.covering(date).first()


def hosting_turn_on(group: Group, date) -> HostingTurn | None:
    """Who hosts the month of ``date`` in the group's season, if the rotation says."""
    return (
        HostingTurn.objects.filter(season__group=group, month=date.replace(day=1))
        .filter(season__starts__lte=date, season__ends__gte=date)
        .select_related("host")
        .first()
    )
