"""Passes on the structural level: control compilation to FSMs, stall insertion."""
