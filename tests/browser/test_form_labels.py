"""Every label of the site's forms sits with its own field, at 360, 768, 1024, 1366 and
1920 px: on the field's row just before it, or above it in the same column, with no other
field, label, or another field's help between them. Fields that share a row must never put
one field's label beside another field's box (the rules page's Points once did at 1366 px:
"Points for a mini bunco" had no box beside it, its box sat under another field's help)."""

import datetime as dt

import pytest
from django.test import override_settings

from bunco_night.invites.services import link_for
from tests.browser.helpers import host_page
from tests.factories import make_night
from tests.seasons.helpers import season_of

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = [360, 768, 1024, 1366, 1920]

# Each label shown (not one hidden for screen readers only) with the box of the field it
# names, and what lies between them: returns what is wrong, in words.
MISPLACED = """() => {
  const shown = el => el.getClientRects().length > 0 && !el.closest('[hidden], details:not([open])')
    && el.getBoundingClientRect().width > 2;
  const controls = [...document.querySelectorAll(
    'main input:not([type=hidden]), main select, main textarea')].filter(shown);
  const labels = [...document.querySelectorAll('main label')].filter(shown);
  const name = el => el.textContent.trim().replace(/\\s+/g, ' ').slice(0, 50);
  const overlapsX = (a, b) => a.left < b.right - 1 && b.left < a.right - 1;
  const overlapsY = (a, b) => a.top < b.bottom - 1 && b.top < a.bottom - 1;
  const wrong = [];
  for (const label of labels) {
    const field = label.control;
    if (!field) { wrong.push(`"${name(label)}" names no field`); continue; }
    if (label.contains(field) || !shown(field)) continue;
    const l = label.getBoundingClientRect(), f = field.getBoundingClientRect();
    // Another field, another label, or another field's help or errors.
    const mine = (field.getAttribute('aria-describedby') || '').split(' ');
    const notes = [...document.querySelectorAll('main .helptext, main .errorlist')]
      .filter(n => shown(n) && !mine.includes(n.id) && !n.closest('.field')?.contains(field));
    const others = [
      ...controls.filter(c => c !== field), ...labels.filter(x => x !== label), ...notes,
    ].filter(o => !o.contains(field) && !label.contains(o) && !o.contains(label))
      .map(o => [o, o.getBoundingClientRect()]);
    let between;
    if (overlapsY(l, f) && l.right <= f.left + 1) {
      // The same row, the label first: nothing between them on that row.
      between = others.find(([o, r]) => overlapsY(r, l)
        && r.left >= l.right - 1 && r.right <= f.left + 1);
    } else if (l.bottom <= f.top + 1 && overlapsX(l, f)) {
      // Above, in the field's column: nothing between them in that column.
      between = others.find(([o, r]) => overlapsX(r, f)
        && r.top >= l.bottom - 1 && r.bottom <= f.top + 1);
    } else {
      wrong.push(`"${name(label)}" at (${Math.round(l.left)}, ${Math.round(l.top)}) is not beside `
        + `or above its field at (${Math.round(f.left)}, ${Math.round(f.top)})`);
      continue;
    }
    if (between) wrong.push(`"${name(between[0])}" sits between "${name(label)}" and its field`);
  }
  return wrong;
}"""


def form_pages(group, night, season, player, token) -> dict[str, str]:
    """Every page with a form a host or a player fills in, by name."""
    slug = group.slug
    return {
        "rules": f"/groups/{slug}/rules/",
        "new group": "/groups/",
        "roster": f"/groups/{slug}/roster/",
        "player": f"/groups/{slug}/roster/{player.pk}/",
        "roster import": f"/groups/{slug}/roster/import/",
        "plan a night": f"/nights/new/{slug}/",
        "edit a night": f"/nights/{night.pk}/edit/",
        "night": night.get_absolute_url(),
        "asking substitutes": f"/nights/{night.pk}/answers/",
        "bonanza": f"/nights/{night.pk}/bonanza/",
        "seasons": f"/seasons/group/{slug}/",
        "season": f"/seasons/{season.pk}/edit/",
        "season money": f"/seasons/{season.pk}/money/",
        "season rotation": f"/seasons/{season.pk}/rotation/",
        "account": "/accounts/",
        "password": "/accounts/password/",
        "hosts": f"/groups/{slug}/hosts/",
        "a player's own page": f"/me/{token}/",
    }


@override_settings(SIGNUP="open")
def test_every_label_sits_with_its_own_field_at_every_width(contexts, live_server, group):
    night = make_night(group, date=dt.date(2026, 12, 5))
    season = season_of(group)
    player = group.players.order_by("pk").first()
    page = host_page(contexts, live_server, night, path="/groups/")
    pages = form_pages(group, night, season, player, link_for(player).token)
    wrong = []
    for name, path in pages.items():
        page.goto(f"{live_server.url}{path}")
        assert page.locator("main label").count(), f"{name}: no label on {path}"
        for width in WIDTHS:
            page.set_viewport_size({"width": width, "height": 900})
            wrong += [f"{name} at {width} px: {w}" for w in page.evaluate(MISPLACED)]
    # Pages for someone logged out: signing up and a forgotten password.
    page.context.clear_cookies()
    for name, path in {
        "sign up": "/accounts/signup/",
        "log in": "/accounts/login/",
        "forgotten password": "/accounts/password-reset/",
    }.items():
        page.goto(f"{live_server.url}{path}")
        for width in WIDTHS:
            page.set_viewport_size({"width": width, "height": 900})
            wrong += [f"{name} at {width} px: {w}" for w in page.evaluate(MISPLACED)]
    assert not wrong, "\n".join(wrong)
