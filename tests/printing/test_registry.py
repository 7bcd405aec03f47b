"""The registry of printed documents: one entry each, the addresses hosts already use."""

import pytest
from django.urls import reverse

from bunco_night.printing import registry
from bunco_night.printing.documents.parts import Parts
from bunco_night.printing.registry import Document
from tests.factories import make_group, make_night


def test_every_night_document_keeps_its_address():
    paths = {d.name: reverse(f"printing:{d.name}", args=[7]) for d in registry.night_documents()}
    assert paths == {
        "table_cards": "/nights/7/print/table-cards/",
        "tally_sheets": "/nights/7/print/tally-sheets/",
        "score_pads": "/nights/7/print/score-pads/",
        "master_sheet": "/nights/7/print/master-sheet/",
        "prizes": "/nights/7/print/prizes/",
        "roster": "/nights/7/print/roster/",
        "rules_card": "/nights/7/print/rules-card/",
    }


def a_document(**fields) -> Document:
    return Document(
        **{"title": "T", "slug": "t", "template": "t.html", "pieces": lambda s: Parts([]), **fields}
    )


def test_two_documents_of_one_name_are_refused():
    with pytest.raises(ValueError, match="Two printed documents named 'prizes'"):
        registry.register(a_document(name="prizes"))
    assert registry.DOCUMENTS["prizes"].title == "Prizes and standings"


def test_a_document_printed_in_the_background_must_say_how_long_it_is():
    with pytest.raises(ValueError, match="needs pages"):
        a_document(name="long", background=True)


@pytest.mark.django_db
def test_a_buck_dice_night_prints_its_own_score_pads_at_the_same_address(host, group):
    buck = make_night(make_group(user=host, name="Buck Group", rules="buck_dice"), sets=2)
    plain = make_night(group, sets=2)
    assert registry.document("score_pads", buck).name == "buck_pads"
    assert registry.document("score_pads", plain).name == "score_pads"
    assert "buck_pads" in [d.name for d in registry.night_documents(buck)]
    assert "score_pads" not in [d.name for d in registry.night_documents(buck)]
