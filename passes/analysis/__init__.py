"""Analyses the passes share: call graph, value ranges, congruences, Mosaic's alignment
rules, linear indices."""
