"""PTO passes: per-target verification, SSA-to-DPS lowering, scratch tiles and memory planning."""
