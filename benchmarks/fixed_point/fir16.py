from vichls import kernel, fixed

T = 16
N = 256
q = fixed(16, 4, quant="rnd", overflow="sat")


@kernel
def fir16(x: fixed(18, 4)[N + T], taps: fixed(16, 2)[T], y: q[N]):
    window: fixed(18, 4)[T] = 0
    for k in range(T - 1):
        window[k + 1] = x[k]
    for n in range(N):
        for k in range(T - 1):
            window[k] = window[k + 1]
        window[T - 1] = x[n + T - 1]
        acc: fixed(40, 12) = 0.0
        for k in range(T):
            acc += taps[k] * window[k]
        y[n] = acc
