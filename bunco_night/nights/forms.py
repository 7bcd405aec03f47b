"""Forms for planning a night. Forms parse what was typed; the services decide."""

from __future__ import annotations

from django import forms

from bunco_night.core.forms import NumberOrField, PassedOnField
from bunco_night.groups.forms import EMAIL_MAX_LENGTH, HostForm
from bunco_night.groups.models import Group, Player
from bunco_night.rules.presets import Rules

from .models import Attendance

SEED_MAX = 2**31 - 1
# A row id the database can hold (BigAutoField).
ID_MAX = 2**63 - 1
# Nights are planned within these years, far from the calendar's end.
FIRST_YEAR, LAST_YEAR = 1900, 2999


class NightForm(HostForm):
    """When and where a night is, and how many sets it has."""

    date = forms.DateField(
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        error_messages={
            "required": "Choose the night's date.",
            "invalid": "Enter a real date, like 2027-03-14.",
        },
    )

    def clean_date(self):
        date = self.cleaned_data["date"]
        if not FIRST_YEAR <= date.year <= LAST_YEAR:
            raise forms.ValidationError(
                f"Choose a date between {FIRST_YEAR} and {LAST_YEAR}.", code="date_range"
            )
        return date

    time = forms.TimeField(
        required=False,
        # A time picker's "19:30", or typed "7:30 PM", "7pm".
        input_formats=["%H:%M", "%H:%M:%S", "%I:%M %p", "%I:%M%p", "%I %p", "%I%p"],
        widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
        label="Time",
        error_messages={"invalid": "Enter a time like 7:00 PM."},
    )
    place = forms.CharField(
        max_length=120, required=False, label="Place", help_text="Whose home, or the address."
    )
    sets = forms.IntegerField(
        min_value=1,
        max_value=12,
        label="Sets",
        error_messages={
            "min_value": "A night has 1 to 12 sets.",
            "max_value": "A night has 1 to 12 sets.",
        },
    )

    def __init__(self, *args, rules: Rules | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        if rules is not None:
            per_set = rules.rounds_per_set
            # (Read the value without making the bound field, which copies the help text.)
            typed = (self.data if self.is_bound else self.initial).get("sets")
            sets = int(typed) if str(typed) in [str(n) for n in range(1, 13)] else 4
            total = f"{sets} set{'s' if sets != 1 else ''} = {rules.rounds_for(sets)} rounds"
            what = "games" if rules.is_card_game else "rounds, one for each number rolled for"
            self.fields["sets"].help_text = f"A set is {per_set} {what}: {total}."


class AttendanceForm(HostForm):
    """A regular comes, sends a substitute, or sends nobody."""

    status = forms.ChoiceField(
        choices=[
            (Attendance.Status.COMING, "Coming"),
            (Attendance.Status.SENT_SUB, "Sends a substitute"),
            (Attendance.Status.ABSENT, "Not coming"),
        ],
        error_messages={
            "required": "Choose coming, sends a substitute, or not coming.",
            "invalid_choice": "Choose coming, sends a substitute, or not coming.",
        },
    )
    substitute = forms.ModelChoiceField(
        queryset=Player.objects.none(),
        required=False,
        error_messages={"invalid_choice": "Pick a substitute from the list."},
    )

    def __init__(self, *args, group: Group, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["substitute"].queryset = group.players.all()


class NewSubstituteForm(HostForm):
    """A substitute who is not on the roster yet, added on the spot."""

    name = forms.CharField(
        max_length=80, error_messages={"required": "Give the new substitute's name."}
    )
    phone = forms.CharField(max_length=40, required=False)
    email = forms.EmailField(max_length=EMAIL_MAX_LENGTH, required=False)


class GuestForm(HostForm):
    """Someone who is not on tonight's list arrives: from the roster, or someone new."""

    player = forms.ModelChoiceField(
        queryset=Player.objects.none(),
        required=False,
        error_messages={"invalid_choice": "Choose someone from the roster."},
    )
    name = forms.CharField(
        required=False,
        max_length=80,
        label="Or someone new",
        error_messages={"max_length": "A name has at most 80 characters."},
    )

    def __init__(self, *args, group: Group, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["player"].queryset = group.players.all()

    def clean(self):
        cleaned = super().clean()
        player, name = cleaned.get("player"), (cleaned.get("name") or "").strip()
        if self.errors:
            return cleaned
        if player is None and not name:
            raise forms.ValidationError("Choose who arrived, or type a new name.")
        if player is not None and name:
            raise forms.ValidationError(
                "Choose someone from the roster or type a new name, not both."
            )
        cleaned["name"] = name
        return cleaned


class DrawForm(HostForm):
    """An optional seed, so a seating can be drawn again exactly."""

    seed = forms.IntegerField(
        required=False,
        min_value=0,
        max_value=SEED_MAX,
        error_messages={
            "invalid": "The seed is a whole number, or leave it empty.",
            "min_value": "The seed is a whole number from 0 up.",
            "max_value": f"The seed is at most {SEED_MAX}.",
        },
    )


class SwapForm(HostForm):
    """Two seats of the next round to swap."""

    seat_a = forms.IntegerField(
        min_value=1, max_value=ID_MAX, error_messages={"required": "Tap the first seat."}
    )
    seat_b = forms.IntegerField(
        min_value=1, max_value=ID_MAX, error_messages={"required": "Tap the seat to swap it with."}
    )


class AskedForm(HostForm):
    """What a host's post carries besides its form's fields: the yes (``confirmed``,
    ``confirmed_date``), nonce, ``last_seen``, ``money_ok`` and ``attendance``. A bad
    value reads as not sent."""

    confirmed = forms.CharField(required=False, max_length=10)
    confirmed_date = forms.CharField(required=False, max_length=20)
    nonce = PassedOnField()
    last_seen = NumberOrField(default=None, signed=False)
    money_ok = PassedOnField()
    attendance = NumberOrField(default=None, signed=False)

    def get(self, name: str):
        """The field's value as parsed, or what it is when not sent."""
        self.is_valid()
        value = self.cleaned_data.get(name)
        if value is None or value == "":
            return None if name in ("nonce", "last_seen", "attendance") else ""
        return value

    @property
    def said_yes(self) -> bool:
        return self.get("confirmed") == "1"
