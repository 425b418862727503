"""Directives (customizations) kept apart from the algorithm: ``vichls.customize(k)``.

A ``Schedule`` records directives against a kernel's loops and arrays, checks that they name
things that exist, and builds the kernel for a target. The loop directives (unroll, tile,
reorder, flatten, pipeline) are applied to the loop-level IR by ``vichls.transforms.loop.apply_directives`` before
the back ends; partition travels as a request that the FPGA back end applies, and dataflow
as an attribute of the top function from which the FPGA back end builds the task graph.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass, field

from vichls.analysis.loop_names import path_matches
from vichls.errors import DirectiveError
from vichls.frontend import tree as T

TARGETS = ("fpga", "cpu", "sim")
PARTITION_KINDS = ("cyclic", "block", "complete")


@dataclass(frozen=True)
class Directive:
    kind: str  # pipeline | unroll | partition | tile | reorder | flatten | dataflow
    args: tuple
    options: tuple  # sorted (key, value) pairs
    filename: str | None = None
    line: int | None = None
    col: int | None = None

    def spelled(self) -> str:
        parts = [repr(a) for a in self.args] + [f"{k}={v!r}" for k, v in self.options]
        return f"s.{self.kind}({', '.join(parts)})"


def loop_paths(stmts: list[T.Stmt], path: tuple[tuple[str, str | None], ...] = ()):
    """(path, label, loop) for every for loop, outermost first; the path has one
    (variable name, label or None) pair per loop from the outermost down."""
    for s in stmts:
        if isinstance(s, T.For):
            p = (*path, (s.var.name, s.label))
            yield p, s.label, s
            yield from loop_paths(s.body, p)
        elif isinstance(s, T.While):
            yield from loop_paths(s.body, path)
        elif isinstance(s, T.If):
            yield from loop_paths(s.then, path)
            yield from loop_paths(s.orelse, path)


def call_site(depth: int) -> tuple[str, int, int | None]:
    """(file, line, 1-based column) of the call ``depth`` frames above the caller."""
    caller = inspect.stack()[depth + 1]
    positions = getattr(caller, "positions", None)  # Python 3.11+: the call's columns
    col = positions.col_offset + 1 if positions and positions.col_offset is not None else None
    return caller.filename, caller.lineno, col


def constant_arrays(kernel) -> dict:
    """The module-level constant arrays (``vichls.const``) that ``kernel`` or a kernel it
    calls reads, by name: after inlining they are the top's."""
    found, todo, seen = {}, [kernel], set()
    while todo:
        k = todo.pop()
        if k.name in seen:
            continue
        seen.add(k.name)
        tree = k.tree()
        for sym, _ in tree.consts:
            found.setdefault(sym.name, sym)
        todo += tree.callees
    return found


@dataclass
class Schedule:
    kernel: object
    directives: list[Directive] = field(default_factory=list)
    # schedules of called kernels (``compose``), applied to their functions in the module
    composed: list["Schedule"] = field(default_factory=list)
    #: where ``vichls.customize`` made it: (file, line, column)
    made_at: tuple = field(default=(None, None, None), compare=False)

    # -- recording --------------------------------------------------------------------------
    def _record(self, directive: str, args: tuple, **options) -> "Schedule":
        d = Directive(directive, args, tuple(sorted(options.items())), *call_site(2))
        self._validate(d)
        self.directives.append(d)
        return self

    def _fail(self, d: Directive, why: str) -> DirectiveError:
        return DirectiveError(f"{d.spelled()}: {why}", d.filename, d.line, d.col)

    def _tiled_names(self) -> set[str]:
        """Names of the loops made by earlier tile directives ("j.outer", "j.inner")."""
        names = set()
        for d in self.directives:
            if d.kind == "tile":
                base = d.args[0].split("/")[-1]
                names |= {f"{base}.outer", f"{base}.inner"}
        return names

    def _reordered_paths(self) -> list[tuple[tuple[tuple[str, str | None], ...], object]]:
        """The kernel's loop positions as (path, loop written there), with the paths of
        ``loop_paths`` as the earlier reorder directives leave them: the levels of an
        interchanged band trade names, so after ``reorder("i/k/j", "i/k")`` the
        positions are ``i``, ``i/j`` and ``i/j/k``."""
        entries = [(list(path), loop) for path, _, loop in loop_paths(self.kernel.tree().body)]
        for d in self.directives:
            if d.kind != "reorder":
                continue
            written: dict[int, tuple] = {}  # band depth -> the level written there
            moved: list[tuple] = []  # the band's levels, outermost first after the reorder
            for parts in (tuple(n.split("/")) for n in d.args):
                hits = {len(p) - 1: p[-1] for p, _ in entries if path_matches(p, parts)}
                if len(hits) != 1:
                    break  # not one band: the IR-level application reports it
                (at, level), = hits.items()
                written[at] = level
                moved.append(level)
            else:
                depths = sorted(written)
                for path, _ in entries:
                    inside = [at for at in depths if at < len(path)]
                    if inside and inside[0] == depths[0] and \
                            all(path[at] == written[at] for at in inside):
                        for at in inside:
                            path[at] = moved[depths.index(at)]
        return [(tuple(p), loop) for p, loop in entries]

    def _find_loops(self, d: Directive, name: str):
        kt = self.kernel.tree()
        parts = tuple(name.split("/"))
        found = [loop for path, loop in self._reordered_paths() if path_matches(path, parts)]
        if not found:  # a name from before an interchange still finds its loop
            found = [loop for path, _, loop in loop_paths(kt.body) if path_matches(path, parts)]
        if not found and parts[-1] in self._tiled_names():
            return []  # made by a tile directive; apply_directives finds it in the IR
        if not found:
            names = sorted({p[-1][0] for p, _, _ in loop_paths(kt.body)}
                           | {lab for _, lab, _ in loop_paths(kt.body) if lab})
            raise self._fail(d, f"kernel '{kt.name}' has no loop named '{name}' "
                                f"(its loops: {', '.join(names) or 'none'})")
        return found

    def _validate(self, d: Directive) -> None:
        kt = self.kernel.tree()
        opts = dict(d.options)
        if d.kind in ("pipeline", "unroll", "tile", "reorder", "flatten"):
            loop_names = d.args[:-1] if d.kind == "tile" else d.args  # tile's last is a size
            for name in loop_names:
                if not isinstance(name, str):
                    raise self._fail(d, "loops are named by strings")
                self._find_loops(d, name)
        if d.kind == "dataflow" and opts.get("interface") not in ("ap_ctrl_hs", "ap_ctrl_chain"):
            raise self._fail(d, "interface must be 'ap_ctrl_hs' or 'ap_ctrl_chain'")
        if d.kind == "pipeline" and not (isinstance(opts.get("ii"), int) and opts["ii"] >= 1):
            raise self._fail(d, "ii must be a positive integer")
        if d.kind == "pipeline" and not isinstance(opts.get("flatten", True), bool):
            raise self._fail(d, "flatten must be True or False")
        if d.kind == "unroll" and opts.get("factor") is not None and not (
                isinstance(opts["factor"], int) and opts["factor"] >= 1):
            raise self._fail(d, "factor must be a positive integer")
        if d.kind == "tile" and not (isinstance(d.args[-1], int) and d.args[-1] >= 1):
            raise self._fail(d, "the tile size must be a positive integer")
        if d.kind == "interface":
            from vichls.interface.spec import check_interface

            if len(d.args) != 2:
                raise self._fail(d, "interface(name, mode, **options)")
            try:
                check_interface(self.kernel.signature, *d.args, dict(d.options))
            except ValueError as e:
                raise self._fail(d, str(e)) from None
            return
        if d.kind == "partition":
            (name,) = d.args
            arrays = {p.name: p for p in kt.params if p.is_array}
            arrays.update({s.name: s for s in kt.locals if s.is_array})
            arrays.update(constant_arrays(self.kernel))  # (read by the top or a callee)
            if name not in arrays:
                # a local array of a called kernel, when its name is that kernel's alone
                owners = {}
                for callee in sorted(self._called_kernels()):
                    tree = self._kernel_named(callee).tree()
                    for sym in tree.locals:
                        if sym.is_array and sym.name == name:
                            owners[callee] = sym
                if len(owners) > 1:
                    raise self._fail(d, f"'{name}' is a local array of several kernels "
                                        f"({', '.join(sorted(owners))}); rename it in all but "
                                        "one to partition it")
                arrays.update({name: sym for sym in owners.values()})
            if name not in arrays:
                raise self._fail(d, f"kernel '{kt.name}' has no array named '{name}'")
            sym = arrays[name]
            kind, dim, factor = opts["kind"], opts["dim"], opts["factor"]
            if kind not in PARTITION_KINDS:
                raise self._fail(d, f"kind must be one of {', '.join(PARTITION_KINDS)}")
            # partitions of one array on different dimensions compose (a grid of banks);
            # one dimension is partitioned once, and dim=0 takes every dimension
            earlier = next((e for e in self.directives
                            if e.kind == "partition" and e.args == d.args
                            and 0 in (dim, dict(e.options)["dim"])
                            or e.kind == "partition" and e.args == d.args
                            and dict(e.options)["dim"] == dim), None)
            if earlier is not None:
                which = "every dimension" if 0 in (dim, dict(earlier.options)["dim"]) \
                    else f"dimension {dim}"
                raise self._fail(d, f"'{name}' is already partitioned on {which} by "
                                    f"{earlier.spelled()} at line {earlier.line} (each "
                                    "dimension is partitioned once; dim=0 partitions every "
                                    "dimension)")
            rank = len(sym.type.shape)
            if not (isinstance(dim, int) and 0 <= dim <= rank):
                raise self._fail(d, f"dim must be 0 (all) or 1..{rank} for '{name}'")
            if kind == "complete" and sym.kind == "array_param":
                raise self._fail(d, f"'{name}' is a parameter: complete partitioning applies "
                                    "to local arrays only (the caller serves a parameter's ports)")
            if kind != "complete":
                if not (isinstance(factor, int) and factor >= 1):
                    raise self._fail(d, "factor must be a positive integer")
                dims = sym.type.shape if dim == 0 else (sym.type.shape[dim - 1],)
                if any(factor > n for n in dims):
                    raise self._fail(d, f"factor {factor} is larger than the partitioned "
                                        f"dimension ({min(dims)}) of '{name}'")

    def pipeline(self, loop: str, ii: int = 1, flatten: bool = True) -> "Schedule":
        """Overlap the iterations of ``loop``, one starting every ``ii`` cycles; its inner
        loops are unrolled and, as Vitis HLS does, a perfect or semi-perfect nest around
        it is flattened into one pipelined loop (``flatten=False``: the loops around it
        stay, and the pipeline fills and drains in every iteration of the one around)."""
        if flatten is True:  # (the default is not recorded: directives spell as before)
            return self._record("pipeline", (loop,), ii=ii)
        return self._record("pipeline", (loop,), ii=ii, flatten=flatten)

    def unroll(self, loop: str, factor: int | None = None) -> "Schedule":
        return self._record("unroll", (loop,), factor=factor)

    def partition(self, array: str, dim: int = 0, factor: int | None = None,
                  kind: str = "cyclic") -> "Schedule":
        return self._record("partition", (array,), dim=dim, factor=factor, kind=kind)

    def tile(self, loop: str, size: int) -> "Schedule":
        return self._record("tile", (loop, size))

    def reorder(self, *loops: str) -> "Schedule":
        return self._record("reorder", loops)

    def flatten(self, *loops: str) -> "Schedule":
        return self._record("flatten", loops)

    def interface(self, name: str, mode: str, **options) -> "Schedule":
        """The protocol of argument ``name`` (or of the block control, ``"return"``), as
        Vitis HLS's ``#pragma HLS interface`` asks for it: ``s.interface("A", "m_axi",
        bundle="gmem", max_burst=64)``, ``s.interface("return", "s_axilite")``; the
        modes and options are in docs/interfaces.md. A later request for one name replaces
        an earlier one."""
        return self._record("interface", (name, mode), **options)

    def dataflow(self, interface: str = "ap_ctrl_hs") -> "Schedule":
        """Run the top kernel's calls and loop nests as concurrent tasks (FPGA build).
        ``interface="ap_ctrl_chain"`` gives the top an ``ap_continue`` input too."""
        return self._record("dataflow", (), interface=interface)

    def compose(self, other: "Schedule") -> "Schedule":
        """Apply ``other``'s loop directives (a schedule of a kernel this one calls) to
        that kernel's loops, as Allo's compose does: ``s.compose(stage_schedule)``."""
        if not isinstance(other, Schedule):
            raise TypeError("compose() takes a schedule: vichls.customize(sub_kernel)")
        where = call_site(1)
        called = self._called_kernels()
        name = other.kernel.name
        if name not in called:
            raise DirectiveError(f"s.compose(...): kernel '{self.kernel.name}' does not call "
                                 f"'{name}'", *where)
        from vichls.transforms.loop.apply_directives import LOOP_DIRECTIVES

        bad = next((d for d in other.directives if d.kind not in LOOP_DIRECTIVES), None)
        if bad is not None:
            raise DirectiveError(f"s.compose(...): {bad.spelled()} of '{name}' cannot be composed "
                                 "(only loop directives can; apply it to the top kernel)",
                                 *where)
        self.composed.append(other)
        return self

    def _kernel_named(self, name: str):
        todo, seen = [self.kernel], set()
        while todo:
            k = todo.pop()
            if k.name == name:
                return k
            seen.add(k.name)
            todo += [c for c in k.tree().callees if c.name not in seen]
        raise KeyError(name)

    def _called_kernels(self) -> set[str]:
        found: set[str] = set()
        todo = [self.kernel]
        while todo:
            k = todo.pop()
            for callee in k.tree().callees:
                if callee.name not in found:
                    found.add(callee.name)
                    todo.append(callee)
        return found

    # -- building -------------------------------------------------------------------------------
    def check_supported(self) -> None:
        """Refuse every directive the compiler cannot honour yet."""
        from vichls.transforms.loop.apply_directives import LOOP_DIRECTIVES

        for d in self.directives:
            if d.kind not in LOOP_DIRECTIVES and \
                    d.kind not in ("partition", "dataflow", "interface"):
                raise self._fail(d, "this directive is recognised but not implemented yet in "
                                    "this version of vichls; remove it to build the design")

    def module(self):
        """A fresh loop-level IR module of the kernel with the loop directives applied."""
        from vichls.transforms.loop.apply_directives import apply_directives

        from vichls.transforms.loop.partition_arrays import request_partitions

        self.check_supported()
        module = self.kernel.module()
        # partitioning is a hardware choice: recorded on the IR, applied by the FPGA back
        # end; recorded first, so that pipelining sees the banks it will get
        # (transforms/loop/loop_flatten_guarded)
        request_partitions(module, [(d.args[0], dict(d.options)["kind"], dict(d.options)["dim"],
                                     dict(d.options)["factor"])
                                    for d in self.directives if d.kind == "partition"])
        apply_directives(module, self.directives, self.kernel.tree().loop_names())
        for sub in self.composed:
            sub.check_supported()
            apply_directives(module, sub.directives, sub.kernel.tree().loop_names(),
                             sub.kernel.name)
        requests = [d for d in self.directives if d.kind == "interface"]
        if requests:  # a hardware choice too: the FPGA back end builds the adapters
            from vichls.interface.spec import check_interface, record_interfaces
            from vichls.signature import signature_of, top_function

            sig = signature_of(top_function(module))
            record_interfaces(top_function(module), list({
                r.name: r for r in (check_interface(sig, *d.args, dict(d.options))
                                    for d in requests)}.values()))
        dataflow = [d for d in self.directives if d.kind == "dataflow"]
        if dataflow:
            # tasks and channels: built by the FPGA back end (transforms/graph/extract_tasks.py); the
            # CPU runs the kernel's statements in order, which is what it means
            from xdsl.dialects.builtin import StringAttr

            from vichls.dialects.attributes import DATAFLOW_ATTR
            from vichls.signature import top_function

            interface = dict(dataflow[-1].options).get("interface", "ap_ctrl_hs")
            top_function(module).attributes[DATAFLOW_ATTR] = StringAttr(interface)
        return module

    def build(self, target: str = "fpga", *, clock_period_ns: float = 10.0):
        """Compile for ``target``: "fpga" gives an FpgaDesign (Verilog + report), "cpu" a
        callable running LLVM machine code, "sim" a callable running the Verilog in a
        simulator (results and ``last_cycles``)."""
        if target not in TARGETS:
            raise DirectiveError(f"unknown target {target!r} (expected one of "
                                 f"{', '.join(TARGETS)})")
        from vichls.driver.build import build_module  # (the API's one way into the driver)

        return build_module(self.module(), target, clock_period_ns=clock_period_ns)


def customize(kernel) -> Schedule:
    """A schedule (set of directives) for ``kernel``."""
    from vichls.frontend.kernel import Kernel

    if not isinstance(kernel, Kernel):
        raise TypeError("customize() takes a @kernel function")
    return Schedule(kernel, made_at=call_site(1))
