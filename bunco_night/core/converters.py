"""Path converters for the site's addresses."""


class TokenConverter:
    """A secret link's token: only ``secrets.token_urlsafe``'s letters (a NUL is a 404)."""

    regex = "[A-Za-z0-9_-]+"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value
