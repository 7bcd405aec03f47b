"""A Bonanza table's chip ledger kept on one phone (docs/rules.md section 9.4)."""

import contextlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bunco_night.core.errors import ServiceError
from bunco_night.games.models import BonanzaStep
from bunco_night.games.selectors import bonanza_state
from bunco_night.games.services import bonanza_step_record, bonanza_table_create, bonanza_undo
from bunco_night.rules import bonanza
from tests.factories import make_group, make_night
from tests.play.helpers import nonce
from tests.search import examples

pytestmark = pytest.mark.django_db


@pytest.fixture
def table():
    night = make_night(make_group(regulars=6, substitutes=1))
    players = list(night.group.players.order_by("name").values_list("pk", flat=True)[:4])
    return bonanza_table_create(night=night, player_ids=players, start_chips=50)


def step(table, action, **kw):
    return bonanza_step_record(table=table, nonce=nonce(), action=action, **kw)


def test_a_hand_deal_widow_spaces_and_bonanza(table):
    a, b, c, d = table.players
    step(table, "deal")
    s = bonanza_state(table)
    assert s.ledger.chips_on_layout == 40  # four players, a chip on each of ten spaces
    assert s.ledger.chips[a] == 40 and s.ledger.dealer_player == a
    step(table, "sell_widow", player=b, chips=3)  # b pays the dealer 3
    step(table, "poker_bet", player=c, chips=2)
    step(table, "take", player=c, space="poker")
    step(table, "take", player=d, space="joker")
    step(table, "call_bonanza", player=b, cards_left={a: 2, c: 0, d: 5})
    s = bonanza_state(table)
    assert s.ledger.totals == {a: -10 + 3 - 2, b: -10 - 3 + 4 + 7, c: -10 - 2 + 6, d: -10 - 5 + 4}
    assert not s.ledger.in_hand
    assert s.balance == 0  # won and paid with the cloth: always zero
    # The bet went on Poker; Poker, Joker and Bonanza were won; seven spaces keep theirs.
    assert s.ledger.chips_on_layout == 40 + 2 - (4 + 2) - 4 - 4 == 7 * 4


def test_the_end_of_the_night_settles_the_cloth_and_the_totals_add_up_to_zero(table):
    a, b, c, d = table.players
    step(table, "deal")
    step(table, "call_bonanza", player=a, cards_left={b: 1, c: 1, d: 1})
    s = bonanza_state(table)
    for space in [sp for sp, _label, n, _won in s.spaces if n]:
        step(table, "settle", player=b, space=space)
    s = bonanza_state(table)
    assert s.ledger.settled and s.ledger.chips_on_layout == 0
    assert sum(s.ledger.totals.values()) == 0
    assert sum(s.ledger.chips.values()) == 4 * 50


@pytest.mark.parametrize(
    ("action", "kw", "code"),
    [
        ("take", {"space": "joker"}, "no_hand"),
        ("settle", {"space": "joker"}, "space_empty"),
        ("dance", {}, "bad_step"),
        ("take", {"space": "nowhere"}, "bad_space"),
        ("sell_widow", {"chips": 10**9}, "bad_chips"),
    ],
)
def test_steps_that_make_no_sense_are_refused(table, action, kw, code):
    kw.setdefault("player", table.players[1])
    with pytest.raises(ServiceError) as caught:
        step(table, action, **kw)
    assert caught.value.code == code
    assert not BonanzaStep.objects.exists()


@pytest.mark.parametrize(
    ("chips", "says"),
    [
        (-1, "Chips are a whole number, 1 or more."),
        (0, "Chips are a whole number, 1 or more."),  # the engine's word, the same
        (100_001, "At most 100,000 chips in one step: a typing slip?"),
    ],
)
def test_chips_out_of_range_are_refused_in_words_that_agree(table, chips, says):
    step(table, "deal")
    with pytest.raises(ServiceError) as caught:
        step(table, "poker_bet", player=table.players[1], chips=chips)
    assert (caught.value.code, caught.value.message) == ("bad_chips", says)


def test_in_a_hand(table):
    a, b, c, d = table.players
    step(table, "deal")
    cases = [
        ({"action": "deal"}, "hand_in_play"),
        ({"action": "take", "space": "bonanza", "player": b}, "bad_space"),
        ({"action": "sell_widow", "player": a, "chips": 2}, "bad_buyer"),
        ({"action": "poker_bet", "player": b, "chips": 0}, "bad_chips"),
        ({"action": "call_bonanza", "player": a, "cards_left": {b: 1}}, "bad_cards_left"),
        ({"action": "take", "space": "joker", "player": 10**6}, "not_playing"),
    ]
    for kw, code in cases:
        action = kw.pop("action")
        with pytest.raises(ServiceError) as caught:
            step(table, action, **kw)
        assert caught.value.code == code, kw


def test_undo_replays_without_the_last_step_and_a_repeat_is_stored_once(table):
    a, b, *_ = table.players
    step(table, "deal")
    n = nonce()
    one = bonanza_step_record(table=table, nonce=n, action="take", player=b, space="joker")
    again = bonanza_step_record(table=table, nonce=n, action="take", player=b, space="joker")
    assert one.pk == again.pk
    assert bonanza_state(table).ledger.totals[b] == -10 + 4
    bonanza_undo(table=table)
    assert bonanza_state(table).ledger.totals[b] == -10
    assert BonanzaStep.objects.filter(undone_at__isnull=False).count() == 1
    bonanza_undo(table=table)
    assert bonanza_state(table).ledger.hand == 0
    with pytest.raises(ServiceError) as caught:
        bonanza_undo(table=table)
    assert caught.value.code == "nothing_to_undo"


def test_a_table_needs_two_to_nine_players_of_the_roster():
    night = make_night(make_group(regulars=12, substitutes=0))
    ids = list(night.group.players.values_list("pk", flat=True))
    for players, code in ((ids[:1], "bad_player_count"), (ids[:10], "bad_player_count")):
        with pytest.raises(ServiceError) as caught:
            bonanza_table_create(night=night, player_ids=players)
        assert caught.value.code == code
    other = make_group(user=night.group.hosts.first(), regulars=2, substitutes=0, name="Else")
    stranger = other.players.first().pk
    with pytest.raises(ServiceError) as caught:
        bonanza_table_create(night=night, player_ids=[ids[0], stranger])
    assert caught.value.code == "bad_players"
    with pytest.raises(ServiceError) as caught:
        bonanza_table_create(night=night, player_ids=[ids[0], ids[0]])
    assert caught.value.code == "bad_players"
    t1 = bonanza_table_create(night=night, player_ids=ids[:2], poker=False)
    t2 = bonanza_table_create(night=night, player_ids=ids[2:5])
    assert (t1.number, t2.number) == (1, 2)
    assert bonanza.POKER not in bonanza_state(t1).ledger.spaces


@settings(
    max_examples=examples(25),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_whatever_is_entered_chips_are_never_made_or_lost(table, data):
    """Section 9.4: "the players' totals and the chips on the cloth always add up to zero"."""
    BonanzaStep.objects.filter(table=table).delete()
    players = table.players
    for _ in range(data.draw(st.integers(0, 25))):
        action = data.draw(st.sampled_from(bonanza.STEPS))
        player = data.draw(st.sampled_from(players))
        kw = {
            "player": player,
            "space": data.draw(st.sampled_from(bonanza.SPACES)),
            "chips": data.draw(st.integers(0, 20)),
        }
        if action == "call_bonanza":
            kw["cards_left"] = {p: data.draw(st.integers(0, 12)) for p in players if p != player}
        with contextlib.suppress(ServiceError):  # the ledger refuses what cannot be
            step(table, action, **kw)
        s = bonanza_state(table)
        assert s.balance == 0 and not s.error
