"""What the nights app tells the apps above it, which it may not import."""

from django.dispatch import Signal

# The host set who holds a place on a night's list (keyword ``attendance``, as saved), sent
# inside the change's transaction: the invites app stops asking substitutes for a place
# the host has filled (docs/rules.md section 8.8).
place_set_by_host = Signal()
