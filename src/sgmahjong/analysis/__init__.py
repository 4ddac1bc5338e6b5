"""Hand analysis: winning shapes, waits, shanten and useful tiles (pure, table-driven)."""
