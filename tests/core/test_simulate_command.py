"""`python manage.py simulate_night`: one JSON object, or a one-line error and exit 2."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command

from bunco_night.rules.presets import preset
from tests.rules.test_simulate import check_night

ROOT = Path(__file__).resolve().parents[2]


def run(*args):
    return subprocess.run(
        [sys.executable, "manage.py", "simulate_night", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin", "DJANGO_SETTINGS_MODULE": "bunco_night.test_settings"},
    )


@pytest.mark.parametrize(
    ("args", "players", "name", "sets"),
    [
        (["--players", "12", "--rules", "house", "--sets", "1", "--seed", "5"], 12, "house", 1),
        (["--players", "9", "--rules", "deluxe", "--seed", "2"], 9, "deluxe", 1),
        (["--players", "7", "--rules", "ladder", "--seed", "2"], 7, "ladder", 3),
        (["--players", "3", "--rules", "one_table"], 3, "one_table", 1),
        (["--players", "10", "--rules", "card_1904", "--seed", "9"], 10, "card_1904", 1),
    ],
)
def test_prints_one_valid_json_night(args, players, name, sets):
    done = run(*args)
    assert done.returncode == 0, done.stderr
    night = json.loads(done.stdout)
    check_night(night, players, preset(name), sets)


def test_fill_with_ghosts():
    done = run("--players", "10", "--rules", "house", "--fill", "ghosts", "--sets", "1")
    night = json.loads(done.stdout)
    assert night["layout"] == [4, 4, 4]
    ghosts = [s for t in night["rounds"][0]["tables"] for s in t["seats"] if s["ghost"]]
    assert [g["player"] for g in ghosts] == ["Ghost 1", "Ghost 2"] or len(ghosts) == 2
    check_night(night, 10, preset("house").with_(fill="ghosts"), 1)


@pytest.mark.parametrize(
    "args",
    [
        ["--players", "1"],
        ["--players", "501"],
        ["--players", "many"],
        ["--rules", "yahtzee"],
        ["--fill", "chairs"],
        ["--sets", "0"],
        ["--rules", "ladder", "--fill", "tables"],
        ["--bogus"],
    ],
)
def test_bad_options_give_one_line_and_exit_2(args):
    done = run(*args)
    assert done.returncode == 2
    assert done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr


def test_call_command_in_process(capsys):
    call_command("simulate_night", "--players", "5", "--rules", "deluxe", "--seed", "1")
    night = json.loads(capsys.readouterr().out)
    assert night["layout"] == [3, 2]
