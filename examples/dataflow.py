"""Three stages chained through local arrays, each pipelined, running concurrently.

    vichls compile examples/dataflow.py   # prints the tasks, the FIFOs between them and the
                                          # bottleneck
    vichls sim examples/dataflow.py --runs 3

Each loop writes its array once per element, in order, and the next loop reads it in the
same order, so with s.dataflow() the arrays become FIFOs: the three loops overlap and the
kernel takes about N cycles instead of 3 N. (Without s.dataflow(), these three pipelined
loops in a row are fused into one pipeline, which overlaps them as well; dataflow is what
overlaps stages that cannot fuse: nests of other shapes, sub-kernels, streams.)
"""

import vichls
from vichls import int32, kernel

N = 1024


@kernel
def stages(x: int32[N], y: int32[N]):
    a: int32[N] = 0
    b: int32[N] = 0
    for i in range(N):
        a[i] = x[i] * 3 + 1
    for j in range(N):
        b[j] = a[j] * a[j] - j
    for k in range(N):
        y[k] = (b[k] >> 2) + 7


s = vichls.customize(stages).pipeline("i").pipeline("j").pipeline("k").dataflow()
