"""The rules form for a group's ``Rules`` and marks; ``rules_differences`` words a change."""

from __future__ import annotations

import re

from django import forms
from django.utils.text import slugify

from bunco_night.core.forms import NO_NULL, HostForm
from bunco_night.rules import presets
from bunco_night.rules.presets import MAX_ROUND_MINUTES, GroupMark, Rules

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

# Bounds the rules, the database's integer columns and int() can all hold.
MAX_POINTS = 1000
DIE_FACES = {"1", "2", "3", "4", "5", "6"}
# A group mark's points: an optional sign and at most four ASCII digits.
MARK_POINTS = re.compile(r"[+-]?[0-9]{1,4}")


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
    """Reads the mark rows ``<name>-i-label``, ``-points``, ``-effect`` and ``-code``."""

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


TIMES = {2: "twice", 3: "three times"}
MARKS_NOTE = "marks-note"  # the note's id on the rules page


def repeated_marks_note(marks: tuple[int, ...]) -> str:
    """What repeated round numbers mean, in words (docs/rules.md section 1), or ""."""
    rounds: dict[int, list[int]] = {}
    for n, face in enumerate(marks, start=1):
        rounds.setdefault(face, []).append(n)
    repeated = [
        f"{face}s {TIMES.get(len(ns), f'{len(ns)} times')} (rounds {and_list(ns)})"
        for face, ns in rounds.items()
        if len(ns) > 1
    ]
    if not repeated:
        return ""
    return f"A set rolls for {and_list(repeated)}. To roll each number once, list it once."


def and_list(items: list) -> str:
    """ "1", "1 and 2", "1, 2 and 3"."""
    words = [str(i) for i in items]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


class RulesForm(HostForm):
    """The important knobs of ``Rules``; the engine checks the combination."""

    error_anchors = {"group_marks": "marks-help"}  # its rows are drawn by the page

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
            "required": "Give the minutes: 0 for no clock.",
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
            "required": "Give the sets per night, 1 to 12.",
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
            "required": "Give the score, like 15.",
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

    # ``repeated_marks_note`` for the rules as shown (none when a die picks each mark).
    marks_note = ""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if not self.is_bound:
            marks = str(self.initial.get("marks", "")).split(",")
            faces = tuple(int(m) for m in marks if m in DIE_FACES)
            self._note_marks(faces, self.initial.get("draw_mark_with_die", False))

    def _note_marks(self, marks: tuple[int, ...], die: bool) -> None:
        self.marks_note = "" if die else repeated_marks_note(marks)
        if self.marks_note:  # the box is described by its help and the note
            described = f"{self['marks'].auto_id}_helptext {MARKS_NOTE}"
            self.fields["marks"].widget.attrs["aria-describedby"] = described

    def clean(self):
        cleaned = super().clean()
        if "marks" in cleaned:
            self._note_marks(cleaned["marks"], cleaned.get("draw_mark_with_die", False))
        return cleaned

    @property
    def mark_rows(self) -> list[dict]:
        """The mark rows to show (as typed, else saved), with blank rows to add more."""
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
