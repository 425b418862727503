# vichls fuzz reproducer: program seed 2602510382 (vichls fuzz --seed 2); fails with:
# directives: AssertionError in loop_utils._materialise (replace_induction_variable), raised
# by s.flatten when the innermost loop of the band runs once; shrunk by hand from the
# fuzzer's reproducer (range(2) x range(1) fails, range(2) x range(2) and range(1) x
# range(2) pass). Fixed: the index arithmetic goes in front of an anchor op, not in front
# of the body's first op, which the replacement may have rewritten.
from vichls import int32, kernel
import vichls


@kernel
def top(A0: int32[2, 2], s0: int32) -> int32:
    for i18 in range(2):
        for i19 in range(1):
            A0[i18, i19] &= 5
    return s0


s = vichls.customize(top)
s.flatten('i18', 'i19')

ARGS_SEED = 2602510382
