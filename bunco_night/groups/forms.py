"""Forms for the host's group pages. Forms parse what was typed; the services decide."""

from __future__ import annotations

import re
from dataclasses import dataclass

from django import forms
from django.utils.text import slugify

from bunco_night.core.forms import NO_NULL, HostForm, MoneyField
from bunco_night.core.money import cents_text, parse_money
from bunco_night.rules import presets
from bunco_night.rules import prizes as prize_rules
from bunco_night.rules.presets import (
    MAX_ROUND_MINUTES,
    PRESET_LABELS,
    PRESETS,
    GroupMark,
    Rules,
)
from bunco_night.rules.shares import ALL_PRIZE_LABELS, PRIZE_LABELS

from .models import Group, Player, Prize, mark_prize_title
from .roster_csv import MAX_BYTES, decode
from .services import PRIZE_KNOBS

# Django's form field takes 320 characters, the column 254 (RFC 5321's limit).
EMAIL_MAX_LENGTH = Player._meta.get_field("email").max_length

# The presets the pages play today (the engine knows more: see PRESETS).
PRESET_CHOICES = [(name, label) for name, label in PRESET_LABELS.items() if name in PRESETS]

ROUND_END_CHOICES = [
    (presets.HEAD_TABLE, "The head table rings the bell for everyone"),
    (presets.EVERY_TABLE, "Every table plays to its target"),
    (presets.ANY_TABLE, "The first side anywhere to reach its target stops every table"),
]
DICE_CHOICES = [(3, "Three dice"), (2, "Two dice (two-dice bunko)")]
TIE_BREAK_CHOICES = [
    (presets.EXTRA_TURN, "Each player takes one more turn"),
    (presets.ROLL_OFF, "Roll-off: first to 5 points"),
]
MOVEMENT_CHOICES = [
    (presets.DELUXE_MOVEMENT, "Deluxe: losers move to the next table"),
    (presets.LADDER_MOVEMENT, "Ladder: winners move up, head-table losers go to the bottom"),
    (presets.CARD_MOVEMENT, "Card party: table winners move on"),
]
FILL_CHOICES = [
    (presets.FILL_TABLES, "Smaller tables of 2 or 3"),
    (presets.FILL_GHOSTS, "Ghosts fill the empty seats"),
]

# A rules error names a knob, not a form field: point the message at the field it is about.
RULE_ERROR_FIELDS = {
    "negative_points": "bunco_points",
    "bad_target": "target_teams",
    "bad_round_end": "round_end",
    "bad_tie_break": "tie_break",
    "bad_movement": "movement",
    "bad_fill": "fill",
    "ladder_needs_ghosts": "fill",
    "head_partners_need_ladder": "head_partners_stay",
    "bad_marks": "marks",
    "bad_sets": "sets_per_night",
    "duplicate_mark": "group_marks",
    "bad_mark": "group_marks",
    "bad_dice": "dice",
    "bad_round_minutes": "round_minutes",
    "bad_buck_dice": "round_minutes",
    "bad_prize_rounding": "prize_rounding",
    "bad_prize_leftover": "prize_leftover",
    "bad_prize_ties": "prize_ties",
    "bad_substitute_prizes": "substitute_prizes",
    "bad_min_rounds": "fewest_wins_min_rounds",
}
# The prize settings (docs/rules.md sections 7.6 to 7.8) are knobs of the rules, set with
# the prizes.
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


class GroupForm(HostForm):
    """A new group: its name, the preset its rules start from, and its dues."""

    name = forms.CharField(
        max_length=100, error_messages={"required": "Give the group a name."}, label="Group name"
    )
    rules = forms.ChoiceField(
        choices=PRESET_CHOICES,
        initial="house",
        label="Rules to start from",
        widget=forms.RadioSelect,
    )
    dues = MoneyField(initial=500, label="Dues per night, in dollars")


class PlayerForm(HostForm):
    """A roster entry: a regular or a substitute and how to reach them."""

    name = forms.CharField(max_length=80, error_messages={"required": "A player needs a name."})
    kind = forms.ChoiceField(
        choices=Player.Kind.choices,
        initial=Player.Kind.REGULAR,
        widget=forms.RadioSelect,
        label="Plays as",
    )
    phone = forms.CharField(
        max_length=40, required=False, widget=forms.TextInput(attrs={"type": "tel"})
    )
    email = forms.EmailField(
        max_length=EMAIL_MAX_LENGTH,
        required=False,
        label="E-mail",
        error_messages={"invalid": "Enter an e-mail address like ann@example.com."},
    )
    notes = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}))
    usual_substitute = forms.ModelChoiceField(
        queryset=Player.objects.none(),
        required=False,
        empty_label="Nobody in particular",
        label="Usual substitute",
        help_text="For a regular: who they usually send when they cannot come.",
    )

    def __init__(self, *args, group: Group, player: Player | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        subs = group.players.filter(kind=Player.Kind.SUBSTITUTE, retired=False)
        if player is not None:
            subs = subs.exclude(pk=player.pk)
            if player.usual_substitute_id:
                subs = subs | group.players.filter(pk=player.usual_substitute_id)
        self.fields["usual_substitute"].queryset = subs.order_by("name")

    @classmethod
    def initial_for(cls, player: Player) -> dict:
        """The form's starting values for an existing player."""
        return {
            "name": player.name,
            "kind": player.kind,
            "phone": player.phone,
            "email": player.email,
            "notes": player.notes,
            "usual_substitute": player.usual_substitute_id,
        }


class PresetForm(HostForm):
    """Start the rules again from a preset."""

    rules = forms.ChoiceField(choices=PRESET_CHOICES, label="Preset", widget=forms.RadioSelect)


class DuesForm(HostForm):
    """The dues each player owes per night."""

    dues = MoneyField(label="Dues per night, in dollars")


# Bounds the rules, the database's integer columns and int() can all hold.
MAX_POINTS = 1000
DIE_FACES = {"1", "2", "3", "4", "5", "6"}
# A group mark's points: an optional sign and at most four ASCII digits.
MARK_POINTS = re.compile(r"[+-]?[0-9]{1,4}")
# A prize's percent: at most three ASCII digits, an optional "%".
PERCENT_TEXT = re.compile(r"[0-9]{1,3}\s*%?")


POINTS_ERRORS = {
    "required": "Give the points: 0 for none.",
    "min_value": "Points cannot be below 0.",
    "max_value": f"Points cannot be more than {MAX_POINTS}.",
}
TARGET_ERRORS = {
    "required": "Give the target, like 21.",
    "min_value": "A target is at least 1.",
    "max_value": "A target is at most 1000.",
}


def _points(label: str, help_text: str = "") -> forms.IntegerField:
    return forms.IntegerField(
        min_value=0,
        max_value=MAX_POINTS,
        label=label,
        help_text=help_text,
        error_messages=POINTS_ERRORS,
    )


def _target(label: str) -> forms.IntegerField:
    return forms.IntegerField(
        min_value=1, max_value=1000, label=label, error_messages=TARGET_ERRORS
    )


MARK_BLANK_ROWS = 2  # empty rows under a group's marks, to add new ones
MARK_ROWS_MAX = 40  # rows read from a post: more is not a form the page drew
MARK_LABEL_MAX_LENGTH = 40
MAX_MARK_POINTS = 100  # as the rules engine allows (docs/rules.md section 2.4)
MARK_EFFECT_CHOICES = [
    (presets.NO_EFFECT, "Adds its points"),
    (presets.RESET_ROUND_SCORE, "Wipes out the team's round score"),
]


class MarkRows(forms.HiddenInput):
    """Reads the house-mark rows the rules page draws (``RulesForm.mark_rows``): for row
    i, ``<name>-i-label``, ``-points``, ``-effect``, and the hidden ``-code`` of a mark
    that already exists (its tallies are kept under that code when it is renamed)."""

    def value_from_datadict(self, data, files, name):
        rows = []
        for i in range(MARK_ROWS_MAX):
            prefix = f"{name}-{i}-"
            keys = ("code", "label", "points", "effect")
            if not any(prefix + k in data for k in keys):
                continue
            rows.append({k: str(data.get(prefix + k, "")) for k in keys})
        return rows


def mark_code(label: str, n: int) -> str:
    """A new mark's code, from its name: "Monte Carlo" is ``monte_carlo``."""
    code = slugify(label).replace("-", "_")[: presets.MARK_CODE_MAX_LENGTH]
    return code or f"mark_{n}"


class RulesForm(HostForm):
    """The important knobs of ``Rules``; the engine checks the combination."""

    bunco_points = _points("Points for a bunco", "Three of the round's number.")
    split_low_high = forms.BooleanField(
        required=False, label="Split other three-of-a-kinds into low and high buncos"
    )
    mini_points = _points("Points for a mini bunco", "Three of a kind of another number.")
    low_points = _points("Low bunco points", "Three of a kind below the round's number.")
    high_points = _points("High bunco points", "Three of a kind above the round's number.")
    dice = forms.TypedChoiceField(
        choices=DICE_CHOICES, coerce=int, label="Dice in a roll", widget=forms.RadioSelect
    )
    mark_die_points = _points(
        "Two dice: points for one die showing the number", "Two-dice bunko only."
    )
    mark_pair_points = _points(
        "Two dice: points for both dice showing the number", "Two-dice bunko only."
    )
    target_teams = _target("Target for teams (tables of 4)")
    target_individuals = _target("Target for individuals at small tables")
    target_one_table = _target("Target when there is only one table")
    quick_game = forms.BooleanField(required=False, label="Quick game: every table plays to 11")
    round_end = forms.ChoiceField(
        choices=ROUND_END_CHOICES, label="A round ends when", widget=forms.RadioSelect
    )
    bunco_ends_round = forms.BooleanField(
        required=False, label="A bunco ends the round at every table"
    )
    everyone_rolls_once = forms.BooleanField(
        required=False, label="Everyone rolls at least once each round"
    )
    tie_break = forms.ChoiceField(
        choices=TIE_BREAK_CHOICES, label="A tie at a table is broken by", widget=forms.RadioSelect
    )
    round_minutes = forms.IntegerField(
        min_value=0,
        max_value=MAX_ROUND_MINUTES,
        label="Minutes per round",
        help_text=(
            f"0 for no clock, up to {MAX_ROUND_MINUTES}. When the time is up the bell rings "
            "and each table's leader wins."
        ),
        error_messages={
            "min_value": f"Minutes go from 0 (no clock) to {MAX_ROUND_MINUTES}.",
            "max_value": f"Minutes go from 0 (no clock) to {MAX_ROUND_MINUTES}.",
        },
    )
    marks = forms.CharField(
        label="Round numbers in a set",
        help_text="Die faces separated by commas: 1,2,3,4,5,6 or 2,3,4,5,6.",
        error_messages={"required": "List the numbers rolled for, like 1,2,3,4,5,6."},
    )
    draw_mark_with_die = forms.BooleanField(
        required=False, label="Roll a die for each round's number instead"
    )
    sets_per_night = forms.IntegerField(
        min_value=1,
        max_value=12,
        label="Sets per night",
        error_messages={
            "min_value": "A night has 1 to 12 sets.",
            "max_value": "A night has 1 to 12 sets.",
        },
    )
    movement = forms.ChoiceField(
        choices=MOVEMENT_CHOICES, label="After a round", widget=forms.RadioSelect
    )
    fill = forms.ChoiceField(
        choices=FILL_CHOICES,
        label="When the players do not fill tables of four",
        widget=forms.RadioSelect,
    )
    head_partners_stay = forms.BooleanField(
        required=False,
        label="Winning partners at the head table stay together until they lose",
        help_text="Only with ladder movement.",
    )
    group_marks = forms.Field(
        required=False,
        widget=MarkRows,  # drawn as rows by the page: see ``mark_rows``
        label="Your group's own marks",
        help_text="A row a mark. Clear a mark's name to remove it.",
    )

    buck_target = forms.IntegerField(
        min_value=1,
        max_value=100,
        label="Buck Dice: the exact score that takes a player out",
        help_text="Buck Dice only (15 in the book).",
        error_messages={
            "min_value": "The score that takes a player out is from 1 to 100.",
            "max_value": "The score that takes a player out is from 1 to 100.",
        },
    )
    little_buck_points = _points(
        "Buck Dice: points for a Little Buck", "Three of a kind of another number."
    )

    KNOBS = (
        "bunco_points",
        "split_low_high",
        "mini_points",
        "low_points",
        "high_points",
        "dice",
        "mark_die_points",
        "mark_pair_points",
        "target_teams",
        "target_individuals",
        "target_one_table",
        "quick_game",
        "round_end",
        "bunco_ends_round",
        "everyone_rolls_once",
        "tie_break",
        "round_minutes",
        "marks",
        "draw_mark_with_die",
        "sets_per_night",
        "movement",
        "fill",
        "head_partners_stay",
        "group_marks",
        "buck_target",
        "little_buck_points",
    )

    @classmethod
    def initial_for(cls, rules: Rules) -> dict:
        """The form's starting values: the group's rules as they are."""
        initial = {knob: getattr(rules, knob) for knob in cls.KNOBS}
        initial["marks"] = ",".join(str(m) for m in rules.marks)
        initial["group_marks"] = [
            {"code": m.code, "label": m.label, "points": str(m.points), "effect": m.effect}
            for m in rules.group_marks
        ]
        return initial

    def clean_marks(self) -> tuple[int, ...]:
        text = self.cleaned_data["marks"]
        parts = [p for p in text.replace(" ", ",").split(",") if p]
        # "1" to "6" exactly: str.isdigit() also accepts "²", which int() refuses.
        if not parts or not all(p in DIE_FACES for p in parts):
            raise forms.ValidationError(
                "Round numbers are die faces 1 to 6 separated by commas, like 1,2,3,4,5,6."
            )
        return tuple(int(p) for p in parts)

    mark_effects = MARK_EFFECT_CHOICES

    @property
    def mark_rows(self) -> list[dict]:
        """The house marks as the page shows them, a row each, with blank rows to add more:
        what was typed when the form comes back with errors, else the group's marks."""
        rows = [r for r in self["group_marks"].value() or () if any(r.values())]
        rows += [{"code": "", "label": "", "points": "", "effect": ""}] * MARK_BLANK_ROWS
        name = self.add_prefix("group_marks")
        return [{**row, "prefix": f"{name}-{i}-", "n": i + 1} for i, row in enumerate(rows)]

    def clean_group_marks(self) -> tuple[GroupMark, ...]:
        marks = []
        for n, row in enumerate(self.cleaned_data["group_marks"] or (), start=1):
            code, label, points, effect = (
                row[k].strip() for k in ("code", "label", "points", "effect")
            )
            if any("\x00" in v for v in (code, label, points, effect)):
                raise forms.ValidationError(NO_NULL)
            if not label:
                if points and not code:
                    raise forms.ValidationError(f"Row {n}: give the mark a name.")
                continue  # a blank row, or a mark whose name was cleared: removed
            if len(label) > MARK_LABEL_MAX_LENGTH:
                raise forms.ValidationError(
                    f"Row {n}: a mark's name is at most {MARK_LABEL_MAX_LENGTH} characters."
                )
            code = code or mark_code(label, n)
            if len(code) > presets.MARK_CODE_MAX_LENGTH:
                raise forms.ValidationError(
                    f"Row {n}: a mark's code is at most {presets.MARK_CODE_MAX_LENGTH} characters."
                )
            if not MARK_POINTS.fullmatch(points or "0") or abs(int(points or 0)) > MAX_MARK_POINTS:
                raise forms.ValidationError(
                    f"Row {n}: points must be a whole number from -{MAX_MARK_POINTS} to "
                    f"{MAX_MARK_POINTS}, like 0 or -5."
                )
            value = int(points or 0)
            effect = effect or presets.NO_EFFECT
            if effect not in presets.MARK_EFFECTS:
                raise forms.ValidationError(f"Row {n}: choose what the mark does.")
            if code in {m.code for m in marks}:
                raise forms.ValidationError(f"Two marks are called {label!r}: rename one.")
            marks.append(GroupMark(code=code, label=label, points=value, effect=effect))
        return tuple(marks)

    def changes(self) -> dict:
        """The knobs to hand to ``rules_update``."""
        return {knob: self.cleaned_data[knob] for knob in self.KNOBS}


def _knob_text(field: forms.Field, value) -> str:
    """A knob's value as the rules form shows it."""
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(field, forms.ChoiceField):
        return str(dict(field.choices).get(value, value))
    if isinstance(value, tuple):
        return ", ".join(getattr(v, "label", str(v)) for v in value) or "none"
    return str(value)


def rules_differences(current: Rules, new: Rules) -> list[str]:
    """What changes, knob by knob, when ``new`` replaces ``current``: "Label: old → new"."""
    changes = []
    for knob in RulesForm.KNOBS:
        old, value = getattr(current, knob), getattr(new, knob)
        if old != value:
            field = RulesForm.base_fields[knob]
            changes.append(f"{field.label}: {_knob_text(field, old)} → {_knob_text(field, value)}")
    return changes


PERCENT, DOLLARS = "percent", "dollars"


def prize_field(key: str) -> str:
    """A form field name for a prize's key: "most_wins" as it is; "most_mark:snake eyes"
    has a colon and a space, so anything but ASCII letters, digits and underscores is
    spelt out ("most_mark-3a-snake-20-eyes")."""
    return "".join(c if c.isascii() and (c.isalnum() or c == "_") else f"-{ord(c):x}-" for c in key)


@dataclass(frozen=True)
class PrizeChoice:
    """A prize the group can tick: its category, a group mark's code for "most of a group
    mark", and its name."""

    code: str
    mark: str
    title: str

    @property
    def key(self) -> str:
        return f"{self.code}:{self.mark}" if self.mark else self.code


def prize_choices(rules: Rules, prizes: list[Prize]) -> list[PrizeChoice]:
    """Every prize the group can give (docs/rules.md sections 7.2 and 7.5), its own first in
    its order: "most of a group mark" once for each of its marks, low and high buncos
    where its rules split them, and any prize it has even if its rules changed since."""
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
    """Which prizes are awarded, and each one's share of a pot (percent or dollars): the
    season's year-end prizes as it is, and the base of a night's prizes (``PrizesForm``)."""

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
            else:
                self.add_error(f"{name}_share", "Enter a whole percent from 0 to 100, like 25.")
        return cleaned


class PrizesForm(PrizeSharesForm):
    """Which prizes the group awards, each one's share of the pot (percent or dollars), and
    the prize settings: rounding, the money left over, ties, substitutes, and the rounds
    needed for fewest wins (docs/rules.md sections 7.4 to 7.8)."""

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


class RosterFileForm(HostForm):
    """A roster from a spreadsheet: a CSV file, or its text pasted in."""

    file = forms.FileField(
        required=False,
        label="CSV file",
        help_text="Save the spreadsheet as CSV: name, phone, e-mail, regular or substitute.",
    )
    text = forms.CharField(
        required=False,
        label="Or paste the rows",
        widget=forms.Textarea(
            attrs={"rows": 5, "placeholder": "Ann Baker,555-0101,ann@example.com,regular"}
        ),
    )

    def clean(self):
        cleaned = super().clean()
        upload, text = cleaned.get("file"), (cleaned.get("text") or "")
        if upload is not None:
            if upload.size > MAX_BYTES:
                raise forms.ValidationError(
                    f"The file is {upload.size // 1024} KB: a roster file is at most "
                    f"{MAX_BYTES // 1024} KB."
                )
            text = decode(upload.read())
        elif len(text.encode()) > MAX_BYTES:
            raise forms.ValidationError(f"That is more than {MAX_BYTES // 1024} KB of text.")
        if not text.strip():
            raise forms.ValidationError("Choose a CSV file, or paste the rows.")
        cleaned["csv"] = text
        return cleaned
