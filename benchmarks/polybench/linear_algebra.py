"""PolyBench/C 4.2 linear-algebra kernels at size 8 (every dimension), in int32.

Each kernel keeps PolyBench's loop order, statements and parameter order (the problem sizes,
which are compile-time constants here, are dropped). ``double`` becomes ``int32`` and the
constants alpha = 1.5 and beta = 1.2 of the PolyBench drivers become the integer scalar
arguments alpha = 3 and beta = 2. Arithmetic wraps at 32 bits as everywhere in vichls.

trisolv divides by the diagonal: it uses floored integer division ``//`` (the language's
division; the input makers give a positive diagonal, so a zero divisor does not occur and
results only differ from C's truncating ``/`` when a partial result is negative).
"""

from vichls import int32, kernel

N = 8
NI = NJ = NK = NL = NM = N


@kernel
def kernel_gemm(alpha: int32, beta: int32, C: int32[NI, NJ], A: int32[NI, NK], B: int32[NK, NJ]):
    for i in range(NI):
        for j in range(NJ):
            C[i][j] *= beta
        for k in range(NK):
            for j in range(NJ):
                C[i][j] += alpha * A[i][k] * B[k][j]


@kernel
def kernel_2mm(alpha: int32, beta: int32, tmp: int32[NI, NJ], A: int32[NI, NK],
               B: int32[NK, NJ], C: int32[NJ, NL], D: int32[NI, NL]):
    for i in range(NI):
        for j in range(NJ):
            tmp[i][j] = 0
            for k in range(NK):
                tmp[i][j] += alpha * A[i][k] * B[k][j]
    for i in range(NI):
        for j in range(NL):
            D[i][j] *= beta
            for k in range(NJ):
                D[i][j] += tmp[i][k] * C[k][j]


@kernel
def kernel_3mm(E: int32[NI, NJ], A: int32[NI, NK], B: int32[NK, NJ], F: int32[NJ, NL],
               C: int32[NJ, NM], D: int32[NM, NL], G: int32[NI, NL]):
    for i in range(NI):
        for j in range(NJ):
            E[i][j] = 0
            for k in range(NK):
                E[i][j] += A[i][k] * B[k][j]
    for i in range(NJ):
        for j in range(NL):
            F[i][j] = 0
            for k in range(NM):
                F[i][j] += C[i][k] * D[k][j]
    for i in range(NI):
        for j in range(NL):
            G[i][j] = 0
            for k in range(NJ):
                G[i][j] += E[i][k] * F[k][j]


@kernel
def kernel_atax(A: int32[N, N], x: int32[N], y: int32[N], tmp: int32[N]):
    for i in range(N):
        y[i] = 0
    for i in range(N):
        tmp[i] = 0
        for j in range(N):
            tmp[i] = tmp[i] + A[i][j] * x[j]
        for j in range(N):
            y[j] = y[j] + A[i][j] * tmp[i]


@kernel
def kernel_bicg(A: int32[N, N], s: int32[N], q: int32[N], p: int32[N], r: int32[N]):
    for i in range(N):
        s[i] = 0
    for i in range(N):
        q[i] = 0
        for j in range(N):
            s[j] = s[j] + r[i] * A[i][j]
            q[i] = q[i] + A[i][j] * p[j]


@kernel
def kernel_gesummv(alpha: int32, beta: int32, A: int32[N, N], B: int32[N, N], tmp: int32[N],
                   x: int32[N], y: int32[N]):
    for i in range(N):
        tmp[i] = 0
        y[i] = 0
        for j in range(N):
            tmp[i] = A[i][j] * x[j] + tmp[i]
            y[i] = B[i][j] * x[j] + y[i]
        y[i] = alpha * tmp[i] + beta * y[i]


@kernel
def kernel_mvt(x1: int32[N], x2: int32[N], y_1: int32[N], y_2: int32[N], A: int32[N, N]):
    for i in range(N):
        for j in range(N):
            x1[i] = x1[i] + A[i][j] * y_1[j]
    for i in range(N):
        for j in range(N):
            x2[i] = x2[i] + A[j][i] * y_2[j]


@kernel
def kernel_trisolv(L: int32[N, N], x: int32[N], b: int32[N]):
    for i in range(N):
        x[i] = b[i]
        for j in range(i):
            x[i] -= L[i][j] * x[j]
        x[i] = x[i] // L[i][i]


@kernel
def kernel_syrk(alpha: int32, beta: int32, C: int32[N, N], A: int32[N, NM]):
    for i in range(N):
        for j in range(i + 1):
            C[i][j] *= beta
        for k in range(NM):
            for j in range(i + 1):
                C[i][j] += alpha * A[i][k] * A[j][k]


@kernel
def kernel_syr2k(alpha: int32, beta: int32, C: int32[N, N], A: int32[N, NM], B: int32[N, NM]):
    for i in range(N):
        for j in range(i + 1):
            C[i][j] *= beta
        for k in range(NM):
            for j in range(i + 1):
                C[i][j] += A[j][k] * alpha * B[i][k] + B[j][k] * alpha * A[i][k]


@kernel
def kernel_trmm(alpha: int32, A: int32[NM, NM], B: int32[NM, N]):
    for i in range(NM):
        for j in range(N):
            for k in range(i + 1, NM):
                B[i][j] += A[k][i] * B[k][j]
            B[i][j] = alpha * B[i][j]


@kernel
def kernel_doitgen(A: int32[N, N, N], C4: int32[N, N], sum: int32[N]):
    for r in range(N):
        for q in range(N):
            for p in range(N):
                sum[p] = 0
                for s in range(N):
                    sum[p] += A[r][q][s] * C4[s][p]
            for p in range(N):
                A[r][q][p] = sum[p]


@kernel
def kernel_gemver(alpha: int32, beta: int32, A: int32[N, N], u1: int32[N], v1: int32[N],
                  u2: int32[N], v2: int32[N], w: int32[N], x: int32[N], y: int32[N],
                  z: int32[N]):
    for i in range(N):
        for j in range(N):
            A[i][j] = A[i][j] + u1[i] * v1[j] + u2[i] * v2[j]
    for i in range(N):
        for j in range(N):
            x[i] = x[i] + beta * A[j][i] * y[j]
    for i in range(N):
        x[i] = x[i] + z[i]
    for i in range(N):
        for j in range(N):
            w[i] = w[i] + alpha * A[i][j] * x[j]
