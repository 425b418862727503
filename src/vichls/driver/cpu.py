"""The CPU driver: loop-level IR → llvm dialect → LLVM (llvmlite) → optimised machine code.

`compile_cpu(module)` clones the module, runs the ``cpu-lower`` pipeline in memory
(vichls/passes/pipelines.py: the passes of vichls/cpu/), translates the llvm dialect with xdsl.backend.llvm, verifies the
result, optimises it with LLVM's new pass manager at -O<opt_level> for the host CPU (its
name and features, so vector units are used), and JIT-compiles it with MCJIT. The returned
`CpuModule` calls the top kernel through ctypes on numpy arrays, in place, like the Python
reference does.

ABI (see vichls.cpu.c_entry_point): the symbol named after the top kernel takes a pointer
per array and every scalar in its numpy container type, and returns the container type.
A kernel with streams (vichls.cpu.lower_streams) takes a pointer to an i64 ring buffer per
stream parameter and, last, a pointer to an i64 status word; the call wrapper packs each
`vichls.Stream` argument into a buffer (one buffer for a stream passed twice), unpacks the
elements left in it afterwards into the same `Stream`, and raises the error of the failing
get or put the status names, after applying what the kernel did up to there, as the Python
reference does.

The machine code targets the host CPU (its name and features), so an object file written
by `object_code()` runs on CPUs like the one that compiled it.

Assumes: a 64-bit host (index is i64). LLVM's native target is initialised once per
process; every compile builds its own target machine, module and engine, so compiles are
independent of each other.
"""

from __future__ import annotations

import ctypes
import functools

import numpy as np

import llvmlite.binding as llvm_binding
from xdsl.backend.llvm.convert import convert_module
from xdsl.dialects import llvm
from xdsl.dialects.builtin import ModuleOp

from vichls.limits import deep
from vichls.cpu.errors import CpuError, unsupported
from vichls.cpu.lower_streams import DEFAULT_CAPACITY, HEADER_WORDS, MAX_STATIC_CAPACITY
from vichls.dialects.attributes import ENTRY_PUT_BOUNDS_ATTR, SITES_ATTR
from vichls.errors import StreamUnderflowError
from vichls.passes import pipelines
from vichls.signature import KernelSignature, call_on_raw, signature_of, top_function
from vichls.types import FloatType, Stream

_CTYPES_INT = {
    (8, True): ctypes.c_int8,
    (16, True): ctypes.c_int16,
    (32, True): ctypes.c_int32,
    (64, True): ctypes.c_int64,
    (8, False): ctypes.c_uint8,
    (16, False): ctypes.c_uint16,
    (32, False): ctypes.c_uint32,
    (64, False): ctypes.c_uint64,
}


@functools.cache
def _native_target() -> llvm_binding.Target:
    """Initialise LLVM's host target (once per process) and return it."""
    llvm_binding.initialize_native_target()
    llvm_binding.initialize_native_asmprinter()
    return llvm_binding.Target.from_default_triple()


def _host_target_machine(opt_level: int, *, for_jit: bool) -> llvm_binding.TargetMachine:
    return _native_target().create_target_machine(
        cpu=llvm_binding.get_host_cpu_name(),
        features=llvm_binding.get_host_cpu_features().flatten(),
        opt=opt_level,
        reloc="default" if for_jit else "pic",
        codemodel="jitdefault" if for_jit else "default",
        jit=for_jit,
    )


def lower_to_llvm_dialect(module: ModuleOp) -> ModuleOp:
    """A lowered copy of `module`: only llvm.func ops remain. Does not modify `module`."""
    lowered = module.clone()
    pipelines.run_passes(pipelines.cpu_lower(), lowered)
    for op in lowered.body.walk():
        if op.dialect_name() != "llvm":  # an op no pass above knows (a foreign dialect)
            raise unsupported(op, "no CPU lowering for this dialect")
    return lowered


def _optimise(module: llvm_binding.ModuleRef, machine: llvm_binding.TargetMachine, opt_level: int) -> None:
    tuning = llvm_binding.create_pipeline_tuning_options(speed_level=opt_level)
    vectorise = opt_level >= 2
    tuning.loop_vectorization = vectorise
    tuning.slp_vectorization = vectorise
    tuning.loop_interleaving = vectorise
    tuning.loop_unrolling = opt_level >= 2
    passes = llvm_binding.create_pass_builder(machine, tuning)
    passes.getModulePassManager().run(module, passes)


def _c_value(a):
    """A scalar argument as ctypes takes it (a numpy float32 as a Python float: exact)."""
    return float(a) if isinstance(a, np.floating) else a


def _ctype(t) -> type:
    if isinstance(t, FloatType):
        return ctypes.c_float
    return _CTYPES_INT[(t.dtype.itemsize * 8, t.dtype.kind == "i")]


class StreamOverflowError(CpuError):
    """A put found its stream's CPU ring buffer full. The reference's streams are unbounded;
    the CPU's hold every element ever put where the IR bounds the puts, else
    `DEFAULT_CAPACITY` pending elements."""


class _StreamBuffer:
    """The i64 ring buffer of one Stream argument: header [head, tail, mask], then slots."""

    def __init__(self, stream: Stream):
        self.stream = stream
        self.put_bound: int | None = 0

    def add_puts(self, bound: int) -> None:
        if self.put_bound is not None:
            self.put_bound = None if bound < 0 else self.put_bound + min(bound, MAX_STATIC_CAPACITY)

    def _float32(self) -> bool:
        return isinstance(self.stream.type.element, FloatType)

    def pack(self) -> np.ndarray:
        if self._float32():  # an f32 element is its IEEE-754 bits, sign-extended from 32
            items = np.array(self.stream.raw(), dtype=np.float32).view(np.int32).tolist()
        else:
            items = [v - (1 << 64) if v >= 1 << 63 else v for v in self.stream.raw()]
        need = len(items) + (DEFAULT_CAPACITY if self.put_bound is None else self.put_bound)
        capacity = 1
        while capacity < need:
            capacity *= 2
        self.words = np.empty(HEADER_WORDS + capacity, dtype=np.int64)
        self.words[:HEADER_WORDS] = (0, len(items), capacity - 1)
        self.words[HEADER_WORDS:HEADER_WORDS + len(items)] = np.array(items, dtype=np.int64)
        return self.words

    def unpack(self) -> None:
        """Make the Stream hold what the kernel left in the buffer (wrapped to its type)."""
        head, tail, mask = (int(w) for w in self.words[:HEADER_WORDS])
        positions = HEADER_WORDS + (np.arange(head, tail, dtype=np.int64) & mask)
        for _ in range(len(self.stream)):
            self.stream.get_raw()
        if self._float32():
            values = self.words[positions].astype(np.uint32).view(np.float32)
            for value in values:  # (numpy float32 scalars: their bits, NaN payloads too)
                self.stream.put_raw(value)
            return
        for value in self.words[positions].tolist():
            self.stream.put_raw(value)


def _site_error(site: dict) -> Exception:
    where = (site["file"], site["line"], site["col"])
    if site["kind"] == "get":
        return StreamUnderflowError(site["stream"], *where)
    capacity = site["capacity"]
    size = f"of {capacity} elements" if capacity > 0 else "(sized by its caller)"
    return StreamOverflowError(
        f"put() to the stream '{site['stream']}' overflows its CPU buffer {size}: more "
        "elements wait in it than the CPU back end holds (the Python reference's streams "
        "are unbounded)", *where)


class CpuModule:
    """A kernel compiled for the host CPU: call it like the Python kernel."""

    def __init__(
        self,
        signature: KernelSignature,
        optimised: llvm_binding.ModuleRef,
        machine: llvm_binding.TargetMachine,
        opt_level: int,
        stream_sites: list[dict] | None = None,
        entry_put_bounds: list[int] | None = None,
    ):
        self.signature = signature
        self.llvm_ir = str(optimised)
        self.opt_level = opt_level
        # The engine owns `optimised` from here on; object_code() re-parses llvm_ir.
        self._engine = llvm_binding.create_mcjit_compiler(optimised, machine)
        self._engine.finalize_object()
        address = self._engine.get_function_address(signature.name)
        if not address:
            raise CpuError(f"cpu back end: the JIT did not produce symbol {signature.name!r}")
        arg_types = [ctypes.c_void_p if p.is_array or p.is_stream else _ctype(p.scalar)
                     for p in signature.params]
        # a module with streams takes their status word last
        self._stream_sites = stream_sites
        if stream_sites is not None:
            arg_types.append(ctypes.c_void_p)
        self._put_bounds = entry_put_bounds or [0] * len(signature.params)
        result_type = None if signature.ret is None else _ctype(signature.ret)
        self._function = ctypes.CFUNCTYPE(result_type, *arg_types)(address)
        self._array_flags = [p.is_array for p in signature.params]

    def object_code(self) -> bytes:
        """A relocatable (position-independent) object file for the host."""
        machine = _host_target_machine(self.opt_level, for_jit=False)
        return machine.emit_object(llvm_binding.parse_assembly(self.llvm_ir))

    def __call__(self, *args):
        return call_on_raw(self.signature, args, self._call_raw)

    def _call_raw(self, *checked):
        if self._stream_sites is None:
            raw = [a.ctypes.data if is_array else _c_value(a)
                   for a, is_array in zip(checked, self._array_flags)]
            result = self._function(*raw)
        else:
            result = self._call_with_streams(checked)
        if self.signature.ret is None:
            return None
        if isinstance(self.signature.ret, FloatType):
            return np.float32(result)
        return self.signature.ret.wrap(int(result))

    def _call_with_streams(self, checked: list):
        buffers: dict[int, _StreamBuffer] = {}  # by id: a stream passed twice is one buffer
        for a, p, bound in zip(checked, self.signature.params, self._put_bounds):
            if p.is_stream:
                buffers.setdefault(id(a), _StreamBuffer(a)).add_puts(bound)
        words = {key: b.pack() for key, b in buffers.items()}
        raw = []
        for a, p in zip(checked, self.signature.params):
            if p.is_stream:
                raw.append(words[id(a)].ctypes.data)
            else:
                raw.append(a.ctypes.data if p.is_array else _c_value(a))
        status = np.zeros(1, dtype=np.int64)
        raw.append(status.ctypes.data)
        result = self._function(*raw)
        for b in buffers.values():
            b.unpack()
        if status[0]:
            raise _site_error(self._stream_sites[int(status[0]) - 1])
        return result

    def __repr__(self) -> str:
        return f"<CpuModule {self.signature.name} -O{self.opt_level}>"


@deep
def compile_cpu(module: ModuleOp, *, opt_level: int = 3) -> CpuModule:
    """Compile the loop-level `module` (docs/ir.md) for the host CPU. `module` is not modified."""
    if opt_level not in (0, 1, 2, 3):
        raise ValueError(f"opt_level must be 0, 1, 2 or 3, got {opt_level!r}")
    try:
        signature = signature_of(top_function(module))
    except (ValueError, KeyError) as e:
        raise CpuError(f"cpu back end: {e}") from e
    lowered = lower_to_llvm_dialect(module)
    machine = _host_target_machine(opt_level, for_jit=True)
    try:
        llvm_module = convert_module(lowered, fallback_target_triple=machine.triple)
    except NotImplementedError as e:
        raise CpuError(f"cpu back end: llvm translation failed: {e}") from e
    # xdsl.backend.llvm does not carry linkage over to llvmlite functions.
    for f in lowered.ops:
        if isinstance(f, llvm.FuncOp) and f.linkage.linkage.data != "external":
            llvm_module.get_global(f.sym_name.data).linkage = f.linkage.linkage.data
    try:
        parsed = llvm_binding.parse_assembly(str(llvm_module))
        parsed.verify()
    except RuntimeError as e:  # a bug of this back end, not of the kernel
        raise CpuError(f"cpu back end: internal error: LLVM rejected the lowered module: {e}") from e
    parsed.triple = machine.triple
    parsed.data_layout = str(machine.target_data)
    if opt_level > 0:
        _optimise(parsed, machine, opt_level)
    sites = entry_bounds = None
    if SITES_ATTR in lowered.attributes:
        sites = [{k: v.data for k, v in d.data.items()} for d in lowered.attributes[SITES_ATTR]]
        entry_bounds = [b.value.data for b in lowered.attributes[ENTRY_PUT_BOUNDS_ATTR]]
    return CpuModule(signature, parsed, machine, opt_level, sites, entry_bounds)
