"""The prize forms: ``PrizeSharesForm`` (a season's too) and ``PrizesForm`` with the prize
settings (docs/rules.md sections 7.4 to 7.8)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from django import forms
from django.core.exceptions import NON_FIELD_ERRORS

from bunco_night.core.forms import HostForm
from bunco_night.core.money import cents_text, parse_money
from bunco_night.rules import prizes as prize_rules
from bunco_night.rules.presets import Rules
from bunco_night.rules.shares import ALL_PRIZE_LABELS, PRIZE_LABELS

from .models import Prize, mark_prize_title
from .services import PRIZE_KNOBS

# The prize knobs of the rules (docs/rules.md sections 7.6 to 7.8).
PRIZE_ROUNDING_CHOICES = [
    (prize_rules.ROUND_DOLLARS, "Whole dollars"),
    (prize_rules.ROUND_QUARTERS, "Quarters"),
    (prize_rules.ROUND_CENTS, "Cents"),
]
PRIZE_LEFTOVER_CHOICES = [
    (prize_rules.LEFTOVER_FIRST_PRIZE, "To the first prize in the list"),
    (prize_rules.LEFTOVER_NEXT_POT, "Kept for next month's pot"),
    (prize_rules.LEFTOVER_HOST, "To the host, who decides"),
]
PRIZE_TIES_CHOICES = [
    (prize_rules.TIE_ROLL_OFF, "Rolled off: the host records who won"),
    (prize_rules.TIE_SPLIT, "Split: the tied players share the money"),
]
SUBSTITUTE_PRIZE_CHOICES = [
    (prize_rules.SUBSTITUTE_WINS, "Substitutes win like anyone"),
    (prize_rules.SUBSTITUTE_FOR_REGULAR, "A substitute's prize goes to the regular they came for"),
    (prize_rules.SUBSTITUTE_CANNOT_WIN, "Substitutes cannot win prizes"),
]

# A prize's percent: at most three ASCII digits, an optional "%".
PERCENT_TEXT = re.compile(r"[0-9]{1,3}\s*%?")

PERCENT, DOLLARS = "percent", "dollars"
# The id of the prize list's own error (templates/groups/_prize_rows.html).
PRIZE_ROWS_ERROR = "prize-rows-error"


def prize_field(key: str) -> str:
    """A field name for a prize's key: "most_mark:snake eyes" -> "most_mark-3a-snake-20-eyes"."""
    return "".join(c if c.isascii() and (c.isalnum() or c == "_") else f"-{ord(c):x}-" for c in key)


@dataclass(frozen=True)
class PrizeChoice:
    """A prize the group can tick: category, ``mark`` code and name."""

    code: str
    mark: str
    title: str

    @property
    def key(self) -> str:
        return f"{self.code}:{self.mark}" if self.mark else self.code


def prize_choices(rules: Rules, prizes: list[Prize]) -> list[PrizeChoice]:
    """Every prize the group can give (docs/rules.md sections 7.2 and 7.5), its own first."""
    chosen = [PrizeChoice(p.code, p.mark, p.title(rules)) for p in prizes]
    offered = []
    for code, label in ALL_PRIZE_LABELS.items():
        if code == prize_rules.MOST_MARK:
            offered += [
                PrizeChoice(code, m.code, mark_prize_title(m.label)) for m in rules.group_marks
            ]
        elif code in (prize_rules.MOST_LOW, prize_rules.MOST_HIGH) and not rules.split_low_high:
            continue
        else:
            offered.append(PrizeChoice(code, "", label))
    keys = {c.key for c in chosen}
    return chosen + [c for c in offered if c.key not in keys]


class PrizeSharesForm(HostForm):
    """Which prizes are awarded and each one's share (percent or dollars)."""

    labels = PRIZE_LABELS  # the categories offered

    def __init__(self, *args, prizes: list, **kwargs):
        super().__init__(*args, **kwargs)
        current = {p.key: p for p in prizes}
        self.choices = self.prize_choices(prizes)
        for choice in self.choices:
            name = prize_field(choice.key)
            prize = current.get(choice.key)
            if prize is None:
                share, unit = "", PERCENT
            elif prize.percent is not None:
                share, unit = str(prize.percent), PERCENT
            else:
                share, unit = cents_text(prize.amount_cents), DOLLARS
            self.fields[f"{name}_on"] = forms.BooleanField(
                required=False, initial=prize is not None, label=choice.title
            )
            self.fields[f"{name}_share"] = forms.CharField(
                required=False,
                initial=share,
                label=f"Share for {choice.title.lower()}",
                widget=forms.TextInput(attrs={"inputmode": "decimal", "autocomplete": "off"}),
            )
            self.fields[f"{name}_unit"] = forms.ChoiceField(
                choices=[(PERCENT, "% of the pot"), (DOLLARS, "dollars")],
                initial=unit,
                required=False,
                label=f"Unit for {choice.title.lower()}",
            )

    def prize_choices(self, prizes: list) -> list[PrizeChoice]:
        """The prizes given first, in their order, then the rest of ``labels``."""
        codes = {p.code for p in prizes}
        return [PrizeChoice(p.code, "", self.labels[p.code]) for p in prizes] + [
            PrizeChoice(code, "", label) for code, label in self.labels.items() if code not in codes
        ]

    def rows(self):
        """(key, include box, share, unit) per prize, in the given order."""
        rows = []
        for choice in self.choices:
            name = prize_field(choice.key)
            rows.append(
                (choice.key, self[f"{name}_on"], self[f"{name}_share"], self[f"{name}_unit"])
            )
        return rows

    def clean(self):
        cleaned = super().clean()
        self.prizes = []
        percents = []  # the boxes of the percents given
        for choice in self.choices:
            name = prize_field(choice.key)
            if not cleaned.get(f"{name}_on"):
                continue
            share = (cleaned.get(f"{name}_share") or "").strip()
            prize = (
                {"code": choice.code, "mark": choice.mark} if choice.mark else {"code": choice.code}
            )
            if cleaned.get(f"{name}_unit") == DOLLARS:
                try:
                    self.prizes.append(prize | {"amount_cents": parse_money(share)})
                except forms.ValidationError as error:
                    self.add_error(f"{name}_share", error)
            elif PERCENT_TEXT.fullmatch(share) and int(share.removesuffix("%")) <= 100:
                self.prizes.append(prize | {"percent": int(share.removesuffix("%"))})
                percents.append(f"{name}_share")
            else:
                self.add_error(f"{name}_share", "Enter a whole percent from 0 to 100, like 25.")
        total = sum(p.get("percent", 0) for p in self.prizes)
        if total > 100:
            self._over_100(total, percents)
        return cleaned

    def _over_100(self, total: int, percents: list[str]) -> None:
        """Refuse percents over the whole pot (docs/rules.md section 7.4), marking each."""
        self.add_error(None, f"The shares add up to {total}%: at most 100%.")
        for name in percents:
            self.fields[name].widget.attrs |= {
                "aria-invalid": "true",
                "aria-describedby": PRIZE_ROWS_ERROR,
            }
        self.error_anchors = {**self.error_anchors, NON_FIELD_ERRORS: self[percents[0]].auto_id}


class PrizesForm(PrizeSharesForm):
    """The group's prizes and shares, and its prize settings (docs/rules.md 7.4 to 7.8)."""

    # A setting left out of a submitted form stays as it is.
    prize_rounding = forms.ChoiceField(
        choices=PRIZE_ROUNDING_CHOICES,
        required=False,
        label="A percent share is rounded down to",
        widget=forms.RadioSelect,
    )
    prize_leftover = forms.ChoiceField(
        choices=PRIZE_LEFTOVER_CHOICES,
        required=False,
        label="The money left over by rounding and splitting goes",
        widget=forms.RadioSelect,
    )
    prize_ties = forms.ChoiceField(
        choices=PRIZE_TIES_CHOICES,
        required=False,
        label="When players tie for a prize",
        widget=forms.RadioSelect,
    )
    substitute_prizes = forms.ChoiceField(
        choices=SUBSTITUTE_PRIZE_CHOICES,
        required=False,
        label="Substitutes",
        widget=forms.RadioSelect,
    )
    fewest_wins_min_rounds = forms.IntegerField(
        min_value=0,
        max_value=prize_rules.MAX_MIN_ROUNDS,
        required=False,
        label="Rounds a player needs to be in line for fewest wins",
        help_text="0 counts everyone, however many rounds they played.",
        error_messages={
            "min_value": f"Rounds go from 0 (everyone) to {prize_rules.MAX_MIN_ROUNDS}.",
            "max_value": f"Rounds go from 0 (everyone) to {prize_rules.MAX_MIN_ROUNDS}.",
        },
    )

    def __init__(self, *args, prizes: list[Prize], rules: Rules, **kwargs):
        self.rules = rules
        self.current = {knob: getattr(rules, knob) for knob in PRIZE_KNOBS}
        kwargs.setdefault("initial", dict(self.current))
        super().__init__(*args, prizes=prizes, **kwargs)

    def prize_choices(self, prizes: list[Prize]) -> list[PrizeChoice]:
        return prize_choices(self.rules, prizes)

    def settings(self) -> dict:
        """The prize knobs of the rules, as ``rules_update`` takes them."""
        return {
            knob: self.current[knob] if self.cleaned_data.get(knob) in ("", None) else value
            for knob in PRIZE_KNOBS
            for value in [self.cleaned_data.get(knob)]
        }
