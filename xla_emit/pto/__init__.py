"""Pure-Python facts about the PTO tile ISA: element sizes, temporary-tile
sizes, memory capacities per target and the ConvTile reorderings.

Nothing here imports xDSL; the `pto` dialect, its passes and the interpreter
build on these functions.
"""
