"""What the groups app tells the apps above it, which it may not import."""

from django.dispatch import Signal

# A player was retired or brought back (keywords ``player`` and ``retired``), sent inside
# the change's transaction: the nights app takes a retired player off the lists of nights
# not started yet, keeping what their places said, and puts them back as they were when the
# player is brought back (docs/rules.md section 8.1).
player_retired = Signal()
