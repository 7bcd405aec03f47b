"""The browser tests' teardown: a context whose close hangs stops Chromium, and says so."""

import threading
import warnings

import pytest

from tests.conftest import close_contexts


class Context:
    """A browser context whose close returns, raises, or hangs until Chromium is stopped."""

    def __init__(self, stopped=None, error=None):
        self.stopped, self.error, self.closed = stopped, error, False

    def close(self):
        if self.stopped is not None:
            assert self.stopped.wait(10), "the close was never stopped"
            raise RuntimeError("Target page, context or browser has been closed")
        if self.error is not None:
            raise self.error
        self.closed = True


def test_contexts_that_close_are_closed_and_chromium_is_left_alone():
    stops = []
    made = [Context(), Context()]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        close_contexts(made, "t", limit=5, stop=lambda *args: stops.append(args))
    assert [c.closed for c in made] == [True, True]
    assert stops == []


def test_a_hung_close_stops_chromium_after_the_limit_and_warns():
    stopped = threading.Event()
    stops = []

    def stop(*args):
        stops.append(args)
        stopped.set()

    with pytest.warns(UserWarning, match="t: closing a browser context hung for 0.2 s"):
        close_contexts([Context(stopped=stopped), Context()], "t", limit=0.2, stop=stop)
    assert stops == [("t", " closing its browser contexts", 0.2)]


def test_a_close_that_fails_at_once_is_an_error_of_the_test():
    stops = []
    with pytest.raises(ValueError, match="broken"):
        close_contexts(
            [Context(error=ValueError("broken"))], "t", limit=5, stop=lambda *a: stops.append(a)
        )
    assert stops == []
