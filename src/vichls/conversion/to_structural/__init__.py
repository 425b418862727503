"""The scheduled loop level to the structural level (components, cells, groups, control)."""
