"""Interface directives: which protocol each argument of the top (and its block control) gets.

What: ``s.interface(name, mode, **options)`` (``vichls.customize``) asks for a protocol per
argument, as Vitis HLS's ``#pragma HLS interface`` does (docs/interfaces.md has the table):

- arrays: ``ap_memory`` (default), ``bram``, ``m_axi`` (``bundle``, ``offset``, ``depth``,
  ``max_burst``, ``data_width``, ``latency``);
- streams: ``ap_fifo`` (default), ``axis`` (``last``);
- scalars: ``ap_none`` (default), ``ap_vld``, ``s_axilite`` (``bundle``);
- ``"return"`` (the block's control, and the returned value): ``ap_ctrl_hs`` (default),
  ``ap_ctrl_chain``, ``ap_ctrl_none``, ``s_axilite`` (``bundle``).

``Interface`` is one request with every option filled in; ``check_interface`` says what is
wrong with a request for a kernel's signature (the directive reports it at its line, the
``.mlir`` loader at the attribute); ``record_interfaces`` keeps the requests on the top
function of the loop-level package (``vichls.interfaces``), where ``interfaces_of`` reads
them back, with the defaults for the arguments no directive names.

Assumes the kernel's signature (vichls.signature): arrays, streams and scalar parameters,
and an optional returned scalar.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import func
from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, IntegerAttr, IntegerType, StringAttr

from vichls.dialects.attributes import INTERFACES_ATTR

RETURN = "return"
#: argument kind -> (default mode, every mode)
MODES = {
    "array": ("ap_memory", ("ap_memory", "bram", "m_axi")),
    "stream": ("ap_fifo", ("ap_fifo", "axis")),
    "scalar": ("ap_none", ("ap_none", "ap_vld", "s_axilite")),
    RETURN: ("ap_ctrl_hs", ("ap_ctrl_hs", "ap_ctrl_chain", "ap_ctrl_none", "s_axilite")),
}
#: mode -> {option: default}
OPTIONS: dict[str, dict[str, object]] = {
    "ap_memory": {}, "bram": {}, "ap_fifo": {}, "ap_none": {}, "ap_vld": {},
    "ap_ctrl_hs": {}, "ap_ctrl_chain": {}, "ap_ctrl_none": {},
    "s_axilite": {"bundle": "control"},
    "m_axi": {"bundle": "gmem", "offset": "slave", "depth": 0, "max_burst": 16,
              "data_width": 0, "latency": 0},
    "axis": {"last": False},
}
M_AXI_OFFSETS = ("slave", "direct", "off")
MAX_BURST = 256


@dataclass(frozen=True)
class Interface:
    """The protocol of one argument (or of the block control, ``name == "return"``)."""

    name: str
    mode: str
    options: tuple[tuple[str, object], ...] = ()  # every option of the mode, sorted

    def option(self, key: str):
        return dict(self.options)[key]

    @property
    def axi(self) -> bool:
        return self.mode in ("s_axilite", "m_axi", "axis")


def kind_of(signature, name: str) -> str | None:
    """"array", "stream", "scalar" or "return" for an argument name of ``signature``;
    None when the kernel has no such argument."""
    if name == RETURN:
        return RETURN
    for p in signature.params:
        if p.name == name:
            return "array" if p.is_array else ("stream" if p.is_stream else "scalar")
    return None


def _is_identifier(text: str) -> bool:
    return text.isidentifier() and text.isascii()


def check_interface(signature, name, mode, options: dict) -> Interface:
    """The request ``name``/``mode``/``options`` with every option filled in, or a
    ValueError saying what is wrong with it for a kernel of ``signature``."""
    if not isinstance(name, str):
        raise ValueError(f"the first argument names a parameter of '{signature.name}' or "
                         f"'return', not {name!r}")
    kind = kind_of(signature, name)
    if kind is None:
        params = ", ".join(p.name for p in signature.params) or "none"
        raise ValueError(f"'{signature.name}' has no parameter '{name}' (parameters: "
                         f"{params}; 'return' names the block control)")
    default, modes = MODES[kind]
    if mode not in modes:
        what = "the block control" if kind == RETURN else f"{kind} parameter '{name}'"
        raise ValueError(f"mode {mode!r} does not fit {what}: one of {', '.join(modes)} "
                         f"(default {default})")
    allowed = OPTIONS[mode]
    unknown = sorted(set(options) - set(allowed))
    if unknown:
        known = ", ".join(allowed) or "none"
        raise ValueError(f"{mode} has no option {unknown[0]!r} (its options: {known})")
    filled = {**allowed, **options}
    for key, value in filled.items():
        _check_option(signature, name, mode, key, value)
    if mode == "m_axi" and filled["data_width"]:
        element = signature.param(name).scalar.width
        if filled["data_width"] < element:
            raise ValueError(f"data_width={filled['data_width']} is narrower than an element "
                             f"of '{name}' ({element} bits)")
    return Interface(name, mode, tuple(sorted(filled.items())))


def _check_option(signature, name: str, mode: str, key: str, value) -> None:
    if key == "bundle":
        if not isinstance(value, str) or not _is_identifier(value):
            raise ValueError(f"bundle must be a name (letters, digits, _), not {value!r}")
        return
    if key == "last":
        if not isinstance(value, bool):
            raise ValueError(f"last must be True or False, not {value!r}")
        return
    if key == "offset":
        if value not in M_AXI_OFFSETS:
            raise ValueError(f"offset must be one of {', '.join(M_AXI_OFFSETS)}, not {value!r}")
        return
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{key} must be a whole number, not {value!r}")
    if key == "max_burst" and not 1 <= value <= MAX_BURST:
        raise ValueError(f"max_burst={value}: a burst has 1 to {MAX_BURST} beats")
    if key == "data_width" and value and (value < 32 or value > 512 or value & (value - 1)):
        raise ValueError(f"data_width={value}: 32, 64, 128, 256 or 512 bits")
    if key == "depth" and value < 0:
        raise ValueError(f"depth={value} must not be negative")
    if key == "depth" and value and value < signature.param(name).type.size:
        raise ValueError(f"depth={value} is smaller than '{name}' "
                         f"({signature.param(name).type.size} elements)")
    if key == "latency" and not 0 <= value <= 1024:
        raise ValueError(f"latency={value}: 0 to 1024 cycles")


def complete(signature, requests: list[Interface]) -> dict[str, Interface]:
    """Every argument's interface (and the block control's, under "return"): the requests,
    the defaults for the rest. A later request for one name replaces an earlier one."""
    out = {RETURN: Interface(RETURN, MODES[RETURN][0])}
    for p in signature.params:
        kind = kind_of(signature, p.name)
        out[p.name] = Interface(p.name, MODES[kind][0])
    for r in requests:
        out[r.name] = r
    return out


def has_axi(interfaces: dict[str, Interface]) -> bool:
    return any(i.axi for i in interfaces.values())


# -- the loop-level package ------------------------------------------------------------------
def _attr(value):
    if isinstance(value, bool):
        return IntegerAttr(int(value), IntegerType(1))
    if isinstance(value, int):
        return IntegerAttr(value, IntegerType(64))
    return StringAttr(str(value))


def _value(attr):
    if isinstance(attr, StringAttr):
        return attr.data
    if isinstance(attr.type, IntegerType) and attr.type.width.data == 1:
        return bool(attr.value.data)
    return attr.value.data


def record_interfaces(function: func.FuncOp, requests: list[Interface]) -> None:
    """Keep the requests on the top function (none: no attribute)."""
    if not requests:
        return
    function.attributes[INTERFACES_ATTR] = ArrayAttr([
        DictionaryAttr({"name": StringAttr(r.name), "mode": StringAttr(r.mode),
                        "options": DictionaryAttr({k: _attr(v) for k, v in r.options})})
        for r in requests])


def requested_interfaces(function: func.FuncOp) -> list[Interface]:
    """The requests recorded on ``function``, as recorded (no check)."""
    attr = function.attributes.get(INTERFACES_ATTR)
    if attr is None:
        return []
    out = []
    for entry in attr.data:
        d = entry.data
        options = d["options"].data if "options" in d else {}
        out.append(Interface(d["name"].data, d["mode"].data,
                             tuple(sorted((k, _value(v)) for k, v in options.items()))))
    return out


def check_recorded(function: func.FuncOp, signature) -> None:
    """ValueError when the recorded requests are malformed or do not fit ``signature``
    (a hand-edited package)."""
    attr = function.attributes.get(INTERFACES_ATTR)
    if attr is None:
        return
    for entry in attr.data:
        d = entry.data if isinstance(entry, DictionaryAttr) else None
        if d is None or not isinstance(d.get("name"), StringAttr) or \
                not isinstance(d.get("mode"), StringAttr) or \
                not isinstance(d.get("options", DictionaryAttr({})), DictionaryAttr) or \
                set(d) - {"name", "mode", "options"}:
            raise ValueError(f"{INTERFACES_ATTR}: each entry is {{name, mode, options}}")
        options = d["options"].data if "options" in d else {}
        if any(not isinstance(v, (StringAttr, IntegerAttr)) for v in options.values()):
            raise ValueError(f"{INTERFACES_ATTR}: options are strings and integers")
        check_interface(signature, d["name"].data, d["mode"].data,
                        {k: _value(v) for k, v in options.items()})


def interfaces_of(function: func.FuncOp, signature) -> dict[str, Interface]:
    """Every argument's interface of the top ``function`` (see ``complete``)."""
    return complete(signature, requested_interfaces(function))
