"""Errors the services raise for things a person asked that cannot be done."""

from django.http import Http404


class ServiceError(Exception):
    """A request the domain refuses, with a message for people and a stable code for tests."""

    def __init__(self, message: str, code: str, field: str | None = None):
        super().__init__(message)
        self.message = message
        self.code = code
        self.field = field

    def __repr__(self) -> str:
        return f"ServiceError({self.message!r}, code={self.code!r})"


class Gone(Http404):
    """What a request would change was deleted meanwhile: answered 404 Not Found."""
