"""A host's groups have names of their own: a second group called the same as one the
host already has (whatever its capitals and spaces) is refused with a clear message, so
two tiles on "Your groups" never look the same. Another host may use the name."""

import pytest
from django.urls import reverse

from bunco_night.core.errors import ServiceError
from bunco_night.groups.models import Group
from bunco_night.groups.services import group_create
from tests.factories import make_user

pytestmark = pytest.mark.django_db

MESSAGE = "You already have a group called Maple Street Bunco: give this one another name"


@pytest.mark.parametrize(
    "name", ["Maple Street Bunco", "maple street bunco", " Maple  Street BUNCO "]
)
def test_the_same_name_again_is_refused(group, host, name):
    with pytest.raises(ServiceError) as caught:
        group_create(name=name, user=host)
    assert (caught.value.code, caught.value.field) == ("duplicate_name", "name")
    assert caught.value.message.startswith(MESSAGE)
    assert Group.objects.count() == 1


def test_another_host_and_another_name_are_fine(group, host):
    group_create(name="Maple Street Bunco", user=make_user("other"))
    group_create(name="Maple Street Bunco (Tuesdays)", user=host)
    assert Group.objects.count() == 3


def test_the_form_says_so_next_to_the_name_and_keeps_what_was_typed(client, group):
    data = {"name": "MAPLE STREET BUNCO", "rules": "house", "dues": "5"}
    page = client.post(reverse("groups:index"), data).content.decode()
    assert MESSAGE in page
    assert 'value="MAPLE STREET BUNCO"' in page
    assert Group.objects.count() == 1
