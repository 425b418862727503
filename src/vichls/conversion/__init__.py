"""Conversions between levels."""
