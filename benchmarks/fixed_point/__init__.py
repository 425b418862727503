"""Fixed-point kernels of the benchmarks (the types issue): see benchmarks/fixed_point_fir.py."""
