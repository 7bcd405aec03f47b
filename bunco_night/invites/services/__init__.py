"""Answers, substitutes and messages (docs/rules.md section 8.8); every public name here."""

from .answers import answer_record, nights_to_answer, two_substitutes
from .invitations import invitation_words, invitations_send, own_rows, recipients
from .links import link_for, link_reset, links_for
from .sending import Outgoing, SendReport, send
from .substitutes import (
    already_on_the_list,
    call_ask_next,
    call_start,
    call_stop,
    calls_follow_host,
    candidates,
    offer_accept,
    offer_decline,
    on_tonights_list,
)

__all__ = [
    "Outgoing",
    "SendReport",
    "already_on_the_list",
    "answer_record",
    "call_ask_next",
    "call_start",
    "call_stop",
    "calls_follow_host",
    "candidates",
    "invitation_words",
    "invitations_send",
    "link_for",
    "link_reset",
    "links_for",
    "nights_to_answer",
    "offer_accept",
    "offer_decline",
    "on_tonights_list",
    "own_rows",
    "recipients",
    "send",
    "two_substitutes",
]
