"""What the rule sets share beyond the engine's interface: pieces of their projections
that both build the same way (no role, faction or rule of either is named here)."""
