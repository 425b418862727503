# vichls fuzz reproducer: program seed 4265574164 (vichls fuzz --seed 777 --directives
# dataflow,pipeline,unroll,partition); failed with: the Verilator build of the simulation
# failed ("syntax error, unexpected task"). A dataflow kernel with no call and no loop is one
# task, which was named "task", a Verilog keyword, as its instance in the top. Fixed: such a
# task is named "body", and the dataflow top renames any instance named like a keyword.
from vichls import bool_, int8, int16, int_, kernel, uint_
import vichls


@kernel
def helper(X: int_(1)[2, 4], y: int8):
    pass


@kernel
def top(A0: int16[2, 8], A1: int_(1)[2, 4], A2: int16[4, 4], s0: bool_, s1: int8, s2: uint_(3)) -> int_(33):
    return 1


s = vichls.customize(top)
s.dataflow()

ARGS_SEED = 4265574164
