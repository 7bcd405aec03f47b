"""The two one-table games, Buck Dice and Bonanza, played from one phone in headless
Chromium (docs/rules.md sections 9.3 and 9.4)."""

import re

import pytest
from playwright.sync_api import expect

from bunco_night.games.models import BonanzaTable, BuckTable
from bunco_night.nights.models import Night
from bunco_night.play.standings import night_standings
from tests.factories import make_group, make_night

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}

# The elements that reach past the right edge, so a failure says what to fix.
WIDEST = """() => [...document.body.querySelectorAll('*')]
  .filter(e => e.getBoundingClientRect().right > innerWidth + 0.5)
  .slice(-3).map(e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '')
    + (typeof e.className === 'string' && e.className
       ? '.' + e.className.trim().split(/ +/).join('.') : '')
    + ' ' + Math.round(e.getBoundingClientRect().right) + ' px')"""


def a_phone(contexts, live_server, path, *, login=False):
    """A 360 x 740 touch phone at ``path``; logged in as the host if ``login``."""
    context = contexts(viewport=PHONE, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    if login:
        page.goto(f"{live_server.url}/accounts/login/")
        page.get_by_label("Username").fill("host")
        page.get_by_label("Password").fill("bunco")
        page.get_by_role("button", name="Log in").click()
        expect(page).not_to_have_url(re.compile(r"/accounts/login/"))
    page.goto(f"{live_server.url}{path}")
    return page


def check_fits(page, what):
    """The page is never wider than the phone, at 360 and at 320 px."""
    for width in (360, 320):
        page.set_viewport_size({"width": width, "height": PHONE["height"]})
        wide, screen = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
        assert wide <= screen, (
            f"{what}: {wide} px wide on a {screen} px phone: {page.evaluate(WIDEST)}"
        )
    page.set_viewport_size(PHONE)


def message(page):
    return page.locator(".messages li")


# ---------------------------------------------------------------------------
# Buck Dice (docs/rules.md section 9.3)


def latest(page):
    """The newest line of the table's "Last throws"."""
    return page.locator("ol.recent li").first


def buck_score(page, place):
    """The score of the ``place``-th player in the order of play (1 = first)."""
    return page.locator(f"[data-testid=buck-score-{place}]")


def buck_row(page, name):
    return page.locator(".buck-scores li").filter(
        has=page.locator(".who", has_text=re.compile(f"{re.escape(name)}$"))
    )


def throw(page, value, shows):
    """Tap what the throw scored; the page comes back with ``shows`` as the newest throw
    (every throw changes the newest line, so this also waits for the page)."""
    page.locator(f"#buck-taps button[value='{value}']").click()
    expect(latest(page)).to_have_text(shows)


def test_a_game_of_buck_dice_on_one_phone(contexts, live_server):
    """docs/rules.md section 9.3: the order of play by three dice (the level throw
    again), the point number thrown by the last in the order, a point for each die showing
    it and the thrower going again, a Little Buck of 5 that passes the dice, a Big Buck
    straight to 15, out at exactly 15 and a throw past it not counted, the last one left
    the loser; in the standings each player out has a win, the loser a loss, a Big Buck a
    bunco and a Little Buck a mini bunco. Typing slips in the totals get a message that
    says what to enter."""
    group = make_group(rules="buck_dice", regulars=4, substitutes=0, name="Buckers")
    night = make_night(group, sets=1)
    page = a_phone(contexts, live_server, night.get_absolute_url(), login=True)
    check_fits(page, "the night page")

    # The host opens the table from the night page; the table's own page comes up.
    page.get_by_role("button", name="Open the Buck Dice table").click()
    table = BuckTable.objects.get(night=night)
    expect(page).to_have_url(f"{live_server.url}/buck/{table.token}/")
    expect(page.locator(".table-no")).to_have_text("Buck Dice")
    page.get_by_role("button", name="Start game 1").click()

    # Who goes first: three dice each, highest first.
    expect(page.get_by_role("heading", name="Who goes first?")).to_be_visible()
    expect(page.locator(".buck-order input")).to_have_count(4)
    check_fits(page, "the order of play")
    # Typing slips first: a letter, then a total no three dice make. A message says what
    # to enter, and nothing is kept.
    totals = {"Regular 1": "1O", "Regular 2": "15", "Regular 3": "10", "Regular 4": "6"}
    for name, total in totals.items():
        page.get_by_label(name, exact=True).fill(total)
    page.get_by_role("button", name="Save the totals").click()
    expect(message(page)).to_have_text("Enter each total as a number from 3 to 18.")
    expect(page.locator(".buck-order input")).to_have_count(4)
    totals |= {"Regular 1": "10", "Regular 4": "19"}
    for name, total in totals.items():
        page.get_by_label(name, exact=True).fill(total)
    page.get_by_role("button", name="Save the totals").click()
    expect(message(page)).to_have_text("Three dice total 3 to 18.")
    expect(page.locator(".buck-order input")).to_have_count(4)
    expect(page.locator(".card")).not_to_contain_text("level")
    totals["Regular 4"] = "6"
    for name, total in totals.items():
        page.get_by_label(name, exact=True).fill(total)
    page.get_by_role("button", name="Save the totals").click()
    # Regular 1 and Regular 3 are level on 10: only they throw again.
    expect(page.locator(".card")).to_contain_text("These players are level")
    expect(page.locator(".buck-order input")).to_have_count(2)
    expect(page.get_by_label("Regular 2", exact=True)).to_have_count(0)
    page.get_by_label("Regular 1", exact=True).fill("8")
    page.get_by_label("Regular 3", exact=True).fill("12")
    page.get_by_role("button", name="Save the totals").click()

    # The lowest, Regular 4, throws the point number.
    expect(page.locator(".card")).to_contain_text("Regular 4 throws one die for the point number")
    expect(page.locator(".card")).to_contain_text(
        "Order of play: Regular 2, Regular 3, Regular 1, Regular 4."
    )
    check_fits(page, "the point number")
    page.get_by_role("button", name="Point number 4").click()
    expect(page.locator(".round-line .mark")).to_contain_text("Point number 4")
    expect(page.locator(".to-throw")).to_have_text("To throw: Regular 2")
    order = ["Regular 2", "Regular 3", "Regular 1", "Regular 4"]
    for place, name in enumerate(order, start=1):
        expect(page.locator(".buck-scores li").nth(place - 1)).to_contain_text(name)
        expect(buck_score(page, place)).to_have_text("0")
    check_fits(page, "a game in play")

    # Regular 2 scores a point for each 4 thrown, and throws again.
    throw(page, "points:2", "Regular 2: +2 → 2")
    expect(buck_score(page, 1)).to_have_text("2")
    expect(page.locator(".to-throw")).to_have_text("To throw: Regular 2")
    # A mis-tap, undone: the score goes back.
    throw(page, "points:1", "Regular 2: +1 → 3")
    expect(buck_score(page, 1)).to_have_text("3")
    page.get_by_role("button", name="Undo the last throw").click()
    expect(latest(page)).to_have_text("Regular 2: +2 → 2")
    expect(buck_score(page, 1)).to_have_text("2")
    # The three dice entered instead: 4, 4 and 1 are two 4s.
    page.get_by_text("Enter the dice instead").click()
    for die, face in enumerate([4, 4, 1], start=1):
        page.locator(f".die-row[aria-label='Die {die}'] label:has(input[value='{face}'])").click()
    check_fits(page, "the dice entry open")
    page.get_by_role("button", name="Score these dice").click()
    expect(latest(page)).to_have_text("Regular 2: +2 → 4")
    expect(buck_score(page, 1)).to_have_text("4")
    # A Big Buck: straight to 15, and out.
    throw(page, "bunco", "Regular 2: BIG BUCK: 15 · OUT!")
    expect(buck_score(page, 1)).to_have_text("15")
    expect(buck_row(page, "Regular 2")).to_contain_text("out 1st")
    expect(buck_row(page, "Regular 2")).to_have_class(re.compile(r"\bout\b"))
    expect(page.locator(".to-throw")).to_have_text("To throw: Regular 3")

    # A Little Buck is 5 and passes the dice; a miss passes them.
    throw(page, "mini", "Regular 3: Little Buck +5 → 5")
    expect(page.locator(".to-throw")).to_have_text("To throw: Regular 1")
    throw(page, "miss", "Regular 1: Miss")
    throw(page, "miss", "Regular 4: Miss")
    expect(page.locator(".to-throw")).to_have_text("To throw: Regular 3")  # out players skipped
    throw(page, "mini", "Regular 3: Little Buck +5 → 10")
    throw(page, "mini", "Regular 1: Little Buck +5 → 5")
    throw(page, "points:1", "Regular 4: +1 → 1")
    throw(page, "miss", "Regular 4: Miss")
    throw(page, "points:2", "Regular 3: +2 → 12")
    throw(page, "points:2", "Regular 3: +2 → 14")
    # Two more would be 16: "the throw is not counted and the dice are passed on".
    throw(page, "points:2", "Regular 3: 2 × 4: over 15, not counted")
    expect(buck_score(page, 2)).to_have_text("14")
    expect(page.locator(".to-throw")).to_have_text("To throw: Regular 1")
    throw(page, "bunco", "Regular 1: BIG BUCK: 15 · OUT!")
    throw(page, "miss", "Regular 4: Miss")
    throw(page, "points:1", "Regular 3: +1 → 15 · OUT!")

    # Regular 4 is the last one left: the loser.
    expect(page.locator(".bell-banner")).to_have_text(
        "Regular 4 is the last one left: the loser! Close the game when everyone agrees."
    )
    expect(page.locator("#buck-taps")).to_have_count(0)
    for name, score, where in [
        ("Regular 2", "15", "out 1st"),
        ("Regular 3", "15", "out 3rd"),
        ("Regular 1", "15", "out 2nd"),
        ("Regular 4", "1", "loser"),
    ]:
        expect(buck_row(page, name).locator(".buck-score")).to_have_text(score)
        expect(buck_row(page, name).locator(".buck-place")).to_have_text(where)
    check_fits(page, "the game over")
    page.get_by_role("button", name="Close game 1").click()
    expect(page.locator(".buck-games")).to_have_text("Game 1: Regular 4 lost")
    expect(page.get_by_text("That's the night!")).to_be_visible()
    check_fits(page, "the night over")
    assert Night.objects.get(pk=night.pk).is_over

    # The night's standings: a win for each player out, a loss for the loser.
    page.goto(f"{live_server.url}/nights/{night.pk}/standings/")
    grid = page.get_by_role("region", name="Standings", exact=True)
    expected = {  # wins, losses, buncos (Big Bucks), mini buncos (Little Bucks)
        "Regular 1": (1, 0, 1, 1),
        "Regular 2": (1, 0, 1, 0),
        "Regular 3": (1, 0, 0, 2),
        "Regular 4": (0, 1, 0, 0),
    }
    for name, (wins, losses, buncos, minis) in expected.items():
        cells = grid.locator("tbody tr").filter(has_text=name).locator("td")
        expect(cells.nth(1)).to_have_text(name)
        expect(cells.nth(2)).to_have_text(str(wins))
        expect(cells.nth(3)).to_have_text(str(losses))
        expect(cells.nth(4)).to_have_text(str(buncos))
        expect(cells.nth(5)).to_have_text(str(minis))
    check_fits(page, "the standings")
    result = night_standings(Night.objects.get(pk=night.pk))
    by_name = {p.name: (s.wins, s.losses, s.buncos, s.mini_buncos) for s, p in result.rows}
    assert by_name == expected


# ---------------------------------------------------------------------------
# Bonanza (docs/rules.md section 9.4)


def chips(page, player):
    return page.locator(f"[data-testid=chips-{player.pk}]")


def ledger_numbers(page):
    """Each player's chips held and won or paid, and the chips on the cloth, as shown."""
    rows = page.locator("table.ledger tbody tr")
    held = [int(t) for t in rows.locator("td:nth-of-type(1)").all_inner_texts()]
    net = [int(t) for t in rows.locator("td:nth-of-type(2)").all_inner_texts()]
    return held, net, int(page.get_by_test_id("on-cloth").inner_text())


def step_shown(page, line):
    """The ledger's newest step reads ``line`` (the page came back from the step)."""
    expect(page.locator("ol.recent li").first).to_have_text(line)


def call_bonanza(page, caller, cards):
    """``caller`` calls Bonanza with ``cards`` left in each other hand (player -> text)."""
    page.get_by_label("Called by").select_option(label=caller.name)
    for player, text in cards.items():
        page.locator(f"#cards-{player.pk}").fill(text)
    page.get_by_role("button", name="Bonanza: end the hand").click()


def take(page, space, player):
    page.get_by_label("Space", exact=True).select_option(value=space)
    page.get_by_label("Won by").select_option(label=player.name)
    page.get_by_role("button", name="Won", exact=True).click()


def test_a_bonanza_ledger_kept_on_one_phone(contexts, live_server):
    """docs/rules.md section 9.4: each hand a chip from everyone on each of the ten
    spaces, the widow's price paid to the dealer, more chips on Poker, a space's chips to
    whoever wins it, Bonanza's space and a chip a card left in each other hand to the
    caller, chips nobody won left on the cloth, the deal passing left, a step undone, and
    at the end of the night the chips left taken: the totals add up to zero. Typing slips
    get a message that says what to enter."""
    group = make_group(regulars=3, substitutes=0, name="Card Sharps")
    night = make_night(group, sets=1)
    r1, r2, r3 = group.players.order_by("name")

    # The host starts the ledger from the night page, with a typing slip first.
    host = a_phone(contexts, live_server, night.get_absolute_url(), login=True)
    host.locator("summary", has_text="More").click()  # a side game, with the night's pages
    host.get_by_role("link", name="Bonanza ledger").click()
    expect(host.get_by_role("heading", name="Start a Bonanza table")).to_be_visible()
    check_fits(host, "the new Bonanza table")
    for player in (r1, r2, r3):
        host.get_by_role("checkbox", name=player.name).check()
    host.get_by_label("Chips each player starts with").press_sequentially("3e")
    host.get_by_role("button", name="Start the ledger").click()
    expect(host.locator("#id_start_chips_error")).to_have_text("Enter a whole number, like 5.")
    assert not BonanzaTable.objects.exists()
    host.get_by_label("Chips each player starts with").fill("30")
    host.get_by_role("button", name="Start the ledger").click()
    expect(host.locator(".table-no")).to_have_text("Bonanza 1")
    table = BonanzaTable.objects.get(night=night)
    assert host.url == f"{live_server.url}/bonanza/{table.token}/"

    # One phone keeps the ledger from the table's link, without logging in.
    page = a_phone(contexts, live_server, f"/bonanza/{table.token}/")
    for player in (r1, r2, r3):
        expect(chips(page, player)).to_have_text("30")
    expect(page.get_by_test_id("on-cloth")).to_have_text("0")
    check_fits(page, "the ledger before the first hand")

    # Hand 1, dealt by Regular 1: a chip from everyone on each of the ten spaces.
    page.get_by_role("button", name="Deal hand 1").click()
    expect(page.locator(".round-line")).to_contain_text("Dealer: Regular 1")
    for player in (r1, r2, r3):
        expect(chips(page, player)).to_have_text("20")
    expect(page.get_by_test_id("on-cloth")).to_have_text("30")
    expect(page.get_by_test_id("balance")).to_contain_text("add up to 0 ✓")
    check_fits(page, "a hand in play")

    # The widow, sold for a typo first ("3x"): a message, and nothing changes.
    page.get_by_text("Widow and poker").click()
    page.get_by_label("Widow bought from Regular 1 by").select_option(label="Regular 3")
    page.get_by_label("For chips").fill("3x")
    check_fits(page, "the widow and poker open")
    page.get_by_role("button", name="Sold").click()
    expect(message(page)).to_have_text("Chips are a whole number, 1 or more.")
    expect(chips(page, r3)).to_have_text("20")
    expect(page.locator("ol.recent li")).to_have_count(1)  # only the deal
    page.get_by_text("Widow and poker").click()
    page.get_by_label("Widow bought from Regular 1 by").select_option(label="Regular 3")
    page.get_by_label("For chips").fill("2")
    page.get_by_role("button", name="Sold").click()
    step_shown(page, "Regular 3 bought the widow for 2.")
    expect(chips(page, r3)).to_have_text("18")
    expect(chips(page, r1)).to_have_text("22")  # the dealer is paid

    # More chips on Poker, and Poker and Joker won.
    page.get_by_text("Widow and poker").click()
    page.get_by_label("More chips on Poker from").select_option(label="Regular 2")
    page.get_by_label("Chips", exact=True).fill("4")
    page.get_by_role("button", name="Bet").click()
    step_shown(page, "Regular 2 put 4 more on Poker.")
    expect(chips(page, r2)).to_have_text("16")
    expect(page.get_by_test_id("on-cloth")).to_have_text("34")
    take(page, "poker", r2)
    step_shown(page, "Regular 2 won Poker.")
    expect(chips(page, r2)).to_have_text("23")  # 3 + the 4 bet
    take(page, "joker", r3)
    step_shown(page, "Regular 3 won Joker.")
    expect(chips(page, r3)).to_have_text("21")
    # A space given to the wrong player, undone.
    take(page, "sequence", r1)
    step_shown(page, "Regular 1 won Sequence.")
    expect(chips(page, r1)).to_have_text("25")
    page.get_by_role("button", name="Undo the last step").click()
    expect(message(page)).to_have_text("Undone: space won.")
    step_shown(page, "Regular 3 won Joker.")
    expect(chips(page, r1)).to_have_text("22")
    expect(page.get_by_test_id("on-cloth")).to_have_text("24")

    # Regular 1 calls Bonanza; the cards left are typed with slips first.
    call_bonanza(page, r1, {r2: "60", r3: "2"})
    expect(message(page)).to_have_text("Regular 2: cards left are 0 to 53.")
    # The call comes back as typed, one slip to mend; the caller's own hand has no box.
    expect(page.get_by_label("Called by")).to_have_value(str(r1.pk))
    expect(page.locator(f"#cards-{r2.pk}")).to_have_value("60")
    expect(page.locator(f"#cards-{r3.pk}")).to_have_value("2")
    expect(page.locator(f"#cards-{r1.pk}")).to_be_hidden()
    page.locator(f"#cards-{r2.pk}").fill("3")
    page.locator(f"#cards-{r3.pk}").fill("2x")
    page.get_by_role("button", name="Bonanza: end the hand").click()
    expect(message(page)).to_have_text("Regular 3: cards left are 0 to 53.")
    expect(chips(page, r1)).to_have_text("22")
    call_bonanza(page, r1, {r2: "3", r3: "2"})
    step_shown(page, "Regular 1 called Bonanza (5 cards paid).")
    expect(chips(page, r1)).to_have_text("30")  # the Bonanza space's 3 and 5 cards
    expect(chips(page, r2)).to_have_text("20")
    expect(chips(page, r3)).to_have_text("19")
    # The seven spaces nobody won keep their chips for the next hand.
    expect(page.get_by_test_id("on-cloth")).to_have_text("21")
    expect(page.locator(".round-line")).to_contain_text("1 hand played")
    expect(page.get_by_test_id("balance")).to_contain_text("add up to 0 ✓")

    # Hand 2: the deal passes to the left.
    page.get_by_role("button", name="Deal hand 2").click()
    expect(page.locator(".round-line")).to_contain_text("Dealer: Regular 2")
    expect(page.get_by_test_id("on-cloth")).to_have_text("51")
    take(page, "queen_jack", r3)
    step_shown(page, "Regular 3 won Queen-Jack.")
    expect(chips(page, r3)).to_have_text("15")  # 6: three chips of each hand
    call_bonanza(page, r2, {r1: "4", r3: "0"})
    step_shown(page, "Regular 2 called Bonanza (4 cards paid).")
    expect(chips(page, r1)).to_have_text("16")
    expect(chips(page, r2)).to_have_text("17")
    expect(chips(page, r3)).to_have_text("15")
    expect(page.get_by_test_id("on-cloth")).to_have_text("42")
    held, net, cloth = ledger_numbers(page)
    assert sum(held) + cloth == 3 * 30 and sum(net) + cloth == 0

    # The end of the night: the chips left on the cloth are taken, space by space.
    # Eight spaces hold chips: all but Queen-Jack and Bonanza, won in the last hand.
    expect(page.locator("#settle-space option")).to_have_count(8)
    for i in range(8):
        before = page.get_by_test_id("on-cloth").inner_text()
        page.get_by_label("Taken by").select_option(label=[r1, r2, r3][i % 3].name)
        page.get_by_role("button", name="Take the chips").click()
        expect(page.get_by_test_id("on-cloth")).not_to_have_text(before)
    expect(page.get_by_role("button", name="Take the chips")).to_have_count(0)
    expect(page.get_by_test_id("on-cloth")).to_have_text("0")
    expect(page.get_by_test_id("balance")).to_contain_text(
        "the cloth is empty: the night's totals add up to zero"
    )
    held, net, cloth = ledger_numbers(page)
    assert cloth == 0 and sum(net) == 0 and sum(held) == 3 * 30
    check_fits(page, "the ledger settled")
