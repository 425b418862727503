"""A first kernel: element-wise vector addition.

    vichls compile examples/vadd.py --target fpga

Each of the three arrays becomes an ap_memory port set (``a_address0``, ``a_ce0``,
``a_q0``, ...); ``c[i] = a[i] + b[i]`` wraps at 32 bits, exactly like the Python call:

    >>> import numpy as np
    >>> a = np.arange(8, dtype=np.int32); b = np.full(8, 10, dtype=np.int32)
    >>> c = np.zeros(8, dtype=np.int32)
    >>> vadd(a, b, c); c.tolist()
    [10, 11, 12, 13, 14, 15, 16, 17]
"""

from vichls import int32, kernel

N = 8


@kernel
def vadd(a: int32[N], b: int32[N], c: int32[N]):
    for i in range(N):
        c[i] = a[i] + b[i]
