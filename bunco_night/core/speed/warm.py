"""A web worker made ready before its first request: its URL patterns and templates built,
then its lasting objects frozen out of the cycle collector's walks (``gc.freeze``).
Why: docs/architecture.md, "Where speed lives".
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
