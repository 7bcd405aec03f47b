"""What each printed document shows, as plain values, one module each (read only)."""

from .buck import BUCK_PAD_COLUMNS, BuckPad, buck_pads
from .cards import TableCard, table_cards
from .how_we_play import RulesCard, rules_card
from .master import MasterSheet, master_sheet
from .pads import ScorePad, pad_rule, score_pads
from .prizes import PrizeSheet, prize_sheet
from .roster import RosterSheet, roster_sheet
from .season import SeasonSheet, season_sheet
from .shared import PlayLinks, paper
from .tally import TallySheets, check_blank_count, tally_sheets

__all__ = [
    "BUCK_PAD_COLUMNS",
    "BuckPad",
    "MasterSheet",
    "PlayLinks",
    "PrizeSheet",
    "RosterSheet",
    "RulesCard",
    "ScorePad",
    "SeasonSheet",
    "TableCard",
    "TallySheets",
    "buck_pads",
    "check_blank_count",
    "master_sheet",
    "pad_rule",
    "paper",
    "prize_sheet",
    "roster_sheet",
    "rules_card",
    "score_pads",
    "season_sheet",
    "table_cards",
    "tally_sheets",
]
