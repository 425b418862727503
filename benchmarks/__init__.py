"""Benchmark suites of vichls (a regular package: xdsl installs a top-level `benchmarks` that
would otherwise shadow this directory)."""
