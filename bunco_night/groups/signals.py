"""What the groups app tells the apps above it, which it may not import."""

from django.dispatch import Signal

# ``player`` was retired or brought back (``retired``), sent in the change's transaction;
# the nights app's lists follow (docs/rules.md section 8.1).
player_retired = Signal()
