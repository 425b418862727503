"""The graph level: a dataflow region split into tasks joined by channels."""
