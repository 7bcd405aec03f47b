"""Apps import downwards only, and no app imports another app's views.

The layers, bottom first: the rules engine, then ``core`` (what every app uses), then
each area of the domain in the order it builds on the one before, and the demo on top.
The project's own modules (settings, urls) sit above all of them.
"""

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "bunco_night"
LAYERS = [
    "rules",
    "core",
    "groups",
    "accounts",
    "nights",
    "games",
    "play",
    "seasons",
    "invites",
    "printing",
    "ops",
    "demo",
]
RANK = {app: i for i, app in enumerate(LAYERS)}


def imports(path: Path) -> list[str]:
    """The ``bunco_night`` modules a file imports, as absolute names."""
    package = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts[:-1])
    names = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                module = f"{base}.{module}" if module else base
            # "from X import Y" imports X, and Y may be a module of X (such as views).
            names += [module] + [f"{module}.{a.name}" for a in node.names]
    return [n for n in names if n.startswith("bunco_night.")]


def app_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in RANK else None


def modules():
    for path in sorted(PACKAGE.rglob("*.py")):
        app = app_of(".".join(path.relative_to(PACKAGE.parent).parts))
        if app is not None and "migrations" not in path.parts:
            yield app, path


def test_every_app_is_in_a_layer():
    apps = {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").exists()}
    assert apps == set(LAYERS)


@pytest.mark.parametrize("app", LAYERS)
def test_an_app_imports_only_its_own_layer_and_below(app):
    upward = [
        f"{path.relative_to(PACKAGE)} imports {name}"
        for own, path in modules()
        if own == app
        for name in imports(path)
        if app_of(name) is not None and RANK[app_of(name)] > RANK[app]
    ]
    assert upward == []


def test_no_module_imports_another_apps_views():
    crossing = [
        f"{path.relative_to(PACKAGE)} imports {name}"
        for app, path in modules()
        for name in imports(path)
        if app_of(name) not in (None, app) and name.split(".")[2:3] == ["views"]
    ]
    assert crossing == []


def test_the_checker_sees_relative_and_absolute_imports():
    """The checker itself: both import forms resolve to absolute module names."""
    path = PACKAGE / "play" / "pages.py"
    found = imports(path)
    assert "bunco_night.nights.selectors" in found  # absolute
    assert "bunco_night.play.models" in found  # from .models import Entry
    assert "bunco_night.play.state" in found  # from .state import ...
