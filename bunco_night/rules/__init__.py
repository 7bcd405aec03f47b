"""The Bunco rules engine (docs/rules.md): pure Python, no Django; plain values in and out."""
