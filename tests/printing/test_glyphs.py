"""The bell beside HEAD TABLE prints: WeasyPrint draws the SVG glyph, white on the black bar
(WeasyPrint does not pass the text's colour into an SVG). An emoji in a name prints from
the emoji font `make run` installs (fonts-noto-color-emoji), not as an empty box."""

import subprocess
import tempfile
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from bunco_night.core.templatetags import glyphs
from tests.printing.helpers import get_pdf

pytestmark = pytest.mark.django_db


def first_page(pdf: bytes) -> Image.Image:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "doc.pdf"
        path.write_bytes(pdf)
        out = Path(tmp) / "page"
        subprocess.run(
            ["pdftoppm", "-r", "72", "-png", "-f", "1", "-l", "1", "-singlefile", path, out],
            check=True,
        )
        return Image.open(out.with_suffix(".png")).convert("L")


def test_the_head_tables_card_prints_the_bell_in_white_on_the_black_bar(
    client, played, monkeypatch
):
    with_bell = first_page(get_pdf(client, played, "table_cards"))
    monkeypatch.setitem(glyphs.SHAPES, "bell", "")
    without = first_page(get_pdf(client, played, "table_cards"))

    box = ImageChops.difference(with_bell, without).getbbox()
    assert box is not None, "the bell drew nothing"
    drawn = with_bell.crop(box)
    assert drawn.getextrema()[1] > 200, "no white in the bell: black on the black bar"
    assert box[2] - box[0] < 60 and box[3] - box[1] < 60, f"only the bell changed, not {box}"


def test_an_emoji_in_a_name_prints_from_the_emoji_font(client, night):
    """DejaVu Sans has no emoji: fontconfig finds them in Noto Color Emoji, which the PDF
    then embeds (without it, each would print as an empty box)."""
    night.group.players.filter(name="Regular 1").update(name="Zoë 🌸")
    pdf = get_pdf(client, night, "roster")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "roster.pdf"
        path.write_bytes(pdf)
        fonts = subprocess.run(["pdffonts", path], check=True, capture_output=True, text=True)
    assert "Noto-Color-Emoji" in fonts.stdout, fonts.stdout
