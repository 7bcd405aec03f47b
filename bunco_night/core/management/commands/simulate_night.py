"""Play a whole night through the rules engine and print it as one JSON object."""

import json
import sys

from django.core.management.base import BaseCommand, CommandError

from bunco_night.rules.errors import RuleError
from bunco_night.rules.layouts import MIN_PLAYERS
from bunco_night.rules.presets import DICE_GAME, FILLS, MAX_ROUND_MINUTES, PRESETS, preset
from bunco_night.rules.simulate import simulate_night

MAX_SIMULATED = 500


class Command(BaseCommand):
    help = "Simulate a Bunco night with seeded random dice and print it as JSON."

    def create_parser(self, prog_name, subcommand, **kwargs):
        parser = super().create_parser(prog_name, subcommand, **kwargs)

        def one_line_error(message):
            sys.stderr.write(f"simulate_night: error: {message}\n")
            sys.exit(2)

        parser.error = one_line_error
        return parser

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, default=12, help="2 to 500 players")
        parser.add_argument("--rules", choices=sorted(PRESETS), default="house")
        parser.add_argument("--fill", choices=FILLS, default=None, help="small tables or ghosts")
        parser.add_argument("--sets", type=int, default=None, help="sets in the night (1-12)")
        parser.add_argument("--seed", type=int, default=0, help="seed for the dice")
        parser.add_argument(
            "--round-minutes",
            type=int,
            default=None,
            help=f"minutes per round, 0 (no clock) to {MAX_ROUND_MINUTES}",
        )

    def handle(self, *args, players, rules, fill, sets, seed, round_minutes, **options):
        if not MIN_PLAYERS <= players <= MAX_SIMULATED:
            raise CommandError(f"--players must be 2 to {MAX_SIMULATED}.", returncode=2)
        if sets is not None and not 1 <= sets <= 12:
            raise CommandError("--sets must be 1 to 12.", returncode=2)
        if round_minutes is not None and not 0 <= round_minutes <= MAX_ROUND_MINUTES:
            raise CommandError(f"--round-minutes must be 0 to {MAX_ROUND_MINUTES}.", returncode=2)
        try:
            chosen = preset(rules)
            if fill is not None and chosen.game == DICE_GAME:
                chosen = chosen.with_(fill=fill)
            if round_minutes is not None:
                chosen = chosen.with_(round_minutes=round_minutes)
            night = simulate_night(players=players, rules=chosen, sets=sets, seed=seed)
        except RuleError as error:
            raise CommandError(error.message, returncode=2) from error
        self.stdout.write(json.dumps(night, separators=(",", ":")))
