"""Forms for what the host posts while a night is played: each parses one post of the
live board (a round-control button, a card party's winner, a late entry's decision);
the services decide. An invalid post is answered with the form's words, never a 500."""

from __future__ import annotations

from django import forms

from bunco_night.core.forms import HostForm

# A row id the database can hold (BigAutoField).
ID_MAX = 2**63 - 1
# A table's number or a side's index: far more than any night has.
SMALL_MAX = 10_000


class MoneyOkForm(HostForm):
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
