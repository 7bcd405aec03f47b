"""Forms parsing what is posted while a night is played; the services decide."""

from __future__ import annotations

from django import forms

from bunco_night.core.forms import NumberOrField, PassedOnField, PostForm

# A row id the database can hold (BigAutoField).
ID_MAX = 2**63 - 1
# A table's number or a side's index: far more than any night has.
SMALL_MAX = 10_000


class MoneyOkForm(PostForm):
    """``money_ok``: the token of the money change the host said yes to (docs/rules.md 7.9)."""

    money_ok = forms.CharField(
        required=False,
        max_length=200,
        error_messages={"max_length": "That confirmation is not one this site gave: try again."},
    )


class CardWinnerForm(MoneyOkForm):
    """The card party (docs/rules.md section 9.1): the table and the side that won it."""

    table = forms.IntegerField(
        min_value=1,
        max_value=SMALL_MAX,
        error_messages={
            "required": "Pick a table of the round being played.",
            "invalid": "Pick a table of the round being played.",
            "min_value": "Pick a table of the round being played.",
            "max_value": "Pick a table of the round being played.",
        },
    )
    side = forms.IntegerField(
        min_value=0,
        max_value=SMALL_MAX,
        error_messages={
            "required": "Pick the table's winner.",
            "invalid": "Pick the table's winner.",
            "min_value": "Pick the table's winner.",
            "max_value": "Pick the table's winner.",
        },
    )


class LateEntryForm(MoneyOkForm):
    """A late entry the host counts or discards (docs/rules.md section 2.3)."""

    entry = forms.IntegerField(
        min_value=1,
        max_value=ID_MAX,
        error_messages={
            "required": "Pick a late entry from the list.",
            "invalid": "Pick a late entry from the list.",
            "min_value": "Pick a late entry from the list.",
            "max_value": "Pick a late entry from the list.",
        },
    )


# The longest a tap is taken to have waited on a phone: half a day.
MAX_WAIT_MS = 12 * 3600 * 1000


class TapForm(PostForm):
    """A tap (docs/rules.md section 2.3): nonce, seat, what it scored ("points:2", "bunco",
    "mark:<code>", "dice" with ``d1``..``d3``) and the round its buttons were drawn for."""

    nonce = PassedOnField()
    seat = NumberOrField(default=0)
    tap = PassedOnField()
    round = PassedOnField()
    d1 = NumberOrField(default=0)
    d2 = NumberOrField(default=0)
    d3 = NumberOrField(default=0)
    waited = NumberOrField(default=0)  # ms the tap waited on the phone (offline, a retry)

    def clean_round(self) -> int | None:
        value = self.cleaned_data["round"]
        if value == "":
            return None
        return NumberOrField(default=0).clean(value)

    def tap_fields(self) -> dict:
        """What the tap says, as ``services.entry_record`` takes it (without the round)."""
        data = self.parsed()
        kind, _, arg = data["tap"].partition(":")
        return {
            "nonce": data["nonce"],
            "seat": data["seat"],
            "kind": kind,
            "count": NumberOrField(default=0).clean(arg) if kind == "points" else 0,
            "mark_code": arg if kind == "mark" else "",
            "waited_ms": min(max(data["waited"], 0), MAX_WAIT_MS),
        }

    def dice(self) -> list[int] | None:
        """The faces a dice tap names, as sent; None for any other tap."""
        if self.tap_fields()["kind"] != "dice":
            return None
        return [self.cleaned_data[f"d{i}"] for i in (1, 2, 3) if f"d{i}" in self.data]


class EntryForm(PostForm):
    """An entry a button names (to undo or put back): 0 names none, which is refused."""

    entry = NumberOrField(default=0)


class DoneForm(PostForm):
    """A table's Done (``done`` 1 or not sent) or its undo; ``pass``: passes the phone saw."""

    done = PassedOnField()

    def clean_done(self) -> bool:
        return self.data.get("done", "1") == "1"


# "pass" is a Python keyword, so the field is added under its posted name here.
DoneForm.base_fields["pass"] = NumberOrField(default=None)


class SideForm(PostForm):
    """A side a button names (a tie-break's winner): -1 when it names none, refused."""

    side = NumberOrField(default=-1)


class CorrectionForm(MoneyOkForm, TapForm):
    """A host's correction at a table: a tap, an entry or a side (empty clears the winner)."""

    action = PassedOnField()
    entry = NumberOrField(default=0)
    side = PassedOnField()

    def side_value(self) -> int | None:
        side = self.parsed()["side"]
        return None if side == "" else NumberOrField(default=-1).clean(side)


class PrizeTiebreakForm(MoneyOkForm):
    """A tie-break's winner: the prize's ``code`` and ``player`` (empty clears it)."""

    code = PassedOnField()
    player = NumberOrField(default=None)


class ControlForm(PostForm):
    """A post to an old shared controls address: ``action`` names the control."""

    action = forms.CharField(required=False, max_length=20)

    def parsed_action(self) -> str:
        return self.cleaned_data["action"] if self.is_valid() else ""
