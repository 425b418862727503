# expect: 5:1: importing the kernel file failed: ModuleNotFoundError: No module
from vichls import kernel, bool_, int8, int16, int32, int64, int_, uint8, uint16, uint32, uint64, uint_
import vichls
N = 8
import does_not_exist_module
@kernel
def f(a: int32):
    pass
