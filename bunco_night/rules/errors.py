"""Domain errors raised by the rules engine, each with a stable ``code``."""


class RuleError(ValueError):
    """A value the rules cannot accept: bad dice, an impossible layout, a bad knob."""

    def __init__(self, message: str, code: str):
        super().__init__(message)
        self.message = message
        self.code = code

    def __repr__(self) -> str:
        return f"RuleError({self.message!r}, code={self.code!r})"
