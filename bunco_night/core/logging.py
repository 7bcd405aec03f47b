"""Keep secret links out of the log (their token becomes "…"): ``redact`` serves the
``RedactSecrets`` filter and gunicorn's access log."""

from __future__ import annotations

import logging
import re

# /t/<token>/..., /p/<token>/..., /accounts/invite/<token>/, /accounts/reset/<uid>/<token>/
SECRET_PATHS = re.compile(
    r"(?P<keep>/(?:t|p|accounts/invite|accounts/reset/[^/\s?\"]+)/)(?P<secret>[^/\s?\"]+)"
)
HIDDEN = "…"


def redact(text: str) -> str:
    """``text`` with every secret link's token replaced by "…"."""
    if not text or "/" not in text:
        return text
    return SECRET_PATHS.sub(lambda m: m["keep"] + HIDDEN, text)


class RedactSecrets(logging.Filter):
    """A logging filter: the record's message with secret links redacted."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a malformed record is logged as it is
            return True
        cleaned = redact(message)
        if cleaned != message:
            record.msg, record.args = cleaned, ()
        return True
