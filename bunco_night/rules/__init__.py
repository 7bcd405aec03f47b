"""The Bunco rules engine: pure Python, no Django (docs/rules.md).

Scoring a roll, when a round ends, table layouts, movement, standings and
prizes. Services load rows, call these functions with plain values and save
what comes back.
"""
