"""How hard the property tests search: short in `make test`, deep on demand.

``BUNCO_HYPOTHESIS=long`` multiplies each property test's examples by ``LONG`` and loads a
Hypothesis profile of the same name for tests that set none (docs/testing.md)."""

import os

from hypothesis import HealthCheck, settings

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


def machine_search(short: int, steps: int) -> settings:
    """A state machine's search: ``examples(short)`` runs of ``steps`` steps (twice as many in
    a deep search), with no deadline and no health checks (each step is a database write)."""
    return settings(
        max_examples=examples(short),
        stateful_step_count=steps * 2 if DEPTH_NAME == "long" else steps,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
