"""The browser tests' fixture: a browser context per person."""

import pytest


@pytest.fixture
def contexts(browser):
    """New browser contexts (one per person), closed before the database goes away."""
    made = []

    def new(**kwargs):
        context = browser.new_context(**kwargs)
        made.append(context)
        return context

    yield new
    for context in made:
        context.close()
