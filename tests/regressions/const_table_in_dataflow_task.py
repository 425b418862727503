# vichls fuzz reproducer: program seed 3614335329 (vichls fuzz --seed 9090); failed with:
# fpga crash: TypeError: FpgaError.__init__() takes from 2 to 3 positional arguments but 5
# were given. A dataflow task read a constant array: the task's module was built without
# the module's memref.globals (so the task had no ROM to read), and re-raising that error
# with the task's name called FpgaError the way an older signature took it. Fixed: the
# task modules carry the constant arrays; the error keeps the op's location.
from vichls import int_, int8, int64, kernel, uint_, uint8, uint64
import vichls

K0 = vichls.const([0, 0], uint8)
K1 = vichls.const([3, -4, 5, 127], int8)


@kernel
def top(A0: int_(5)[8], A1: uint_(63)[2], A2: uint8[2], s0: uint64, s1: int_(12)) -> int64:
    for i in range(8):
        A0[i] = A0[i] + K1[i & 3]
    for j in range(2):
        A2[j] = A2[j] ^ K0[j]
    return K0[0] + K1[s1 & 3]


s = vichls.customize(top)
s.dataflow()

ARGS_SEED = 3614335329
