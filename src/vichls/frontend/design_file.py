"""A design file, as the command line names one: a kernel file (``.py``) or a loop-level
package (``.mlir``), read into the loop-level module to compile.

``load_design(path, top)`` imports a kernel file and picks its top kernel (``top``, or the
only kernel, or the kernel of the file's one schedule, or the one no other kernel calls),
applies the file's module-level ``vichls.customize`` schedule of it (two schedules of one
kernel are an error), and keeps the file's ``make_inputs``; or reads and checks a package
(vichls/frontend/mlir_input.py). (ONNX models: vichls/onnx/design.py.) Used by ``vichls compile``/``sim`` and ``vichls dse``.
"""

from __future__ import annotations

from vichls.errors import VichlsError


class Loaded:
    """What a FILE argument gives: the loop-level module, and for Python files the kernel,
    its schedule and the file's own input generator."""

    def __init__(self, module, kernel=None, schedule=None, make_inputs=None):
        self.module = module
        self.kernel = kernel
        self.schedule = schedule
        self.make_inputs = make_inputs

    @property
    def signature(self):
        from vichls.signature import signature_of, top_function

        return signature_of(top_function(self.module))


def load_design(path: str, top: str | None) -> Loaded:
    from vichls.frontend.kernel import kernels_in, load_file
    from vichls.frontend.customize import Schedule

    if path.endswith(".onnx"):  # (vichls.onnx sits above the front end: the CLI reads these)
        raise VichlsError("an ONNX model: compile it with vichls compile / vichls sim, or "
                          "vichls.onnx.load", path)

    if path.endswith(".mlir"):
        from vichls.frontend.mlir_input import load_mlir
        from vichls.dialects.attributes import TOP_ATTR

        module = load_mlir(path)
        if top is not None:
            from xdsl.dialects.builtin import StringAttr

            from vichls.signature import find_function

            try:
                find_function(module, top)
            except KeyError:
                raise VichlsError(f"no function named '{top}' in the IR", path) from None
            module.attributes[TOP_ATTR] = StringAttr(top)
        return Loaded(module)

    namespace = load_file(path)
    kernels = kernels_in(namespace)
    if not kernels:
        raise VichlsError("the file defines no @kernel function", path)
    schedules = [v for v in namespace.values() if isinstance(v, Schedule)]
    if top is not None:
        if top not in kernels:
            raise VichlsError(f"no kernel named '{top}' (kernels here: "
                              f"{', '.join(sorted(kernels))})", path)
        kernel = kernels[top]
    elif len(kernels) == 1:
        kernel = next(iter(kernels.values()))
    elif len(schedules) == 1:
        kernel = schedules[0].kernel
    else:
        called = {c.name for k in kernels.values() for c in k.tree().callees}
        roots = [k for name, k in kernels.items() if name not in called]
        if len(roots) != 1:
            raise VichlsError("the file defines several kernels; choose one with --top NAME "
                              f"(kernels here: {', '.join(sorted(kernels))})", path)
        kernel = roots[0]
    mine = [s for s in schedules if s.kernel is kernel]
    distinct = list({id(s): s for s in mine}.values())  # one schedule under two names is one
    if len(distinct) > 1:
        names = [n for n, v in namespace.items() if any(v is s for s in distinct)]
        second = sorted(distinct, key=lambda s: (s.made_at[1] or 0))[1]
        filename, line, col = second.made_at
        raise VichlsError(f"the file makes {len(distinct)} schedules of kernel '{kernel.name}' "
                          f"({', '.join(names)}); which one to apply is not clear: keep one",
                          filename or path, line, col)
    schedule = distinct[0] if distinct else None
    # the module-level schedule's directives shape the IR every target compiles
    module = schedule.module() if schedule is not None else kernel.module()
    make_inputs = namespace.get("make_inputs")
    return Loaded(module, kernel, schedule, make_inputs if callable(make_inputs) else None)
