"""The Bunco rules engine: pure Python, no Django (docs/rules.md).

Scoring a roll, when a round ends, table layouts, movement, re-seating when
people come and go, standings and prizes; Buck Dice (``buck``) and the Bonanza chip
ledger (``bonanza``). Services load rows, call these functions with plain values and
save what comes back.
"""
