"""A web worker made ready before its first request, and its lasting objects set aside
from Python's cycle collector.

Python's cycle collector now and then walks every object the process holds (a full
collection), and holds the interpreter while it does: every thread of the worker waits.
A worker serving a night holds about 130,000 objects, nearly all made once and kept for
good: modules, classes, functions, URL patterns, compiled templates. At the party bench
(bench/README.md, section "2026-11-25, 04:37-06:10 UTC") each worker ran a full
collection about every 10 s, and each took 80-110 ms of CPU: every request in that
worker at the time, a scorekeeper's tap or a phone's poll, waited as long.

``warm_up_and_freeze`` (gunicorn.conf.py calls it in each worker before it takes a
request) first makes what a worker would otherwise make at its first requests: the URL
patterns, with every view module they import, and the project's compiled templates.
Then it collects once and freezes (``gc.freeze``): the collector never walks the objects
there are now again, and full collections walk only what was made since, which is
little. Frozen objects are still freed as usual when nothing refers to them any more;
what the collector no longer frees is a reference cycle that takes in a frozen object
and is dropped after the freeze. The collection just before the freeze frees the
garbage there is then, and what is frozen is what a worker keeps for good (modules,
the URL resolver, compiled templates), so no such cycle is expected to be dropped.
"""

from __future__ import annotations

import gc
import logging
from pathlib import Path

logger = logging.getLogger(__name__)


def warm_up_and_freeze() -> int:
    """Import every view, compile the project's templates, then freeze what the process
    holds. Returns how many objects were frozen."""
    warm_up()
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()


def warm_up() -> list[str]:
    """Make what the first requests would: the URL patterns (importing every view
    module) and every template file under the project's template directories (pages,
    e-mails, the service worker), compiled and kept by Django's cached loader. Returns
    the templates' names.

    A template that does not compile is logged and skipped: its page shows the error
    when asked for, as it would have without the warm-up, and the worker still starts."""
    from django.template import engines
    from django.template.backends.django import DjangoTemplates
    from django.urls import get_resolver

    get_resolver().reverse_dict  # noqa: B018 (reading it fills the resolver)
    warmed = []
    for engine in engines.all():
        if not isinstance(engine, DjangoTemplates):
            continue
        for folder in engine.dirs:
            root = Path(folder)
            for path in sorted(p for p in root.rglob("*") if p.is_file()):
                name = path.relative_to(root).as_posix()
                try:
                    engine.get_template(name)
                except Exception:
                    logger.exception("Template %s could not be compiled", name)
                else:
                    warmed.append(name)
    return warmed
