"""What the nights app tells the apps above it, which it may not import."""

from django.dispatch import Signal

# The host set who holds ``attendance``'s place, sent in the change's transaction; the
# invites app stops asking substitutes for it (docs/rules.md section 8.8).
place_set_by_host = Signal()
