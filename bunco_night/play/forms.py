"""Forms for what is posted while a night is played: a table phone's taps and buttons,
the host's round controls, corrections and prize tie-breaks. Each parses one post; the
services decide. An invalid post is answered with the form's words (or the service's
refusal of a value no table has), never a 500."""

from __future__ import annotations

from django import forms

from bunco_night.core.forms import NumberOrField, PassedOnField, PostForm

# A row id the database can hold (BigAutoField).
ID_MAX = 2**63 - 1
# A table's number or a side's index: far more than any night has.
SMALL_MAX = 10_000


class MoneyOkForm(PostForm):
    """A host's change that may move a finished night's recorded money: ``money_ok`` is
    the token of the change the host saw and said yes to (``nights.money.money_settle``,
    docs/rules.md section 7.9), or empty."""

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
    """A tap (docs/rules.md section 2.3): its nonce, the seat that rolled, what it scored
    ("points:2", "bunco", "mark:<code>", "dice" with the faces ``d1``..``d3``), and the
    round its buttons were drawn for ("" when it names none; 0 when it names no round)."""

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
        """The faces a dice tap names, as many as were sent (the rules refuse a count the
        game does not roll); None for any other tap."""
        if self.tap_fields()["kind"] != "dice":
            return None
        return [self.cleaned_data[f"d{i}"] for i in (1, 2, 3) if f"d{i}" in self.data]


class EntryForm(PostForm):
    """An entry a button names (to undo or put back): 0 names none, which is refused."""

    entry = NumberOrField(default=0)


class DoneForm(PostForm):
    """A table's Done (``done`` 1, or not sent) or its taking back (any other ``done``).
    ``pass``: the passes of extra turns finished as the phone saw them, if it says."""

    done = PassedOnField()

    def clean_done(self) -> bool:
        return self.data.get("done", "1") == "1"


# "pass" is a Python keyword, so the field is added under its posted name here.
DoneForm.base_fields["pass"] = NumberOrField(default=None)


class SideForm(PostForm):
    """A side a button names (a tie-break's winner): -1 when it names none, refused."""

    side = NumberOrField(default=-1)


class CorrectionForm(MoneyOkForm, TapForm):
    """A host's correction at a table (``play:table_fix_undo`` and the others): a tap, an
    entry or a side says it. A side left empty clears the winner. ``action`` names the
    correction in a post to the Correct page's own address, from a page drawn before."""

    action = PassedOnField()
    entry = NumberOrField(default=0)
    side = PassedOnField()

    def side_value(self) -> int | None:
        side = self.parsed()["side"]
        return None if side == "" else NumberOrField(default=-1).clean(side)


class PrizeTiebreakForm(MoneyOkForm):
    """Who won a tied prize's or set's tie-break (``play:standings_tiebreak``): the
    prize's ``code``, and the ``player`` (empty clears it)."""

    code = PassedOnField()
    player = NumberOrField(default=None)


class ControlForm(PostForm):
    """A post to a former single address of several controls (the live board's round
    controls, the Correct page's corrections, the standings' door prize and tie-breaks):
    ``action`` names the control."""

    action = forms.CharField(required=False, max_length=20)

    def parsed_action(self) -> str:
        return self.cleaned_data["action"] if self.is_valid() else ""
