"""Path converters for the site's addresses."""


class TokenConverter:
    """A secret link's token: the letters ``secrets.token_urlsafe`` uses, and nothing else.

    A token with any other character (a NUL from ``%00``, which PostgreSQL cannot even
    compare) is no link of ours: the address is not found before any query is made.
    """

    regex = "[A-Za-z0-9_-]+"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value
