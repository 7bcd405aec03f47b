"""The rules engine imports nothing from Django: it is plain Python, tested without a database."""

import ast
import subprocess
import sys
from pathlib import Path

RULES = Path(__file__).resolve().parents[2] / "bunco_night" / "rules"


def test_no_module_in_rules_imports_django():
    offenders = []
    for path in sorted(RULES.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            offenders += [f"{path.name}: {n}" for n in names if n.split(".")[0] == "django"]
    assert offenders == []


def test_rules_package_loads_without_django_in_sys_modules():
    code = (
        "import sys, bunco_night.rules.simulate, bunco_night.rules.awards;"
        "print('django' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=RULES.parents[1],
    )
    assert out.stdout.strip() == "False"
