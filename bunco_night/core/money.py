"""Money as people type it and read it: dollars on the page, whole cents in the database."""

import re

from django.core.exceptions import ValidationError

# "5", "$5", ".50", "1,000.50"; ASCII digits only ("²" is a \d).
AMOUNT = re.compile(r"(?P<whole>\d{1,3}(?:,\d{3})+|\d*)(?:\.(?P<cents>\d*))?", re.ASCII)
MAX_CENTS = 10_000_00


def parse_money(text: str) -> int:
    """Cents from what a host typed in dollars; a clear ``ValidationError`` otherwise."""
    raw = "".join(str(text or "").split())
    if not raw:
        raise ValidationError("Enter an amount in dollars, like 5.00.", code="required")
    if raw.lstrip("$").startswith("-"):
        raise ValidationError("An amount cannot be negative.", code="negative")
    match = AMOUNT.fullmatch(raw.removeprefix("$"))
    if match is None or not (match["whole"] or match["cents"]):
        raise ValidationError("Enter an amount in dollars, like 5 or 5.00.", code="invalid")
    cents = match["cents"] or ""
    whole = match["whole"].replace(",", "").lstrip("0")
    if len(whole) > len(str(MAX_CENTS // 100)):
        # Checked before int(): thousands of digits are refused, not converted.
        raise ValidationError("That is more than $10,000: check the amount.", code="too_large")
    if len(cents) > 2:
        raise ValidationError(
            "Use at most two decimals (dollars and cents), like 5.25.", code="too_precise"
        )
    total = int(whole or 0) * 100 + int(cents.ljust(2, "0"))
    if total > MAX_CENTS:
        raise ValidationError("That is more than $10,000: check the amount.", code="too_large")
    return total


def cents_text(cents: int | None) -> str:
    """500 as "5.00": the value a money input starts with."""
    if cents is None:
        return ""
    return f"{cents // 100}.{cents % 100:02d}"


def format_cents(cents: int | None) -> str:
    """500 as "$5.00", 150000 as "$1,500.00", -250 as "-$2.50"."""
    if cents is None or cents == "":
        return ""
    cents = int(cents)
    sign = "-" if cents < 0 else ""
    dollars, rest = divmod(abs(cents), 100)
    return f"{sign}${dollars:,}.{rest:02d}"
