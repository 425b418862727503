"""The example of the kernel-language contract: general matrix multiply, C = alpha*A*B + beta*C.

    vichls compile examples/gemm.py --target fpga

The loop order is PolyBench's: the j loop is innermost, so a schedule can pipeline it and
split B along its columns, e.g.

    s = vichls.customize(gemm); s.pipeline("j", ii=1); s.partition("B", dim=2, factor=4)

(The contract's second example, ``dot``, is in tests/kernels/realistic.py.)
"""

from vichls import int32, kernel

N = 8  # module-level int constants may appear in types and expressions


@kernel
def gemm(A: int32[N, N], B: int32[N, N], C: int32[N, N], alpha: int32, beta: int32):
    for i in range(N):
        for j in range(N):
            C[i, j] *= beta
        for k in range(N):
            for j in range(N):
                C[i, j] += alpha * A[i, k] * B[k, j]
