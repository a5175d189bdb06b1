"""Analyses the passes share.

Call graph, value ranges, congruences, Mosaic's alignment rules, linear indices,
the VMI passes' IR invariants and PTOAS's backend rules.
"""
