"""The PDFs read their stylesheet from the checkout, not from an older collected copy."""

from pathlib import Path

from django.conf import settings
from django.test import override_settings

from bunco_night.printing.pdf import static_file


def test_a_stale_collected_copy_does_not_win_over_the_source(tmp_path):
    stale = tmp_path / "css" / "print.css"
    stale.parent.mkdir()
    stale.write_text("/* an old copy left by collectstatic */")
    hashed = tmp_path / "css" / "print.0123abcd.css"
    hashed.write_text("/* as served in production */")
    with override_settings(STATIC_ROOT=str(tmp_path)):
        source = static_file("/static/css/print.css")
        assert source == Path(settings.BASE_DIR) / "static" / "css" / "print.css"
        assert static_file("/static/css/print.0123abcd.css") == hashed
        assert static_file("/static/css/../../settings.py") is None
        assert static_file("/elsewhere/print.css") is None
