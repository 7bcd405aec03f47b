"""The browser tests' reads and loads that a page's own reload may interrupt are done
again in the page that loaded (tests/browser/helpers.py), and only those."""

import pytest
from playwright.sync_api import Error as PlaywrightError

from tests.browser.helpers import settled_evaluate, settled_goto

INTERRUPTED = (
    'Navigation to "http://x/t/a/" is interrupted by another navigation to "http://x/t/a/"'
)
ABORTED = "Page.goto: net::ERR_ABORTED at http://x/t/a/"
DESTROYED = "Execution context was destroyed, most likely because of a navigation"


class Page:
    """A page whose first ``failures`` calls fail with ``error``, then answer."""

    def __init__(self, error: str, failures: int):
        self.error, self.failures = error, failures
        self.calls, self.waits = [], 0

    def _call(self, what):
        self.calls.append(what)
        if len(self.calls) <= self.failures:
            raise PlaywrightError(self.error)
        return f"answer to {what}"

    def goto(self, url):
        return self._call(url)

    def evaluate(self, expression):
        return self._call(expression)

    def wait_for_load_state(self):
        self.waits += 1


@pytest.mark.parametrize(
    "read, error",
    [(settled_goto, INTERRUPTED), (settled_goto, ABORTED), (settled_evaluate, DESTROYED)],
)
def test_a_read_a_reload_interrupted_is_done_again_once_the_page_loaded(read, error):
    page = Page(error, failures=2)
    assert read(page, "/t/a/") == "answer to /t/a/"
    assert page.calls == ["/t/a/"] * 3
    assert page.waits == 2


@pytest.mark.parametrize(
    "read, error",
    [(settled_goto, INTERRUPTED), (settled_evaluate, DESTROYED)],
)
def test_it_gives_up_after_five_tries(read, error):
    page = Page(error, failures=5)
    with pytest.raises(PlaywrightError, match=error[:20]):
        read(page, "/t/a/")
    assert len(page.calls) == 5


@pytest.mark.parametrize("read", [settled_goto, settled_evaluate])
def test_any_other_error_is_raised_at_once(read):
    page = Page("net::ERR_CONNECTION_REFUSED", failures=1)
    with pytest.raises(PlaywrightError, match="ERR_CONNECTION_REFUSED"):
        read(page, "/t/a/")
    assert page.calls == ["/t/a/"]
    assert page.waits == 0
