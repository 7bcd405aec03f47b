"""A Bunco group, its hosts, its roster of regulars and substitutes, and its prizes."""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower
from django.urls import reverse
from django.utils.functional import cached_property

from bunco_night.rules.errors import RuleError
from bunco_night.rules.presets import HOUSE, MARK_CODE_MAX_LENGTH, Rules
from bunco_night.rules.prizes import MOST_MARK
from bunco_night.rules.season import SEASON_PRIZE_LABELS, season_category
from bunco_night.rules.shares import ALL_PRIZE_LABELS, PrizeCategory


def default_rules() -> dict:
    """A new group starts with the house rules."""
    return HOUSE.as_dict()


class GroupQuerySet(models.QuerySet):
    def hosted_by(self, user) -> GroupQuerySet:
        """The groups ``user`` hosts (none for an anonymous visitor)."""
        if not user.is_authenticated:
            return self.none()
        return self.filter(memberships__user=user)


class AskSubstitutes(models.TextChoices):
    """How the group's substitutes are asked when a regular cannot come."""

    ALL = "all", "All at once: the first to accept takes the seat"
    IN_TURN = "turn", "One at a time, in turn"


class Group(models.Model):
    """A group that meets for Bunco nights."""

    class PaperSize(models.TextChoices):
        LETTER = "letter", "Letter"
        A4 = "a4", "A4"

    AskSubstitutes = AskSubstitutes

    name = models.CharField(max_length=100)
    slug = models.SlugField(max_length=110, unique=True)
    hosts = models.ManyToManyField(
        settings.AUTH_USER_MODEL, through="Membership", related_name="bunco_groups"
    )
    rules = models.JSONField(default=default_rules)
    dues_cents = models.PositiveIntegerField(default=500)
    paper_size = models.CharField(
        max_length=10, choices=PaperSize.choices, default=PaperSize.LETTER
    )
    ask_substitutes = models.CharField(
        max_length=8, choices=AskSubstitutes.choices, default=AskSubstitutes.ALL
    )
    created = models.DateTimeField(auto_now_add=True)

    objects = GroupQuerySet.as_manager()

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("groups:detail", args=[self.slug])

    @cached_property
    def rules_obj(self) -> Rules:
        """The group's rules as the engine's value."""
        return Rules.from_dict(self.rules)

    def is_host(self, user) -> bool:
        """Whether ``user`` hosts this group."""
        return user.is_authenticated and self.memberships.filter(user=user).exists()


class Membership(models.Model):
    """A host of a group; several hosts may share one group."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    added = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["group", "user"], name="one_membership_per_host")
        ]

    def __str__(self) -> str:
        return f"{self.user} hosts {self.group}"


class Player(models.Model):
    """Someone on a group's roster: a regular or a substitute."""

    class Kind(models.TextChoices):
        REGULAR = "regular", "Regular"
        SUBSTITUTE = "substitute", "Substitute"

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(max_length=80)
    kind = models.CharField(max_length=12, choices=Kind.choices, default=Kind.REGULAR)
    phone = models.CharField(max_length=40, blank=True)
    email = models.EmailField(blank=True)
    notes = models.TextField(blank=True)
    retired = models.BooleanField(default=False)
    usual_substitute = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="usual_for",
        help_text="The substitute this regular usually sends.",
    )

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(Lower("name"), "group", name="unique_player_name_in_group"),
            models.CheckConstraint(condition=~models.Q(name=""), name="player_name_not_empty"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_regular(self) -> bool:
        """A regular (not a substitute)."""
        return self.kind == self.Kind.REGULAR


def mark_prize_title(label: str) -> str:
    """ "Most wipeouts" for a group mark called "Wipeout" (docs/rules.md section 7.5)."""
    label = label.strip()
    return f"Most {label if label.endswith('s') else label + 's'}"


class PrizeShare(models.Model):
    """A prize's share of a pot: a fixed amount or a percent of it, never both."""

    amount_cents = models.PositiveIntegerField(null=True, blank=True)
    percent = models.PositiveSmallIntegerField(null=True, blank=True)
    order = models.PositiveSmallIntegerField(default=0)

    class Meta:
        abstract = True
        ordering = ["order", "id"]

    def __str__(self) -> str:
        return self.get_code_display()

    @property
    def key(self) -> str:
        """What tells the prizes of one pot apart: the category's code."""
        return self.code

    @staticmethod
    def share_constraints(prefix: str) -> list[models.CheckConstraint]:
        """An amount or a percent, and a percent of at most 100 (named ``prefix_...``)."""
        return [
            models.CheckConstraint(
                condition=models.Q(amount_cents__isnull=True, percent__isnull=False)
                | models.Q(amount_cents__isnull=False, percent__isnull=True),
                name=f"{prefix}_amount_or_percent",
            ),
            models.CheckConstraint(
                condition=models.Q(percent__isnull=True) | models.Q(percent__lte=100),
                name=f"{prefix}_percent_at_most_100",
            ),
        ]


class Prize(PrizeShare):
    """A prize a group awards and its share; ``mark``: for ``most_mark`` (docs/rules.md 7.5)."""

    CODES = list(ALL_PRIZE_LABELS.items())

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="prizes")
    code = models.CharField(max_length=20, choices=CODES)
    mark = models.CharField(max_length=MARK_CODE_MAX_LENGTH, blank=True, default="")

    class Meta(PrizeShare.Meta):
        constraints = [
            models.UniqueConstraint(fields=["group", "code", "mark"], name="one_prize_per_key"),
            models.CheckConstraint(
                condition=models.Q(code=MOST_MARK, mark__gt="")
                | (~models.Q(code=MOST_MARK) & models.Q(mark="")),
                name="prize_mark_only_for_most_mark",
            ),
            *PrizeShare.share_constraints("prize"),
        ]

    def __str__(self) -> str:
        return self.title()

    @property
    def key(self) -> str:
        """What tells the group's prizes apart: "most_wins", "most_mark:wipeout"."""
        return f"{self.code}:{self.mark}" if self.mark else self.code

    def title(self, rules: Rules | None = None) -> str:
        """The prize's name; a group mark's prize is named after the mark in ``rules``."""
        if self.code != MOST_MARK:
            return self.get_code_display()
        return _mark_prize_title(self.mark, rules or self.group.rules_obj)

    def as_category(self, rules: Rules | None = None) -> PrizeCategory:
        """The engine's value for this prize (``rules`` name a group mark's prize)."""
        return prize_category(self.as_data(), rules or self.group.rules_obj)

    def as_data(self) -> dict:
        """The prize as a night keeps it (``Night.prizes``): plain values, for JSON."""
        return {
            "code": self.code,
            "mark": self.mark,
            "amount_cents": self.amount_cents,
            "percent": self.percent,
        }


def _mark_prize_title(mark: str, rules: Rules) -> str:
    try:
        label = rules.group_mark(mark).label
    except RuleError:
        label = mark  # the group has since removed the mark
    return mark_prize_title(label)


def prize_category(data: dict, rules: Rules) -> PrizeCategory:
    """The engine's value for a ``Prize.as_data`` (``rules`` name a mark's prize)."""
    mark = data.get("mark", "")
    return PrizeCategory(
        data["code"],
        amount_cents=data.get("amount_cents"),
        percent=data.get("percent"),
        label=_mark_prize_title(mark, rules) if mark else "",
        mark=mark,
    )


# Seasons, year-end prizes and hosting turns (docs/rules.md section 8.7)


class SeasonQuerySet(models.QuerySet):
    def covering(self, date: dt.date) -> SeasonQuerySet:
        """The seasons that ``date`` falls in (at most one per group)."""
        return self.filter(starts__lte=date, ends__gte=date)


class Season(models.Model):
    """A group's season ("2027"): its nights between the dates, and their dues' share."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(max_length=60)
    starts = models.DateField()
    ends = models.DateField()
    pot_percent = models.PositiveSmallIntegerField(
        default=10, help_text="The percent of each night's dues kept for the year-end prizes."
    )
    regulars_only = models.BooleanField(
        default=True, help_text="Only regulars can win the year-end prizes."
    )
    created = models.DateTimeField(auto_now_add=True)

    objects = SeasonQuerySet.as_manager()

    class Meta:
        ordering = ["-starts", "-id"]
        constraints = [
            models.UniqueConstraint(Lower("name"), "group", name="unique_season_name_in_group"),
            models.CheckConstraint(
                condition=models.Q(starts__lte=models.F("ends")), name="season_starts_before_end"
            ),
            models.CheckConstraint(
                condition=models.Q(pot_percent__lte=100), name="season_pot_percent_at_most_100"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("seasons:detail", args=[self.pk])

    def nights(self):
        """The group's nights in the season, first night first."""
        return self.group.nights.filter(date__range=(self.starts, self.ends)).order_by("date", "pk")

    def months(self) -> list[dt.date]:
        """The first day of every month the season touches."""
        months, month = [], self.starts.replace(day=1)
        while month <= self.ends:
            months.append(month)
            month = (month + dt.timedelta(days=32)).replace(day=1)
        return months


class SeasonPrize(PrizeShare):
    """A year-end prize of a season, with its share of the season's pot."""

    CODES = list(SEASON_PRIZE_LABELS.items())

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="prizes")
    code = models.CharField(max_length=30, choices=CODES)

    class Meta(PrizeShare.Meta):
        constraints = [
            models.UniqueConstraint(fields=["season", "code"], name="one_season_prize_per_code"),
            *PrizeShare.share_constraints("season_prize"),
        ]

    def as_category(self) -> PrizeCategory:
        """The engine's value for this prize."""
        return season_category(self.code, amount_cents=self.amount_cents, percent=self.percent)


class HostingTurn(models.Model):
    """Who hosts a month of a season, where, and who brings what."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="rotation")
    month = models.DateField(help_text="The first day of the month.")
    host = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="hosting_turns"
    )
    place = models.CharField(max_length=120, blank=True, help_text="Whose home, or the address.")
    brings = models.TextField(blank=True, help_text="Who brings what, such as: Bea, dessert.")

    class Meta:
        ordering = ["month"]
        constraints = [
            models.UniqueConstraint(fields=["season", "month"], name="one_host_per_month")
        ]

    def __str__(self) -> str:
        return f"{self.month:%B %Y}: {self.where or 'nobody yet'}"

    @property
    def where(self) -> str:
        """The place as the night's form starts with it: the address, else the host's home."""
        if self.place:
            return self.place
        return f"{self.host.name}'s" if self.host_id else ""
