"""Forms parsing the Buck Dice and Bonanza phones' posts; the services decide."""

from __future__ import annotations

from django import forms

from bunco_night.core.forms import HostForm, NumberOrField, PostForm


class BuckOrderForm(PostForm):
    """The opening throws (docs/rules.md section 9.3): ``t_<player>`` totals; ``typed``."""

    TOTALS_ERROR = "Enter each total as a number from 3 to 18."

    def clean(self):
        totals, typed = {}, {}
        for name, value in self.data.items():
            player = NumberOrField().clean(name[2:]) if name.startswith("t_") else None
            if player is None:
                continue
            typed[player] = value.strip()[:8]
            totals[player] = NumberOrField().clean(value)
        self.typed = typed
        if any(total is None for total in totals.values()):
            raise forms.ValidationError(self.TOTALS_ERROR, code="bad_total")
        return {"totals": totals}


class BuckPointForm(PostForm):
    """The point number the last in the order threw (0: none, refused)."""

    point = NumberOrField(default=0)


class BuckThrowForm(PostForm):
    """One throw: what it scored ("points:2", "buck"...), or "dice" with ``d1``..``d3``."""

    nonce = forms.CharField(required=False, strip=False)
    tap = forms.CharField(required=False, strip=False)
    d1 = NumberOrField(default=0)
    d2 = NumberOrField(default=0)
    d3 = NumberOrField(default=0)

    def throw(self) -> dict:
        """The throw as ``services.buck_throw_record`` takes it."""
        data = self.parsed()
        kind, _, arg = data["tap"].partition(":")
        dice = (
            [data[f"d{i}"] for i in (1, 2, 3) if f"d{i}" in self.data] if kind == "dice" else None
        )
        count = NumberOrField(default=0).clean(arg)
        return {"nonce": data["nonce"], "kind": kind, "count": count, "dice": dice}


class BonanzaStepForm(PostForm):
    """One step of the Bonanza ledger (docs/rules.md section 9.4)."""

    nonce = forms.CharField(required=False, strip=False)
    player = NumberOrField(default=None)
    space = forms.CharField(required=False, max_length=40)
    chips = NumberOrField(default=0)


class BonanzaCallForm(BonanzaStepForm):
    """Bonanza called: ``player`` and the others' ``cards_<player>`` (empty: none)."""

    def cards(self, players) -> tuple[dict[int, int], dict[int, str]]:
        """Each other player's cards left (-1: not a number, refused), and what was typed."""
        cards, typed = {}, {}
        for p in players:
            value = str(self.data.get(f"cards_{p}", "")).strip()
            typed[int(p)] = value[:8]
            if int(p) == self.cleaned_data.get("player"):
                continue
            cards[int(p)] = NumberOrField(default=-1).clean(value or "0")
        return cards, typed


class BonanzaStepNameForm(PostForm):
    """A post to the old ``games:bonanza_step``: ``action`` names the step."""

    action = forms.CharField(required=False, max_length=40)

    def parsed_action(self) -> str:
        return self.cleaned_data["action"] if self.is_valid() else ""


class BonanzaForm(HostForm):
    """A new Bonanza table: who plays, in their seats' order, and their starting chips."""

    players = forms.TypedMultipleChoiceField(
        coerce=int,
        label="Who plays (2 to 9)",
        widget=forms.CheckboxSelectMultiple,
        error_messages={"required": "Pick the 2 to 9 players at the table."},
    )
    start_chips = forms.IntegerField(
        min_value=0,
        max_value=100_000,
        initial=0,
        label="Chips each player starts with",
        help_text="0 to count only what each player wins or pays.",
    )
    poker = forms.BooleanField(required=False, initial=True, label="The layout has the Poker space")

    def __init__(self, *args, choices, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["players"].choices = choices
