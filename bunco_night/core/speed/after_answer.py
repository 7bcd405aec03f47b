"""Work a request leaves for after its answer has gone out (``after_answer``).

``AfterAnswerMiddleware`` runs it in the response's ``close()``, outside the view's
transaction; a view called without the middleware does it at once. Only for work whose
loss costs nothing but time, and short (it holds the request's thread). See
docs/architecture.md, "Where speed lives".
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
