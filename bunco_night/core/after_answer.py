"""Work a request leaves for after its answer has gone out (``after_answer``).

A WSGI server calls the response's ``close()`` once it has sent the whole answer (PEP
3333; gunicorn, Django's test client and its live test server all do), and
``AfterAnswerMiddleware`` does each request's left work there: the phone has its answer
while the work is done. Only for work whose result saves later requests time, such as a
table's kept board (``play.boards``): if the work fails, or the process stops before it
is done, nothing is lost but the saving. A view called without the middleware does the
work at once.

The work runs outside any transaction of the view, in autocommit: it must not rest on
writes that a transaction might still roll back. And it still holds the request's
thread: a phone's next request on the same kept-alive connection is read once the work
is done (gunicorn's gthread worker), so the work must stay short.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

logger = logging.getLogger(__name__)

# Where the middleware puts a request's list of work left for after its answer.
_LEFT = "_after_answer"


def after_answer(request: HttpRequest, work: Callable[[], object]) -> None:
    """Do ``work`` once ``request``'s answer has been sent; at once without the middleware."""
    left = getattr(request, _LEFT, None)
    if left is None:
        work()
    else:
        left.append(work)


def _do(left: list[Callable[[], object]]) -> None:
    """Each piece of work in turn, once: one that fails is logged, and the others still
    run."""
    while left:
        work = left.pop(0)
        try:
            work()
        except Exception:
            logger.exception("Work left for after an answer failed.")


class AfterAnswerMiddleware:
    """Gives each request a list of work for after its answer (``after_answer``) and does
    it when the server closes the response, before the response's own closing (Django's
    ``request_finished``, which may close the database connection the work uses)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        left: list[Callable[[], object]] = []
        setattr(request, _LEFT, left)
        response = self.get_response(request)
        if left:
            close = response.close

            def close_after_work() -> None:
                try:
                    _do(left)
                finally:
                    close()

            response.close = close_after_work
        return response
