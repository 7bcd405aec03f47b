"""gunicorn settings that `make run` (and any server started here) reads.

The access log never records the secret part of table, player, invitation and
password-reset links: every value a log line can show (the request line, the path,
the referrer of a phone's poll, a redirect's Location) goes through
``bunco_night.core.logging.redact``.
"""

from gunicorn.glogging import Logger

from bunco_night.core.logging import redact


class RedactingLogger(Logger):
    """gunicorn's logger with secret links redacted in the access log."""

    def atoms(self, resp, req, environ, request_time):
        atoms = super().atoms(resp, req, environ, request_time)
        return {k: redact(v) if isinstance(v, str) else v for k, v in atoms.items()}


logger_class = RedactingLogger
accesslog = "-"
