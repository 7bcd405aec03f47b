"""Worker processes that turn pieces of a document into PDF, in parallel.

Workers are forked from a fork server that has imported only ``engine``, never from the web
process; each document gets a pool of its own, which exits when the document is done. As
with every start method but "fork", each worker imports the program's main module again
(as ``__mp_main__``): a script that prints long documents keeps its work under
``if __name__ == "__main__":``. Why: docs/architecture.md, Design notes."""

from __future__ import annotations

import logging
import multiprocessing
import os
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor, as_completed
from multiprocessing import forkserver

from django.conf import settings

from . import engine

log = logging.getLogger(__name__)

_context_lock = threading.Lock()
_context = None


def workers() -> int:
    """How many processes render at once: ``PRINT_WORKERS``, else one per CPU."""
    configured = getattr(settings, "PRINT_WORKERS", None)
    if configured:
        return configured
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def _mp_context():
    global _context
    with _context_lock:
        if _context is None:
            context = multiprocessing.get_context("forkserver")
            # Not "__main__" (the default): the server must not import gunicorn's or a
            # script's main module, only what the workers need.
            context.set_forkserver_preload(["bunco_night.printing.engine"])
            _context = context
        return _context


def warm() -> None:
    """Start the fork server now, when documents print in workers: it imports WeasyPrint
    (most of a second) in its own process while the host looks at the print page, so the
    first document printed does not wait for it. Quick to call again."""
    if workers() > 1:
        _mp_context()
        try:
            forkserver.ensure_running()
        except OSError:  # the first document will try again, and say what went wrong
            log.warning("Could not start the print workers' fork server", exc_info=True)


def render_pieces(
    pieces: Iterable[engine.Piece],
    count: int,
    *,
    progress: Callable[[int], None] | None = None,
    arrived: Callable[[int, engine.Rendered], None] | None = None,
) -> list[engine.Rendered]:
    """The ``count`` pieces as PDF, in order: in this process when there is one, else in
    workers, each piece sent as soon as ``pieces`` yields it (so this process renders the
    next piece's HTML while the workers print the ones before).

    ``progress`` is called with the number of pieces printed so far; ``arrived`` with
    each piece's place and PDF as it comes back (in the order they finish).
    """
    if count <= 1 or workers() <= 1:
        done = []
        for piece in pieces:
            done.append(engine.render_piece(piece))
            if arrived:
                arrived(len(done) - 1, done[-1])
            if progress:
                progress(len(done))
        return done
    results: list[engine.Rendered | None] = [None] * count
    with ProcessPoolExecutor(max_workers=min(workers(), count), mp_context=_mp_context()) as pool:
        futures = {pool.submit(engine.render_piece, piece): i for i, piece in enumerate(pieces)}
        for done, future in enumerate(as_completed(futures), start=1):
            i = futures[future]
            results[i] = future.result()
            if arrived:
                arrived(i, results[i])
            if progress:
                progress(done)
    return results  # type: ignore[return-value]
