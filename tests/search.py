"""How hard the property tests search: short in `make test`, deep on demand.

``BUNCO_HYPOTHESIS=long`` multiplies each property test's examples by ``LONG`` and loads a
Hypothesis profile of the same name for tests that set none (docs/testing.md)."""

import os

from hypothesis import settings

LONG = 20
DEPTH_NAME = os.environ.get("BUNCO_HYPOTHESIS", "short")
if DEPTH_NAME not in ("short", "long"):
    raise ValueError(f"BUNCO_HYPOTHESIS is {DEPTH_NAME!r}: say short or long.")

settings.register_profile("short", deadline=None)
settings.register_profile("long", deadline=None, max_examples=100 * LONG)
settings.load_profile(DEPTH_NAME)


def examples(short: int) -> int:
    """A property test's number of examples: ``short`` in `make test`, more in a deep search."""
    return short * LONG if DEPTH_NAME == "long" else short
