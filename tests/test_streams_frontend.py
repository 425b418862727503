"""Streams in the front end: the checker's rules and errors, the loop-level IR they become
(docs/ir.md, "Streams") and the golden reference's meaning (get consumes, put appends, in
place; a get from an empty stream is a located error)."""

from __future__ import annotations

import copy
import itertools
import textwrap

import numpy as np
import pytest
from xdsl.dialects import affine, func, scf

from kernels.streams import STREAM_CASES, chain3, contents, keep_even, scale_saturate
from vichls import int32, stream, uint8, uint_
from vichls.dialects import stream as ir_stream
from vichls.errors import KernelError, VichlsError
from vichls.frontend.kernel import load_source
from vichls.frontend.mlir_input import load_mlir, print_module
from vichls.errors import StreamUnderflowError
from vichls.frontend.reference import bounded_reference
from vichls.signature import KernelArgumentError, signature_of, top_function
from vichls.types import StreamEmptyError, StreamType, bool_, int_

HEADER = "from vichls import kernel, int32, uint8, bool_, int_, stream\nimport vichls\n"
_counter = itertools.count()


def load(snippet: str) -> dict:
    """Kernels of ``snippet`` (its first line is line 1 after the two-line HEADER)."""
    source = HEADER + textwrap.dedent(snippet).lstrip("\n")
    return load_source(source, f"<streams-{next(_counter)}>")


# (snippet, the kernel to check, message fragment, line and column within the snippet)
ERRORS = [
    ("""
@kernel
def f(x: stream[int32], n: int32):
    v = x.get()
    x.put(v)
""", "f", "both got from and put to", 4, 5),
    ("""
@kernel
def f(x: stream[int32], n: int32):
    pass
""", "f", "never used", 2, 7),
    ("""
@kernel
def g(a: stream[int32]):
    a.put(1)

@kernel
def f(x: stream[int32]):
    v = x.get()
    g(x)
""", "f", "both got from and put to", 8, 7),
    ("""
@kernel
def f(x: stream[int32], y: stream[int32]):
    y.put(x + 1)
""", "f", "stream 'x' used as a value", 3, 11),
    ("""
@kernel
def f(x: stream[int32], y: stream[int32]):
    y.put(x[0])
""", "f", "cannot be indexed", 3, 11),
    ("""
@kernel
def f(x: stream[int32]):
    q = x
""", "f", "used as a value", 3, 9),
    ("""
@kernel
def f(x: stream[int32]) -> int32:
    return x
""", "f", "used as a value", 3, 12),
    ("""
@kernel
def f(x: stream[int32], y: stream[int32]):
    if x == y:
        y.put(1)
""", "f", "used as a value", 3, 8),
    ("""
@kernel
def f(x: stream[int32], A: int32[4]):
    A[0] = x
""", "f", "used as a value", 3, 12),
    ("""
@kernel
def f(x: stream[int32[4]]):
    pass
""", "f", "a stream holds scalars", 2, 17),
    ("""
@kernel
def f(x: stream[int32][4]):
    pass
""", "f", "arrays of streams", 2, 10),
    ("""
@kernel
def f(n: int32):
    for i in range(n):
        q = stream[int32]()
""", "f", "top level", 4, 9),
    ("""
@kernel
def f(n: int32):
    if n > 0:
        q = stream[int32]()
""", "f", "top level", 4, 9),
    ("""
@kernel
def f(y: stream[int32]):
    v = y.put(1)
""", "f", "gives no value", 3, 9),
    ("""
@kernel
def f(x: stream[int32]):
    v = x.get(1)
""", "f", "takes no arguments", 3, 9),
    ("""
@kernel
def f(x: stream[int32]):
    x.empty()
""", "f", "get() and put(value) only", 3, 5),
    ("""
@kernel
def g(a: stream[int32]):
    v = a.get()

@kernel
def f(n: int32):
    g(n)
""", "f", "must be a stream variable", 7, 7),
    ("""
@kernel
def g(a: stream[int32]):
    v = a.get()

@kernel
def f(x: stream[uint8]):
    g(x)
""", "f", "must be a stream of int32", 7, 7),
    ("""
@kernel
def g(a: int32):
    pass

@kernel
def f(x: stream[int32]):
    v = x.get()
    g(x)
""", "f", "used as a value", 8, 7),
    ("""
@kernel
def f(n: int32):
    q = stream[int32]()
    q = stream[int32]()
""", "f", "cannot assign to stream", 4, 5),
    ("""
@kernel
def f(n: int32):
    q: stream[int32, 4] = stream[int32, 8]()
""", "f", "declared stream[int32, 4] but made as stream[int32, 8]", 3, 27),
    ("""
@kernel
def f(n: int32) -> stream[int32]:
    pass
""", "f", "not a stream", 2, 20),
    ("""
@kernel
def f(y: stream[int32]):
    y.put(1, 2)
""", "f", "put() takes one value", 3, 5),
    ("""
@kernel
def f(x: stream[int32], y: stream[int32]):
    if 0 < x.get() < 5:
        y.put(1)
""", "f", "comparison chain", 3, 8),
    ("""
@kernel
def f(x: stream[int32], A: int32[4]):
    A[x.get()] += 1
""", "f", "augmented assignment", 3, 5),
    ("""
@kernel
def f(x: stream[int32]):
    v = x.get
""", "f", "used only as", 3, 9),
    ("""
@kernel
def f(n: int32):
    q = stream[int32]([1, 2])
    q.put(n)
""", "f", "starts empty", 3, 9),
    ("""
@kernel
def f(x: stream[int32, 0]):
    v = x.get()
""", "f", "positive constant", 2, 24),
]


@pytest.mark.parametrize("snippet,name,fragment,line,col", ERRORS,
                         ids=[f"{e[2][:24]}-{i}" for i, e in enumerate(ERRORS)])
def test_stream_misuse_is_a_located_kernel_error(snippet, name, fragment, line, col):
    ns = load(snippet)
    with pytest.raises(KernelError) as info:
        ns[name].tree()
    err = info.value
    assert fragment in err.message
    assert err.filename.startswith("<streams-")
    assert (err.line, err.col) == (line + 2, col), str(err)


# -- accepted forms and the signature -----------------------------------------------------------


def test_directions_and_depths_in_the_signature():
    ns = load("""
@kernel
def g(a: stream[int32], b: vichls.stream[int32, 8]):
    b.put(a.get())

@kernel
def f(x: stream[int32, 3], y: stream[int32], n: int32):
    q: stream[int32, 16] = stream[int32, 16]()
    for i in range(n):
        g(x, q)
    g(q, y)
""")
    params = ns["f"].signature.params
    assert [(p.name, p.type, p.direction) for p in params] == [
        ("x", StreamType(int32, 3), "in"), ("y", StreamType(int32, 2), "out"), ("n", int32, None)]
    assert [p.is_stream for p in params] == [True, True, False]
    sig_g = ns["g"].signature
    assert [p.direction for p in sig_g.params] == ["in", "out"]
    module = ns["f"].module()
    assert signature_of(top_function(module)) == ns["f"].signature


# -- the loop-level IR ------------------------------------------------------------------------


def _ops(f, kind):
    return [o for o in f.walk() if isinstance(o, kind)]


def test_ir_of_a_chain_of_kernels_through_local_streams():
    module = chain3.module()
    funcs = {f.sym_name.data: f for f in module.ops}
    assert list(funcs) == ["chain_load", "chain_compute", "chain_store", "chain3"]
    top = funcs["chain3"]
    creates = _ops(top, ir_stream.CreateOp)
    assert [c.attributes["vichls.name"].data for c in creates] == ["loaded", "computed"]
    assert all(c.result.type == ir_stream.StreamType(ir_stream.IntegerType(32))
               and c.depth.value.data == 4 for c in creates)
    # creates sit with the allocas at the top of the entry block
    entry_ops = list(top.body.blocks[0].ops)
    assert entry_ops[:2] == creates
    calls = _ops(top, func.CallOp)
    assert [c.callee.root_reference.data for c in calls] == ["chain_load", "chain_compute",
                                                             "chain_store"]
    assert calls[0].operands[1] is creates[0].result
    assert list(calls[1].operands) == [creates[0].result, creates[1].result]
    compute = funcs["chain_compute"]
    attrs = [d.data for d in compute.arg_attrs.data]
    assert [(a["vichls.name"].data, a["vichls.type"].data, a["vichls.stream"].data)
            for a in attrs] == [("inp", "int32", "in"), ("out", "int32", "out")]
    # the counted loop stays affine with stream ops inside
    (loop,) = _ops(compute, affine.ForOp)
    assert _ops(loop, ir_stream.GetOp) and _ops(loop, ir_stream.PutOp)


def test_get_and_put_carry_their_source_locations():
    module = scale_saturate.module()
    f = top_function(module)
    (get,) = _ops(f, ir_stream.GetOp)
    (put,) = _ops(f, ir_stream.PutOp)
    src_lines = open(scale_saturate.fn.__code__.co_filename).read().splitlines()
    assert "x.get()" in src_lines[get.location.line.data - 1]
    assert src_lines[get.location.line.data - 1].index("x.get()") + 1 == get.location.column.data
    assert src_lines[put.location.line.data - 1].strip().startswith("y.put(")
    assert isinstance(get.parent_op(), affine.ForOp)


def test_data_dependent_loop_and_put_under_an_if():
    f = top_function(keep_even.module())
    (loop,) = _ops(f, scf.ForOp)
    (put,) = _ops(loop, ir_stream.PutOp)
    assert isinstance(put.parent_op(), scf.IfOp)


def test_gets_are_never_merged_dropped_or_speculated():
    ns = load("""
@kernel
def f(x: stream[int32], y: stream[int32], c: int32):
    x.get()
    y.put(x.get() - x.get())
    y.put(c if c > 0 else x.get())
""")
    f = top_function(ns["f"].module())
    gets = _ops(f, ir_stream.GetOp)
    assert len(gets) == 4
    assert isinstance(gets[3].parent_op(), scf.IfOp)  # only runs when c <= 0
    sub = [o for o in f.walk() if o.name == "arith.subi"][0]
    assert list(sub.operands) == [gets[1].result, gets[2].result]


def test_ir_text_round_trip(tmp_path):
    module = chain3.module()
    text = print_module(module)
    assert "stream.create" in text and "depth = 4 : i64" in text and "!stream.stream<i32>" in text
    path = tmp_path / "chain3.mlir"
    path.write_text(text)
    again = load_mlir(path)
    assert print_module(again) == text
    assert signature_of(top_function(again)) == chain3.signature


# -- the golden reference -----------------------------------------------------------------------


@pytest.mark.parametrize("kernel,make,model", STREAM_CASES, ids=[c[0].name for c in STREAM_CASES])
def test_example_kernels_match_their_models(kernel, make, model):
    for seed in range(4):
        args = make(np.random.default_rng(seed))
        want_ret, want = model(copy.deepcopy(args))
        got_ret = kernel(*args)
        got = contents(args)
        assert got_ret == want_ret
        for g, w in zip(got[-len(want):], want):
            assert np.array_equal(np.asarray(g), np.asarray(w)), (kernel.name, seed)


REF = """
@kernel
def copy_n(x: stream[int32], y: stream[uint8], n: int32):
    for i in range(n):
        y.put(x.get())

@kernel
def diff(x: stream[int32], y: stream[int32]):
    y.put(x.get() - x.get())

@kernel
def to_bool(x: stream[int32], y: stream[bool_]):
    y.put(x.get())

@kernel
def with_local(x: stream[int32], y: stream[int32]):
    q = stream[int32, 2]()
    q.put(x.get())
    q.put(x.get())
    y.put(q.get() * 10 + q.get())

@kernel
def twice(x: stream[int32], y: stream[int32]):
    with_local(x, y)
    with_local(x, y)
"""


def test_reference_consumes_and_appends_in_place():
    ns = load(REF)
    x = stream[int32]([1, 300, -1, 7])
    y = stream[uint8]([5])
    assert ns["copy_n"](x, y, 3) is None
    assert list(x) == [7]  # consumed in place
    assert list(y) == [5, 1, 44, 255]  # appended, converted as an assignment would
    d = stream[int32]()
    ns["diff"](stream[int32]([10, 3]), d)
    assert list(d) == [7]  # left operand first
    b = stream[bool_]()
    ns["to_bool"](stream[int32]([2]), b)
    ns["to_bool"](stream[int32]([3]), b)
    assert list(b) == [0, 1]
    out = stream[int32]()
    ns["twice"](stream[int32]([1, 2, 3, 4]), out)
    assert list(out) == [12, 34]  # a fresh local stream per call


def test_get_from_an_empty_stream_is_a_located_error_after_partial_effects():
    ns = load(REF)
    x = stream[int32]([1, 2, 3])
    y = stream[uint8]()
    with pytest.raises(StreamUnderflowError) as info:
        ns["copy_n"](x, y, 5)
    err = info.value
    assert isinstance(err, VichlsError) and isinstance(err, StreamEmptyError)
    assert err.message == ("get() from the empty stream 'x': the kernel reads more elements "
                           "than were put")
    assert (err.line, err.col) == (4 + 2, 15)
    assert err.filename.startswith("<streams-")
    assert list(y) == [1, 2, 3] and len(x) == 0  # what ran before the error stays done
    with pytest.raises(StreamUnderflowError, match="stream 'x'"):
        bounded_reference(ns["copy_n"], 100)(stream[int32]([1]), stream[uint8](), 2)


def test_reference_checks_stream_arguments():
    ns = load(REF)
    with pytest.raises(KernelArgumentError, match="stream"):
        ns["copy_n"](stream[uint8]([1]), stream[uint8](), 1)
    with pytest.raises(KernelArgumentError):
        ns["copy_n"]([1, 2], stream[uint8](), 1)
    y = stream[uint8]()
    bounded_reference(ns["copy_n"], 100)(stream[int32]([4, 5]), y, 2)
    assert list(y) == [4, 5]


def test_narrow_element_types():
    ns = load("""
@kernel
def f(x: stream[int_(12)], y: stream[vichls.uint_(3)]):
    v = x.get()
    y.put(v)
    y.put(v >> 3)
""")
    y = stream[uint_(3)]()
    ns["f"](stream[int_(12)]([-2048]), y)
    assert list(y) == [0, (-2048 >> 3) & 7]
