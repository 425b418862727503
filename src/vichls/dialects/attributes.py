"""The ``vichls`` dialect: the attributes vichls puts on xDSL's ops, declared once.

The loop level is xDSL's own dialects; what vichls adds to it travels as discardable
attributes named ``vichls.<name>``: the kernel's interface (on the module, the functions
and their arguments), the directives' requests, and the facts one pass hands the next (a
cycle from the scheduler, a port from the modulo scheduler, a mark from div-by-constant).
Each is declared here with the attribute its value must be (an xDSL constraint), what may
carry it, and what it means; passes take their names from here, never spell them.

``verify_attributes(module)`` checks every ``vichls.*`` attribute in a module against its
declaration: a name nobody declared, a value of the wrong kind, or an attribute on the
wrong carrier is a VerifyException naming the op and its place. vichls-opt runs it after
every pass, as it verifies the ops; the tests run it over the whole FPGA flow of the
regression corpus.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import affine, func, scf
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    UnitAttr,
)
from xdsl.ir import Attribute, Operation
from xdsl.irdl import AttrConstraint, VerificationContext, base
from xdsl.utils.exceptions import VerifyException

#: What may carry an attribute: the module, a function, a function's argument, a loop
#: (affine.for or scf.for) or any other op.
MODULE, FUNCTION, ARGUMENT, LOOP, OP = "module", "function", "argument", "loop", "op"


@dataclass(frozen=True)
class VichlsAttr:
    name: str
    value: AttrConstraint
    carriers: frozenset[str]
    doc: str


ATTRIBUTES: dict[str, VichlsAttr] = {}


def declare(name: str, value: type[Attribute], carriers: set[str], doc: str) -> str:
    """Declare ``vichls.<name>``; returns the full name, which the passes use."""
    full = f"vichls.{name}"
    assert full not in ATTRIBUTES, full
    ATTRIBUTES[full] = VichlsAttr(full, base(value), frozenset(carriers), doc)
    return full


# -- the kernel's interface (vichls/signature.py, docs/ir.md) ---------------------------------
TOP_ATTR = declare("top", StringAttr, {MODULE}, "the top kernel's function name")
KERNEL_ATTR = declare("kernel", UnitAttr, {FUNCTION}, "a function that is a kernel")
RET_ATTR = declare("ret_type", StringAttr, {FUNCTION}, "the scalar type a kernel returns")
NAME_ATTR = declare("name", StringAttr, {ARGUMENT, OP},
                    "a parameter's, local array's or stream's source name")
TYPE_ATTR = declare("type", StringAttr, {ARGUMENT, OP},
                    "the kernel-language type of a parameter (its signedness)")
STREAM_ATTR = declare("stream", StringAttr, {ARGUMENT}, "a stream parameter's direction")
DEPTH_ATTR = declare("depth", IntegerAttr, {ARGUMENT, LOOP},
                     "a stream parameter's FIFO depth; a pipelined loop's depth in cycles")
# -- directives (frontend/customize.py) ------------------------------------------------------
LABEL_ATTR = declare("label", StringAttr, {LOOP, OP}, "a loop's label (vichls.loop name=)")
LOOP_NAME_ATTR = declare("loop_name", StringAttr, {LOOP},
                         "a loop's name while the directives run (analysis/loop_names.py)")
PIPELINE_ATTR = declare("pipeline", IntegerAttr, {LOOP}, "the II the pipeline directive asks")
FUSED_ATTR = declare("fused", StringAttr, {LOOP},
                     "the loops a pipelined loop was fused from, and the shift of each")
DATAFLOW_ATTR = declare("dataflow", StringAttr, {FUNCTION},
                        "a dataflow top and its block protocol (ap_ctrl_hs, ap_ctrl_chain)")
REQUESTS_ATTR = declare("partition_requests", ArrayAttr, {FUNCTION},
                        "the partition directives, applied by the FPGA back end")
INTERFACES_ATTR = declare("interfaces", ArrayAttr, {FUNCTION},
                          "the interface directives: [{name, mode, options}] (interface/spec.py)")
FLAT_COUNTERS_ATTR = declare("flat_counters", StringAttr, {LOOP, OP},
                             "a flattened triangular band and its counter registers")
# -- facts the FPGA passes hand each other ---------------------------------------------------
PARTITIONS_ATTR = declare("partitions", DictionaryAttr, {FUNCTION},
                          "the arrays apply-partitions split, and how")
ROM_ATTR = declare("rom", DenseIntOrFPElementsAttr, {OP},
                   "the contents of a ROM cell (a constant array), row-major")
BANK_OF_ATTR = declare("bank_of", StringAttr, {ARGUMENT, OP},
                       "the array a bank was split from")
FLOOR_QUOTIENT_ATTR = declare("floor_quotient", ArrayAttr, {OP},
                              "n // d of a non-negative n, as div-by-constant made it: [d, id]")
FLOOR_REMAINDER_ATTR = declare("floor_remainder", ArrayAttr, {OP},
                               "n % d of a non-negative n, as div-by-constant made it: [d, id]")
DIVIDEND_ATTR = declare("dividend", IntegerAttr, {OP},
                        "the op of a division by a constant that reads n: its id")
STEPPED_ATTR = declare("stepped", ArrayAttr, {OP},
                       "a pipelined loop's variable divided by a constant, read from the "
                       "register that steps it (step-divided-ivs): [kind, d, id, parent id, "
                       "largest value]")
PREDICATED_ATTR = declare("predicated", UnitAttr, {OP},
                          "an scf.if whose branches run as selects (predicate-ifs)")
PIPELINED_DIVIDER_ATTR = declare("pipelined_divider", UnitAttr, {OP},
                                 "a division on a divider that takes operands every cycle")
UNIT_ATTR = declare("unit", IntegerAttr, {OP}, "the shared multiplier an op is bound to")
SIGNED_PRODUCT_ATTR = declare("signed_product", UnitAttr, {OP},
                              "a structural comb.mul of sign-extended operands: the Verilog "
                              "multiplies them as $signed, which synthesis trims to their "
                              "sources' widths (one DSP block)")
SHARERS_ATTR = declare("sharers", IntegerAttr, {OP}, "how many ops share that multiplier")
CYCLE_ATTR = declare("cycle", IntegerAttr, {OP, LOOP}, "the cycle an op starts in")
READY_ATTR = declare("ready", IntegerAttr, {OP, LOOP}, "the cycle an op's result is ready in")
DECIDED_ATTR = declare("decided", IntegerAttr, {OP},
                       "the cycle a control decision reads its condition in")
II_ATTR = declare("ii", IntegerAttr, {LOOP}, "the II a pipelined loop was scheduled at")
REASON_ATTR = declare("ii_reason", StringAttr, {LOOP}, "why the II is above the one asked")
PORT_ATTR = declare("port", IntegerAttr, {OP}, "the memory port (0 or 1) of an access")
FORWARDED_ATTR = declare("forwarded", UnitAttr, {OP},
                         "a register read in the cycle the previous iteration writes it: "
                         "it reads the value written")
DUAL_PORT_ATTR = declare("dual_port", UnitAttr, {ARGUMENT, OP},
                         "a memory whose two ports the modulo scheduler uses")
# -- the CPU back end (vichls/cpu/) ----------------------------------------------------------
PUT_BOUND_ATTR = declare("put_bound", IntegerAttr, {OP},
                         "the most puts to a local stream per call (-1: unknown)")
ARG_PUT_BOUNDS_ATTR = declare("stream_put_bounds", ArrayAttr, {FUNCTION},
                              "the most puts per call to each stream parameter")
ENTRY_PUT_BOUNDS_ATTR = declare("stream_entry_put_bounds", ArrayAttr, {MODULE},
                                "the put bounds of the C entry point's streams")
SITES_ATTR = declare("stream_sites", ArrayAttr, {MODULE},
                     "the source place of every stream get and put (for errors)")


def _carrier(op: Operation) -> str:
    if isinstance(op, ModuleOp):
        return MODULE
    if isinstance(op, func.FuncOp):
        return FUNCTION
    if isinstance(op, (affine.ForOp, scf.ForOp)):
        return LOOP
    return OP


def _a(carrier: str) -> str:
    return ("an " if carrier[0] in "aeiou" else "a ") + carrier


class VichlsAttributeError(VerifyException):
    """A ``vichls.*`` attribute that breaks its declaration; ``op`` carries it."""

    def __init__(self, op: Operation, message: str):
        super().__init__(f"{op.name}: {message}")
        self.op = op


def _check(name: str, value: Attribute, carrier: str, op: Operation) -> None:
    decl = ATTRIBUTES.get(name)
    if decl is None:
        raise VichlsAttributeError(op, f"'{name}' is not an attribute of the vichls dialect "
                                       "(dialects/attributes.py declares them)")
    if carrier not in decl.carriers:
        raise VichlsAttributeError(op, f"'{name}' cannot be on {_a(carrier)} (only on "
                                       f"{', '.join(sorted(decl.carriers))})")
    try:
        decl.value.verify(value, VerificationContext())
    except VerifyException as e:
        raise VichlsAttributeError(op, f"'{name}' = {value}: {e}") from None


def verify_attributes(module: Operation) -> None:
    """Every ``vichls.*`` attribute in ``module`` is declared, of its kind and on a carrier
    it may be on (see the module docstring)."""
    for op in module.walk():
        carrier = _carrier(op)
        for name, value in op.attributes.items():
            if name.startswith("vichls."):
                _check(name, value, carrier, op)
        if isinstance(op, func.FuncOp) and op.arg_attrs is not None:
            for entry in op.arg_attrs.data:
                for name, value in entry.data.items():
                    if name.startswith("vichls."):
                        _check(name, value, ARGUMENT, op)
