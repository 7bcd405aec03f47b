"""Forms for players' answers, substitutes' replies and the host's invitations. Forms
parse what was typed; the services decide."""

from __future__ import annotations

from django import forms

from bunco_night.core.forms import HostForm, PassedOnField, PostForm
from bunco_night.groups.models import Group, Player

from .models import Answer, Notice, SubstituteCall
from .services import two_substitutes


class AnswerForm(HostForm):
    """A regular's answer for a night, from their own link."""

    choice = forms.ChoiceField(
        choices=Answer.Choice.choices,
        error_messages={
            "required": "Choose coming, not coming, or a substitute.",
            "invalid_choice": "Choose coming, not coming, or a substitute.",
        },
    )
    note = forms.CharField(
        max_length=300,
        required=False,
        label="A note for the host (optional)",
        widget=forms.Textarea(attrs={"rows": 2}),
        error_messages={"max_length": "Keep the note under 300 characters."},
    )
    substitute = forms.ModelChoiceField(
        queryset=Player.objects.none(),
        required=False,
        empty_label="Choose…",
        label="My substitute",
        error_messages={"invalid_choice": "Pick a substitute from the list."},
    )
    new_name = forms.CharField(max_length=80, required=False, label="Name")
    new_phone = forms.CharField(
        max_length=40, required=False, label="Phone", widget=forms.TextInput(attrs={"type": "tel"})
    )
    new_email = forms.EmailField(
        required=False,
        label="E-mail",
        error_messages={"invalid": "Enter an e-mail address like ann@example.com."},
    )

    def __init__(self, *args, group: Group, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["substitute"].queryset = group.players.filter(
            kind=Player.Kind.SUBSTITUTE, retired=False
        )

    def clean(self):
        data = super().clean()
        if data.get("choice") == Answer.Choice.ASK and self.names_someone:
            data["choice"] = Answer.Choice.SUBSTITUTE
        picked, named = data.get("substitute"), data.get("new_name", "").strip()
        if data.get("choice") == Answer.Choice.SUBSTITUTE and picked and named:
            self.add_error("new_name", two_substitutes(picked))
        return data

    @property
    def names_someone(self) -> bool:
        """A substitute was picked from the list or a new one named."""
        return bool(self.data.get("substitute") or self.data.get("new_name", "").strip())

    def kept(self) -> dict[str, str]:
        """What was sent, to show again after an error."""
        choice = self.data.get("choice", "")
        if choice == Answer.Choice.ASK and self.names_someone:
            choice = Answer.Choice.SUBSTITUTE
        kept = {name: self.data.get(name, "") for name in self.fields}
        kept["choice"] = choice
        kept["substitute_form"] = choice in (Answer.Choice.SUBSTITUTE, Answer.Choice.ASK)
        return kept


class OfferForm(HostForm):
    """A post to the old ``invites:offer_answer``: ``action`` names the answer."""

    action = forms.ChoiceField(choices=[("accept", "Accept"), ("decline", "Decline")])


class PanelPlaceForm(PostForm):
    """``embedded`` 1: the panel is on the night page; else a page of its own."""

    embedded = PassedOnField()

    def on_night_page(self) -> bool:
        return self.is_valid() and self.cleaned_data["embedded"] == "1"


class AskForm(HostForm):
    """How the host asks the substitutes for one seat."""

    mode = forms.ChoiceField(
        choices=SubstituteCall.Mode.choices,
        error_messages={"invalid_choice": "Choose all at once or one at a time."},
    )


SEND_KINDS = {
    Notice.Kind.INVITATION: "invitation",
    Notice.Kind.REMINDER: "reminder",
}


class AskModeForm(HostForm):
    """The group's usual way of asking substitutes (a regular's own request uses it)."""

    mode = forms.ChoiceField(
        choices=SubstituteCall.Mode.choices,
        widget=forms.RadioSelect,
        label="When a regular asks for a substitute from their link, ask the substitutes",
    )
