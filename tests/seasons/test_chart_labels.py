"""A bar chart's label never runs off the chart: a long name goes on more lines."""

from bunco_night.seasons.charts import LABEL_ROOM, Bar, bar_chart, label_lines, text_width


def test_a_short_name_is_one_line():
    assert label_lines("Regular 1") == ["Regular 1"]


def test_a_long_name_breaks_between_words_or_after_a_hyphen():
    lines = label_lines("Mary-Catherine Fitzgerald-Worthington")
    assert len(lines) == 2 and "".join(lines).replace("-", "- ").split() == [
        "Mary-",
        "Catherine",
        "Fitzgerald-",
        "Worthington",
    ]
    assert all(text_width(line) <= LABEL_ROOM for line in lines)


def test_a_word_longer_than_a_line_breaks_where_it_must():
    word = "Wolfeschlegelsteinhausenbergerdorffvoralternwarengewissenhaft"
    lines = label_lines(word)
    assert "".join(lines) == word and len(lines) > 1
    assert all(text_width(line) <= LABEL_ROOM for line in lines)


def height(svg) -> int:
    return int(str(svg).split('viewBox="0 0 360 ')[1].split('"')[0])


def test_the_chart_grows_a_line_for_each_line_of_a_name():
    one = bar_chart("c", "Wins", [Bar("Ann", (1,))], [("Wins", "#000")])
    two = bar_chart(
        "c", "Wins", [Bar("Mary-Catherine Fitzgerald-Worthington", (1,))], [("Wins", "#000")]
    )
    assert height(two) - height(one) == 19
    assert "<tspan" in str(two) and "Worthington</tspan>" in str(two)
