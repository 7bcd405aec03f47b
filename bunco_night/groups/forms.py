"""Forms for a group and its roster (rules: ``rules_forms``; prizes: ``prize_forms``)."""

from __future__ import annotations

from django import forms

from bunco_night.core.forms import HostForm, MoneyField, PassedOnField, PostForm
from bunco_night.rules.presets import PRESET_LABELS, PRESETS

from .models import Group, Player
from .roster_csv import MAX_BYTES, decode

# Django's form field takes 320 characters, the column 254 (RFC 5321's limit).
EMAIL_MAX_LENGTH = Player._meta.get_field("email").max_length

# The presets the pages play today (the engine knows more: see PRESETS).
PRESET_CHOICES = [(name, label) for name, label in PRESET_LABELS.items() if name in PRESETS]


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


class ConfirmForm(PostForm):
    """Whether the host said yes (``confirmed`` 1); anything else asks again."""

    confirmed = PassedOnField()

    def said_yes(self) -> bool:
        return self.is_valid() and self.cleaned_data["confirmed"] == "1"


class RetireForm(ConfirmForm):
    """Retire a player (any ``retired`` but 0) after a yes, or bring back (0)."""

    retired = PassedOnField()

    def retiring(self) -> bool:
        return not (self.is_valid() and self.cleaned_data["retired"] == "0")


class PresetForm(HostForm):
    """Start the rules again from a preset."""

    rules = forms.ChoiceField(choices=PRESET_CHOICES, label="Preset", widget=forms.RadioSelect)


class DuesForm(HostForm):
    """The dues each player owes per night."""

    dues = MoneyField(label="Dues per night, in dollars")


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


class RosterRowsForm(PostForm):
    """The previewed roster rows to import (``csv``, re-read; ``MAX_BYTES`` at most)."""

    csv = PassedOnField()

    def rows(self) -> str:
        return self.cleaned_data["csv"] if self.is_valid() else ""
