"""The season's charts show every player's whole name, on a phone and on a laptop: a name
too long for a line goes on two ("Mary-Catherine Fitzgerald-Worthington" was cut off at
"...Worthingtor")."""

import datetime as dt

import pytest

from bunco_night.nights.services import night_create
from tests.browser.helpers import host_page
from tests.seasons.helpers import play_night, season_of

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = [(360, 740), (390, 844), (1366, 768), (1920, 1080)]
LONG = "Mary-Catherine Fitzgerald-Worthington"

# Each chart's texts that reach past the chart's edges, and its labels' text in order.
CHARTS = """() => [...document.querySelectorAll('svg.chart-svg')].map(svg => {
  const box = svg.getBoundingClientRect();
  const texts = [...svg.querySelectorAll('text')];
  return {
    id: svg.id,
    out: texts.filter(t => { const r = t.getBoundingClientRect();
                             return r.left < box.left - 0.5 || r.right > box.right + 0.5; })
              .map(t => t.textContent),
    text: texts.map(t => [...t.querySelectorAll('tspan')].length
                         ? [...t.querySelectorAll('tspan')].map(s => s.textContent).join(' ')
                         : t.textContent),
  };
})"""


def test_a_long_name_shows_whole_in_the_season_charts(contexts, live_server, group):
    season = season_of(group)
    mary = group.players.get(name="Regular 1")
    mary.name = LONG
    mary.save(update_fields=["name"])
    night = night_create(group=group, date=dt.date(2026, 3, 12))
    play_night(night, winners=[[LONG], [LONG]], buncos={0: [LONG]}, seed=1)
    page = host_page(contexts, live_server, night, path=season.get_absolute_url())
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        charts = page.evaluate(CHARTS)
        assert {c["id"] for c in charts} >= {"season-wins", "season-buncos"}
        for chart in charts:
            assert not chart["out"], f"{chart['id']} at {width} px: {chart['out']} cut off"
            if chart["id"].startswith("season-"):
                said = " ".join(chart["text"]).replace("- ", "-")
                assert LONG in said, f"{chart['id']}: {chart['text']}"
