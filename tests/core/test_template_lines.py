"""Templates are read one idea per line: no line runs over 200 characters (a tag, a branch
of an if, a partial's opening each get their own). Design arguments live in docs/, and
a template's comment points there (docs/architecture.md, "The room screen")."""

from pathlib import Path

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
LONGEST = 200


def test_no_template_line_runs_over_200_characters():
    long = [
        f"{path.relative_to(TEMPLATES)}:{number} ({len(line)})"
        for path in sorted(TEMPLATES.rglob("*.html"))
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if len(line) > LONGEST
    ]
    assert not long, "Break these lines, one idea per line: " + ", ".join(long)
