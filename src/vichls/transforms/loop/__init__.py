"""The loop-directive passes and ``apply_directives``, which runs a schedule's directives."""
