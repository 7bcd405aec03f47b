"""Short names for where room is short: a first name, unless it would not tell two people
apart."""


def first_names(names: list[str], among: list[str]) -> list[str]:
    """Each of ``names`` by its first word, or whole where another of ``among`` (everyone
    at the table) has the same first word."""
    firsts = [name.split()[0] if name.split() else name for name in among]

    def short(name: str) -> str:
        first = name.split()[0] if name.split() else name
        return first if firsts.count(first) <= 1 else name

    return [short(name) for name in names]
