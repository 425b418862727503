"""The regression corpus (tests/kernels) against the golden reference and independent models.

Checks that every case compiles to the loop-level IR and runs in the reference on its own
inputs, that the reference agrees with each case's independent model (plain Python
statements of FIR, CRC-8, sorting, ... and a per-operator model of the ``ops_*`` kernels),
that the argument makers really produce edge values, and that the corpus as a whole uses
every construct of the kernel language (checked on the kernels' syntax trees).
"""

import ast
import inspect

import numpy as np
import pytest

from kernels import ALL_CASES, OPS_KERNELS, control, golden, ops_by_type, realistic, semantics
from vichls.signature import check_call_args
from vichls.types import ScalarType

SEEDS = range(4)
CASE_IDS = [c.name for c in ALL_CASES]


def test_corpus_size_and_names():
    assert len(ALL_CASES) >= 30
    assert len(set(CASE_IDS)) == len(CASE_IDS)
    for case in ALL_CASES:
        assert case.kernel.signature.name == case.top


@pytest.mark.parametrize("case", ALL_CASES, ids=CASE_IDS)
def test_case_builds_and_runs(case):
    module = case.kernel.module()
    module.verify()
    for seed in SEEDS:
        args = case.make_inputs(np.random.default_rng(seed))
        check_call_args(case.kernel.signature, args)  # dtypes, shapes, scalar kinds
        before = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
        ret, arrays = golden(case, args)
        again, arrays_again = golden(case, args)
        for a, b in zip(args, before):  # golden works on copies
            assert np.array_equal(a, b) if isinstance(a, np.ndarray) else a == b
        assert ret == again
        assert all(np.array_equal(x, y) for x, y in zip(arrays, arrays_again))
        sig = case.kernel.signature
        assert (ret is None) == (sig.ret is None)
        if ret is not None:
            assert sig.ret.min <= ret <= sig.ret.max


@pytest.mark.parametrize("case", [c for c in ALL_CASES if c.model], ids=lambda c: c.name)
def test_reference_matches_model(case):
    for seed in range(8):
        args = case.make_inputs(np.random.default_rng(seed))
        ret, arrays = golden(case, args)
        want_ret, want_arrays = case.model(args)
        assert ret == want_ret, f"seed {seed}"
        if want_arrays:
            for got, want in zip(arrays, want_arrays):
                assert np.array_equal(got, want), f"seed {seed}"


# -- the ops_* kernels against a per-operator model ---------------------------------------


# the masks the signed ops_* kernels apply to their shift amounts, by width
SIGNED_SHIFT_MASK = {8: 15, 16: 31, 32: 63, 64: 127, 12: 31, 33: 127, 63: 127}


def _model_row(t: ScalarType, x: int, y: int, s: int) -> list[int]:
    w, wrap = t.width, t.wrap
    amount = s & SIGNED_SHIFT_MASK[w] if t.signed else s
    quotient = (-1 if t.signed else t.mask) if y == 0 else wrap(x // y)
    remainder = x if y == 0 else wrap(x % y)
    left = 0 if amount >= w else wrap(x << amount)
    right = (-1 if x < 0 else 0) if amount >= w else x >> amount
    values = [x + y, x - y, x * y, quotient, remainder, x & y, x | y, x ^ y, left, right,
              -x, ~x, int(x == 0), abs(x), min(x, y), max(x, y)]
    return [wrap(v) for v in values]


@pytest.mark.parametrize("name, k, t", OPS_KERNELS, ids=[n for n, _, _ in OPS_KERNELS])
def test_ops_kernels_match_operator_model(name, k, t):
    case = next(c for c in ALL_CASES if c.name == name)
    for seed in range(6):
        a, b, s, out = case.make_inputs(np.random.default_rng(seed))
        _, (_, _, _, got) = golden(case, (a, b, s, out))
        for i in range(8):
            want = _model_row(t, int(a[i]), int(b[i]), int(s[i]))
            assert [int(v) for v in got[i]] == want, f"{name} seed {seed} row {i}"


def test_inputs_contain_edge_values():
    """The makers of the operator kernels must reach min, max, 0, -1 and large shifts."""
    for name, _, t in OPS_KERNELS:
        case = next(c for c in ALL_CASES if c.name == name)
        seen_values: set[int] = set()
        seen_divisors: set[int] = set()
        seen_shifts: set[int] = set()
        for seed in range(10):
            a, b, s, _ = case.make_inputs(np.random.default_rng(seed))
            seen_values |= {int(v) for v in a} | {int(v) for v in b}
            seen_divisors |= {int(v) for v in b}
            seen_shifts |= {int(v) for v in s}
        assert {t.min, t.max, 0, t.wrap(-1)} <= seen_values, name
        assert 0 in seen_divisors, name
        assert max(seen_shifts) >= t.width, name
        if t.signed and t.width > 1:
            assert -1 in seen_divisors and t.min in seen_values, name


# -- the corpus uses every construct of the language ------------------------------------------


def _kernel_functions():
    for module in (ops_by_type, semantics, control, realistic):
        tree = ast.parse(inspect.getsource(module))
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and any(
                isinstance(d, ast.Name) and d.id == "kernel" for d in node.decorator_list
            ):
                yield node


def _range_calls(fn):
    for node in ast.walk(fn):
        if isinstance(node, ast.For) and isinstance(node.iter, ast.Call):
            yield node, node.iter.args


def _names_in(node) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def test_corpus_covers_every_construct():
    found: set[str] = set()
    functions = list(_kernel_functions())
    kernel_names = {f.name for f in functions}
    for fn in functions:
        for arg in fn.args.args:
            ann = arg.annotation
            if isinstance(ann, ast.Subscript):
                dims = ann.slice.elts if isinstance(ann.slice, ast.Tuple) else [ann.slice]
                found.add(f"param dims {len(dims)}")
                ann = ann.value
            else:
                found.add("scalar param")
            found.add("type " + ast.unparse(ann))
        found.add("returns" if fn.returns is not None else "no return")
        called = [n.func.id for n in ast.walk(fn)
                  if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)]
        for name in set(called) & kernel_names:
            found.add("call")
            if called.count(name) >= 2:
                found.add("call twice")
        for node in ast.walk(fn):
            kind = type(node).__name__
            if isinstance(node, ast.BinOp):
                found.add("binop " + type(node.op).__name__)
            elif isinstance(node, ast.AugAssign):
                target = "array" if isinstance(node.target, ast.Subscript) else "local"
                found.add(f"aug {type(node.op).__name__} {target}")
            elif isinstance(node, ast.UnaryOp):
                found.add("unary " + type(node.op).__name__)
            elif isinstance(node, ast.Compare):
                found.update("cmp " + type(op).__name__ for op in node.ops)
                if len(node.ops) > 1:
                    found.add("chain")
            elif isinstance(node, ast.BoolOp):
                found.add("bool " + type(node.op).__name__)
            elif isinstance(node, (ast.IfExp, ast.While, ast.Break, ast.Continue)):
                found.add(kind)
            elif isinstance(node, ast.If) and node.orelse:
                found.add("elif" if isinstance(node.orelse[0], ast.If) else "else")
            elif isinstance(node, ast.AnnAssign):
                found.add("local array" if isinstance(node.annotation, ast.Subscript)
                          else "annotated local")
            elif isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
                found.add("plain assign")
            elif isinstance(node, ast.Subscript):
                if isinstance(node.slice, ast.Tuple):
                    found.add("A[i, j]")
                if isinstance(node.value, ast.Subscript):
                    found.add("A[i][j]")
                if any(isinstance(n, ast.Subscript) for n in ast.walk(node.slice)):
                    found.add("data-dependent index")
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                if node.func.id in ("min", "max", "abs"):
                    found.add(node.func.id)
                elif node.func.id in ("int8", "int16", "int32", "int64", "uint8", "uint16",
                                      "uint32", "uint64", "bool_"):
                    found.add("cast " + node.func.id)
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Call):
                found.add("cast " + ast.unparse(node.func))
        for loop in ast.walk(fn):
            if isinstance(loop, (ast.For, ast.While)):
                if any(isinstance(n, ast.Return) for n in ast.walk(loop)):
                    found.add("early return")
        for node, args in _range_calls(fn):
            found.add(f"range {len(args)}")
            if len(args) == 3 and isinstance(args[2], ast.UnaryOp):
                found.add("negative step")
            if any(isinstance(n, ast.Subscript) for a in args for n in ast.walk(a)):
                found.add("data-dependent bound")
        for outer in ast.walk(fn):
            if isinstance(outer, ast.For):
                var = outer.target.id
                for inner, args in _range_calls(outer):
                    if inner is not outer and any(var in _names_in(a) for a in args):
                        found.add("triangular")
    ops = ["Add", "Sub", "Mult", "FloorDiv", "Mod", "BitAnd", "BitOr", "BitXor", "LShift", "RShift"]
    required = (
        {f"binop {op}" for op in ops}
        | {f"aug {op} {where}" for op in ops for where in ("array", "local")}
        | {"unary USub", "unary Invert", "unary Not"}
        | {f"cmp {op}" for op in ("Lt", "LtE", "Gt", "GtE", "Eq", "NotEq")}
        | {"chain", "bool And", "bool Or", "IfExp", "While", "Break", "Continue", "elif", "else"}
        | {"local array", "annotated local", "plain assign", "A[i, j]", "A[i][j]"}
        | {"data-dependent index", "min", "max", "abs", "early return", "call", "call twice"}
        | {"range 1", "range 2", "range 3", "negative step", "data-dependent bound", "triangular"}
        | {f"param dims {d}" for d in (1, 2, 3, 4)}
        | {"scalar param", "returns", "no return"}
        | {f"type {t}" for t in ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                                 "uint64", "bool_", "int_(1)", "uint_(3)", "int_(12)", "int_(33)",
                                 "uint_(33)", "int_(63)", "uint_(63)")}
        | {f"cast {t}" for t in ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                                 "uint64", "bool_", "int_(12)", "uint_(3)", "int_(1)")}
    )
    assert required - found == set()


def test_check_against_golden_detects_a_wrong_result():
    from kernels import case_by_name, check_against_golden

    case = case_by_name("prefix_sum")
    check_against_golden(case, case.kernel)  # the reference agrees with itself

    def off_by_one(a):
        case.kernel(a)
        a[5] += 1

    with pytest.raises(AssertionError, match=r"prefix_sum, seed 0: array argument 0 differs"):
        check_against_golden(case, off_by_one)
