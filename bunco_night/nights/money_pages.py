"""The host's question before a change to a finished night's money (docs/rules.md 7.9)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from .money import MoneyChange

# Cash recorded on the next night pays the oldest dues instead (docs/rules.md 7.9, 8.6).
PAYMENT_HINT = (
    "To leave this night's prize money as it is, record the payment on the next night "
    "instead: cash pays the oldest dues first."
)


def resend_fields(request: HttpRequest) -> list[tuple[str, str]]:
    """The fields of the change asked about, to send it again with the host's yes."""
    skip = {"csrfmiddlewaretoken", "money_ok"}
    return [(k, v) for k, values in request.POST.lists() if k not in skip for v in values]


def money_change_context(
    request: HttpRequest, change: MoneyChange, *, back: str, what: str = "", hint: str = ""
) -> dict:
    """The context of ``nights/_money_change.html`` for ``change``."""
    return {
        "night": change.night,
        "change": change,
        "fields": resend_fields(request),
        "action": request.get_full_path(),
        "back": back,
        "what": what,
        "hint": hint,
    }


def money_change_page(
    request: HttpRequest, change: MoneyChange, *, back: str, what: str = "", hint: str = ""
) -> HttpResponse:
    """The question as a page of its own (a plain form's answer)."""
    context = money_change_context(request, change, back=back, what=what, hint=hint)
    return render(request, "nights/money_confirm.html", context)
