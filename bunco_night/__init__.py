"""Bunco Night: runs a group's Bunco party night from start to finish."""
