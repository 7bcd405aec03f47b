"""First names where room is short, whole names where two people share one."""

from bunco_night.rules.names import first_names


def test_first_names_unless_two_at_the_table_share_one():
    table = ["Ann Marie Baxter", "Ann Lee", "Hattie Johnson", "Cher"]
    assert first_names(["Ann Lee", "Hattie Johnson", "Cher"], table) == [
        "Ann Lee",
        "Hattie",
        "Cher",
    ]
    assert first_names(["Hattie Johnson"], ["Hattie Johnson", "Bea Ok"]) == ["Hattie"]
