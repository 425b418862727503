"""Analyses: questions about the IR, answered without changing it (dependences, value
ranges, linear forms, loop names and bounds, memory effects, stream counts, constant
evaluation). Transforms and the scheduler ask them; they import no transform."""
