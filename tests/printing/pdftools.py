"""Read a PDF as a person would: its pages, its text, and the QR codes a phone would scan.

Uses poppler-utils (pdfinfo, pdftotext, pdftoppm) and zbar-tools (zbarimg), which
``make test`` installs.
"""

import html
import re
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path


def _run(*args: str) -> str:
    return subprocess.run(args, check=True, capture_output=True, text=True).stdout


def _with_file(pdf: bytes, fn):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "doc.pdf"
        path.write_bytes(pdf)
        return fn(Path(tmp), path)


def info(pdf: bytes) -> dict[str, str]:
    """pdfinfo's fields: "Pages", "Page size", ..."""
    out = _with_file(pdf, lambda _tmp, path: _run("pdfinfo", str(path)))
    fields = {}
    for line in out.splitlines():
        key, colon, value = line.partition(":")
        if colon:
            fields[key.strip()] = value.strip()
    return fields


def page_count(pdf: bytes) -> int:
    return int(info(pdf)["Pages"])


def page_size(pdf: bytes) -> str:
    """Like "612 x 792 pts (letter)" or "595.276 x 841.89 pts (A4)"."""
    return info(pdf)["Page size"]


def pages_text(pdf: bytes, first: int = 1, last: int | None = None) -> list[str]:
    """The text of each page (or of pages ``first`` to ``last``), laid out as printed."""
    pages = ["-f", str(first)] + (["-l", str(last)] if last else [])
    out = _with_file(pdf, lambda _tmp, path: _run("pdftotext", "-layout", *pages, str(path), "-"))
    return out.split("\f")[:-1]  # pdftotext ends every page with a form feed


def text(pdf: bytes) -> str:
    """All the text as one line of words (line breaks and runs of spaces become one space)."""
    return " ".join("\n".join(pages_text(pdf)).split())


def reading_text(pdf: bytes) -> str:
    """All the text as one line of words in reading order: a column after the column
    before it, where ``text`` reads lines across the columns of a page."""
    out = _with_file(pdf, lambda _tmp, path: _run("pdftotext", str(path), "-"))
    return " ".join(out.split())


def qr_codes(pdf: bytes, *, dpi: int = 150) -> list[list[str]]:
    """The QR codes on each page, decoded from an image of the page, as a phone sees it."""

    def scan(tmp: Path, path: Path) -> list[list[str]]:
        _run("pdftoppm", "-r", str(dpi), "-png", str(path), str(tmp / "page"))
        pages = []
        for png in sorted(tmp.glob("page-*.png"), key=lambda p: int(p.stem.rsplit("-", 1)[1])):
            found = subprocess.run(
                ["zbarimg", "-q", "--raw", str(png)], capture_output=True, text=True
            )
            pages.append(sorted(line for line in found.stdout.splitlines() if line))
        return pages

    return _with_file(pdf, scan)


def page_image(pdf: bytes, page: int = 1, *, dpi: int = 300):
    """One page as a grey-scale Pillow image, as a printer would put it on paper."""
    from PIL import Image

    def render(tmp: Path, path: Path):
        _run(
            "pdftoppm",
            "-r",
            str(dpi),
            "-gray",
            "-f",
            str(page),
            "-l",
            str(page),
            str(path),
            str(tmp / "p"),
        )
        with Image.open(next(tmp.glob("p*.pgm"))) as image:
            return image.copy()

    return _with_file(pdf, render)


@dataclass(frozen=True)
class WordBox:
    page: int
    word: str
    x_min: float
    y_min: float
    x_max: float
    y_max: float
    page_width: float
    page_height: float


def word_boxes(pdf: bytes) -> list[WordBox]:
    """Every word with its box in points, from ``pdftotext -bbox``."""
    out = _with_file(pdf, lambda _tmp, path: _run("pdftotext", "-bbox", str(path), "-"))
    boxes = []
    for number, (width, height, body) in enumerate(_PAGE.findall(out), start=1):
        for x0, y0, x1, y1, word in _WORD.findall(body):
            boxes.append(
                WordBox(
                    number,
                    html.unescape(word),
                    float(x0),
                    float(y0),
                    float(x1),
                    float(y1),
                    float(width),
                    float(height),
                )
            )
    return boxes


_PAGE = re.compile(r'<page width="([\d.]+)" height="([\d.]+)">(.*?)</page>', re.S)
_WORD = re.compile(
    r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*?)</word>'
)
