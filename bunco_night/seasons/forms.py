"""Forms for a season's pages. Forms parse what was typed; the services decide."""

from __future__ import annotations

from django import forms

from bunco_night.core.forms import HostForm, MoneyField, PassedOnField, PostForm
from bunco_night.groups.models import Group, Player, Season
from bunco_night.groups.prize_forms import PrizeSharesForm
from bunco_night.rules.season import SEASON_PRIZE_LABELS

DATE = {"type": "date"}


class SeasonForm(HostForm):
    """A season's name, dates, share of the dues and who may win its prizes."""

    name = forms.CharField(
        max_length=60,
        label="Season name",
        help_text="Such as 2027.",
        error_messages={"required": "Give the season a name, such as 2027."},
    )
    starts = forms.DateField(
        widget=forms.DateInput(attrs=DATE, format="%Y-%m-%d"),
        label="First day",
        error_messages={"required": "Choose the first day.", "invalid": "Enter a date."},
    )
    ends = forms.DateField(
        widget=forms.DateInput(attrs=DATE, format="%Y-%m-%d"),
        label="Last day",
        error_messages={"required": "Choose the last day.", "invalid": "Enter a date."},
    )
    pot_percent = forms.IntegerField(
        min_value=0,
        max_value=100,
        label="Percent of each night's dues kept for the year-end prizes",
        help_text="0 keeps nothing: every night's dues go to that night's prizes.",
        error_messages={
            "required": "Give a percent from 0 to 100.",
            "invalid": "Give a whole percent, like 10.",
            "min_value": "Give a percent from 0 to 100.",
            "max_value": "Give a percent from 0 to 100.",
        },
    )
    regulars_only = forms.BooleanField(
        required=False, label="Only regulars can win the year-end prizes"
    )

    @classmethod
    def initial_for(cls, season: Season) -> dict:
        return {
            "name": season.name,
            "starts": season.starts,
            "ends": season.ends,
            "pot_percent": season.pot_percent,
            "regulars_only": season.regulars_only,
        }


class SeasonPrizesForm(PrizeSharesForm):
    """The year-end prizes and each one's share of the season's pot."""

    labels = SEASON_PRIZE_LABELS


class MonthForm(PostForm):
    """Which month a post saves: ``prefix`` "m" + six digits (its ``HostingTurnForm``)."""

    prefix = forms.RegexField(r"\Am\d{6}\Z", required=False, strip=False)

    def month_prefix(self) -> str:
        """The prefix, or "" when the post names no month."""
        return self.cleaned_data["prefix"] if self.is_valid() else ""


class HostingTurnForm(HostForm):
    """Who hosts one month, where, and who brings what."""

    month = forms.DateField(widget=forms.HiddenInput)
    host = forms.ModelChoiceField(
        queryset=Player.objects.none(),
        required=False,
        empty_label="Nobody yet",
        label="Host",
        error_messages={"invalid_choice": "Choose someone from the roster."},
    )
    place = forms.CharField(
        max_length=120, required=False, label="Place", help_text="Leave empty for the host's home."
    )
    brings = forms.CharField(
        max_length=500,
        required=False,
        label="Who brings what",
        widget=forms.TextInput(attrs={"placeholder": "Bea: dessert, Carla: drinks"}),
    )

    def __init__(self, *args, group: Group, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["host"].queryset = group.players.filter(retired=False).order_by("name")


class PrepaymentForm(HostForm):
    """Dues a player paid ahead; ``nonce`` (the page's, hidden) makes a retry a no-op."""

    player = forms.ModelChoiceField(
        queryset=Player.objects.none(),
        label="Who paid",
        empty_label="Choose a player…",
        error_messages={
            "required": "Choose who paid.",
            "invalid_choice": "Choose someone from the roster.",
        },
    )
    amount = MoneyField(label="Amount, in dollars")
    starts = forms.DateField(
        widget=forms.DateInput(attrs=DATE, format="%Y-%m-%d"),
        label="Pays for nights from",
        error_messages={
            "required": "Choose the first night it pays for.",
            "invalid": "Enter a date.",
        },
    )
    note = forms.CharField(max_length=120, required=False, label="Note")
    nonce = PassedOnField(widget=forms.HiddenInput)

    def __init__(self, *args, group: Group, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["player"].queryset = group.players.filter(retired=False).order_by("name")


class TiebreakForm(HostForm):
    """Who won a tied year-end prize; no player clears the choice."""

    code = forms.ChoiceField(choices=list(SEASON_PRIZE_LABELS.items()))
    player = forms.IntegerField(required=False)
