"""Rows built once for all the tests of a module, where building them through the services
costs seconds (a played night): ``once_per_module(build)`` is a module fixture that commits
what ``build()`` makes and hands on its answer (primary keys, not instances); each test
still runs in its own transaction, rolled back after it, and the tables are emptied after
the module's last test. Only for modules without transactional (browser) tests, whose
emptying of the tables would take the rows away."""

import pytest
from django.core.management import call_command

# The user who owns what is built: "host" is the one each test may make for itself.
BUILT_HOST = "built-host"


def once_per_module(build):
    @pytest.fixture(scope="module")
    def built(django_db_setup, django_db_blocker):
        with django_db_blocker.unblock():
            try:
                yield build()
            finally:
                call_command("flush", verbosity=0, interactive=False, reset_sequences=False)

    return built
