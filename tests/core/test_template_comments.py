"""A template comment in {# #} is one line only: Django prints one that runs over several
lines as text on the page (the night page once showed two above its sections)."""

from pathlib import Path

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


def test_no_template_comment_runs_over_two_lines():
    unclosed = []
    for path in sorted(TEMPLATES.rglob("*.html")):
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            rest = line
            while "{#" in rest:
                rest = rest[rest.index("{#") + 2 :]
                if "#}" not in rest:
                    unclosed.append(f"{path.relative_to(TEMPLATES)}:{number}")
                    break
                rest = rest[rest.index("#}") + 2 :]
    assert not unclosed, "Use {% comment %} for a comment of several lines: " + ", ".join(unclosed)
