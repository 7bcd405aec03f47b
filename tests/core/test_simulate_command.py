"""`python manage.py simulate_night`: one JSON object, or a one-line error and exit 2."""

import contextlib
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import ManagementUtility, call_command

from bunco_night.rules.presets import preset
from tests.rules.test_simulate import check_night

ROOT = Path(__file__).resolve().parents[2]


def run_manage_py(*args):
    """`python manage.py simulate_night ARGS` in a process of its own."""
    return subprocess.run(
        [sys.executable, "manage.py", "simulate_night", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin", "DJANGO_SETTINGS_MODULE": "bunco_night.test_settings"},
    )


def run(*args):
    """The command line as manage.py runs it (ManagementUtility), in this process: a new
    Python for each of the 20 cases took a second or two each."""
    out, err, code = io.StringIO(), io.StringIO(), 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            ManagementUtility(["manage.py", "simulate_night", *args]).execute()
        except SystemExit as exit:
            code = exit.code or 0
    return subprocess.CompletedProcess(args, code, out.getvalue(), err.getvalue())


@pytest.mark.parametrize("run", [run, run_manage_py], ids=["in process", "manage.py"])
def test_manage_py_prints_a_night_or_one_line_and_exit_2(run):
    done = run("--players", "5", "--rules", "deluxe", "--seed", "1")
    assert done.returncode == 0 and json.loads(done.stdout)["layout"] == [3, 2]
    done = run("--players", "many")
    assert (done.returncode, done.stdout) == (2, "")
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr


@pytest.mark.parametrize(
    ("args", "players", "name", "sets"),
    [
        (["--players", "12", "--rules", "house", "--sets", "1", "--seed", "5"], 12, "house", 1),
        (["--players", "9", "--rules", "deluxe", "--seed", "2"], 9, "deluxe", 1),
        (["--players", "7", "--rules", "ladder", "--seed", "2"], 7, "ladder", 3),
        (["--players", "3", "--rules", "one_table"], 3, "one_table", 1),
        (["--players", "10", "--rules", "card_1904", "--seed", "9"], 10, "card_1904", 1),
        (
            ["--players", "11", "--rules", "two_dice", "--sets", "1", "--seed", "4"],
            11,
            "two_dice",
            1,
        ),
        (
            ["--players", "5", "--rules", "buck_dice", "--sets", "3", "--seed", "8"],
            5,
            "buck_dice",
            3,
        ),
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


def simulate(capsys, *args):
    call_command("simulate_night", *args)
    return json.loads(capsys.readouterr().out)


def test_two_dice_rolls_two_dice(capsys):
    """docs/rules.md section 9.2: "four people, but only two dice at a table"."""
    night = simulate(capsys, "--players", "8", "--rules", "two_dice", "--sets", "1")
    rolls = [r for rnd in night["rounds"] for t in rnd["tables"] for r in t["rolls"]]
    assert rolls and all(len(r["dice"]) == 2 for r in rolls)


def test_buck_dice_is_one_table_with_an_out_order(capsys):
    """docs/rules.md section 9.3: one table, seats as individuals, who went out in what order."""
    night = simulate(capsys, "--players", "6", "--rules", "buck_dice", "--seed", "3")
    assert night["layout"] == [6]
    (table,) = night["rounds"][0]["tables"]
    assert len(table["out"]) == 5 and table["loser"] not in table["out"]
    assert sorted(s["out"][0] for s in night["standings"]) == [1, 2, 3, 4, 5, 6]


@pytest.mark.parametrize("name", ["house", "deluxe", "two_dice"])
def test_round_minutes(capsys, name):
    """docs/rules.md section 3.8: a timed round says whether its time ran out."""
    night = simulate(
        capsys, "--players", "12", "--rules", name, "--sets", "1", "--round-minutes", "2"
    )
    check_night(night, 12, preset(name).with_(round_minutes=2), 1)
    assert all(isinstance(r["time_up"], bool) for r in night["rounds"])
    assert any(r["time_up"] for r in night["rounds"])


@pytest.mark.parametrize(
    "args",
    [
        ["--round-minutes", "121"],
        ["--round-minutes", "-1"],
        ["--rules", "buck_dice", "--round-minutes", "5"],
        ["--rules", "buck_dice", "--players", "21"],
        ["--rules", "two_dice", "--fill", "tables"],
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
