"""Group services: roster, rules knob by knob, prizes."""

import pytest
from django.db import IntegrityError

from bunco_night.core.errors import ServiceError
from bunco_night.groups.models import Group, Player
from bunco_night.groups.services import (
    group_add_host,
    group_create,
    player_add,
    player_retire,
    player_update,
    prizes_set,
    rules_reset,
    rules_update,
)
from tests.factories import make_group, make_user

pytestmark = pytest.mark.django_db


def test_group_create_copies_a_preset_and_the_usual_prizes():
    user = make_user()
    group = group_create(name="Maple Street Bunco", user=user, rules="deluxe", dues_cents=300)
    assert group.slug == "maple-street-bunco" and group.is_host(user)
    assert group.rules_obj.name == "deluxe"
    assert [p.code for p in group.prizes.all()] == [
        "most_wins",
        "most_buncos",
        "last_bunco",
        "fewest_wins",
    ]
    assert sum(p.percent for p in group.prizes.all()) == 100
    other = group_create(name="Maple Street Bunco", user=make_user("other"))  # its own host
    assert other.slug == "maple-street-bunco-2"


def test_several_hosts_share_a_group():
    group = make_group(regulars=0, substitutes=0)
    second = make_user("cohost")
    group_add_host(group=group, user=second)
    assert group.is_host(second) and group.hosts.count() == 2


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"name": "  "}, "empty_name"),
        ({"name": "x", "rules": "poker"}, "unknown_preset"),
        ({"name": "x", "dues_cents": -1}, "negative_dues"),
    ],
)
def test_group_create_refuses_bad_input(kwargs, code):
    with pytest.raises(ServiceError) as caught:
        group_create(user=make_user(), **kwargs)
    assert caught.value.code == code


def test_roster_add_edit_retire_and_usual_substitute():
    group = make_group(regulars=1, substitutes=1)
    ann = group.players.get(name="Regular 1")
    sub = group.players.get(name="Sub 1")
    player_update(player=ann, name="Ann  Smith", phone="555-1234", usual_substitute=sub)
    ann.refresh_from_db()
    assert ann.name == "Ann Smith" and ann.usual_substitute == sub and ann.phone == "555-1234"
    player_retire(player=ann)
    ann.refresh_from_db()
    assert ann.retired and Player.objects.filter(pk=ann.pk).exists()  # history kept


def test_roster_refuses_empty_and_duplicate_names():
    group = make_group(regulars=1, substitutes=0)
    with pytest.raises(ServiceError) as caught:
        player_add(group=group, name="   ")
    assert caught.value.code == "empty_name"
    with pytest.raises(ServiceError) as caught:
        player_add(group=group, name="regular 1")
    assert caught.value.code == "duplicate_name" and caught.value.field == "name"
    with pytest.raises(ServiceError) as caught:
        player_update(player=group.players.get(), usual_substitute=group.players.get())
    assert caught.value.code == "self_substitute"


def test_the_database_refuses_a_duplicate_name_too():
    group = make_group(regulars=1, substitutes=0)
    with pytest.raises(IntegrityError):
        Player.objects.create(group=group, name="REGULAR 1")


def test_rules_knob_by_knob():
    group = make_group(regulars=0, substitutes=0)
    rules = rules_update(group=group, changes={"fill": "ghosts", "bunco_points": 25})
    assert rules.fill == "ghosts" and group.rules_obj.bunco_points == 25
    group.refresh_from_db()
    assert group.rules["bunco_points"] == 25
    with pytest.raises(ServiceError) as caught:
        rules_update(group=group, changes={"target_teams": 0})
    assert caught.value.code == "bad_target"
    with pytest.raises(ServiceError) as caught:
        rules_update(group=group, changes={"colour": "red"})
    assert caught.value.code == "unknown_knob"
    assert rules_reset(group=group, name="ladder").movement == "ladder"


def test_prizes_by_amount_or_percent():
    group = make_group(regulars=0, substitutes=0)
    prizes = prizes_set(
        group=group,
        prizes=[
            {"code": "most_buncos", "amount_cents": 1500},
            {"code": "fuzzy_die", "percent": 10},
        ],
    )
    assert [(p.code, p.amount_cents, p.percent) for p in prizes] == [
        ("most_buncos", 1500, None),
        ("fuzzy_die", None, 10),
    ]
    with pytest.raises(ServiceError) as caught:
        prizes_set(
            group=group,
            prizes=[{"code": "most_wins", "percent": 70}, {"code": "most_losses", "percent": 40}],
        )
    assert caught.value.code == "payout_exceeds_pot"
    assert group.prizes.count() == 2  # nothing changed


def test_stored_rules_with_head_partners_and_deluxe_movement_are_mended():
    """docs/rules.md section 5.4: the variant only with ladder movement; rules stored before
    the engine refused the combination get it turned off by a data migration."""
    import importlib

    from django.apps import apps

    mend = importlib.import_module(
        "bunco_night.groups.migrations.0002_head_partners_only_with_ladder"
    )
    host = make_user()
    group = make_group(user=host, regulars=4, substitutes=0)
    ladder = make_group(user=host, regulars=4, substitutes=0, name="Ladder", rules="ladder")
    Group.objects.filter(pk=group.pk).update(rules={**group.rules, "head_partners_stay": True})
    Group.objects.filter(pk=ladder.pk).update(rules={**ladder.rules, "head_partners_stay": True})
    mend.turn_off(apps, None)
    assert Group.objects.get(pk=group.pk).rules["head_partners_stay"] is False
    assert Group.objects.get(pk=ladder.pk).rules_obj.head_partners_stay is True
