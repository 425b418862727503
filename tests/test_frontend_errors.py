"""Bad kernels: each is refused with exit status 2, a message naming file:line:col and the
construct, no traceback and no output folder."""

import textwrap

import pytest

from vichls.cli import main

HEADER = "from vichls import kernel, int32, uint8, int_, bool_\nimport vichls\nN = 8\n"

# (kernel body source, expected message fragment, line of the error within the snippet
#  counted from the line after HEADER, column)
CASES = [
    ("""
@kernel
def f(a: int32) -> int32:
    return a / 2
""", "not supported", 4, 12),
    ("""
@kernel
def f(a: float) -> int32:
    return 1
""", "not a kernel type", 3, 10),
    ("""
@kernel
def f(a) -> int32:
    return 1
""", "needs a type annotation", 3, 7),
    ("""
@kernel
def f(A: int32[N]):
    x = [1, 2]
""", "list", 4, 9),
    ("""
@kernel
def f(A: int32[N]):
    A[8] = 1
""", "out of range", 4, 7),
    ("""
@kernel
def f(A: int32[N]):
    A[0, 1] = 1
""", "1 dimension", 4, 5),
    ("""
@kernel
def f(A: int32[N]) -> int32:
    return f(A)
""", "recursi", 4, 12),
    ("""
@kernel
def f(A: int32[N]):
    print(A[0])
""", "print", 4, 5),
    ("""
@kernel
def f(n: int32):
    buf: int32[n] = 0
""", "constant", 4, 16),
    ("""
G = [1, 2, 3]
@kernel
def f(A: int32[N]):
    A[0] = G[0]
""", "not a kernel array", 5, 12),
    ("""
@kernel
def f(A: int32[N]) -> int32:
    for i in range(N):
        A[i] = 0
""", "without a return", 3, 1),
    ("""
@kernel
def f(A: int32[N]):
    for i in range(N):
        i = 3
""", "loop variable", 5, 9),
    ("""
@kernel
def f(A: int32[N]):
    for x in A:
        pass
""", "range", 4, 14),
    ("""
@kernel
def f(A: int32[N]):
    y += 1
""", "before it is assigned", 4, 5),
    ("""
@kernel
def f(A: int32[N]):
    A[0] = 1.5
""", "float", 4, 12),
    ("""
@kernel
def f(A: int32[N]):
    break
""", "outside", 4, 5),
    ("""
@kernel
def f(A: int32[N]):
    A[0] = undefined_thing
""", "unknown name", 4, 12),
    ("""
@kernel
def f(A: int32[N]):
    for i in range(0, N, 0):
        pass
""", "must not be zero", 4, 26),
    ("""
@kernel
def f(A: int32[N]) -> int32:
    x: int_(99) = 0
    return x
""", "width", 4, 8),
    ("""
@kernel
def f(a: int32):
    return a
""", "no return type", 4, 5),
]


@pytest.mark.parametrize("src,fragment,line,col", CASES)
def test_bad_kernel(tmp_path, capsys, src, fragment, line, col):
    path = tmp_path / "bad.py"
    path.write_text(HEADER + textwrap.dedent(src).lstrip("\n"))
    out = tmp_path / "out"
    rc = main(["compile", str(path), "--top", "f", "-o", str(out)])
    err = capsys.readouterr().err
    assert rc == 2, err
    assert "Traceback" not in err
    assert fragment in err, err
    expected_line = line + HEADER.count("\n") - 1
    assert f"{path}:{expected_line}:{col}: error:" in err, err
    assert not out.exists()


def test_syntax_error(tmp_path, capsys):
    path = tmp_path / "bad.py"
    path.write_text(HEADER + "@kernel\ndef f(a: int32):\n    x = (1 +\n")
    rc = main(["compile", str(path), "-o", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert rc == 2 and "syntax error" in err and f"{path}:" in err and "Traceback" not in err


def test_unknown_directive_loop(tmp_path, capsys):
    path = tmp_path / "bad.py"
    path.write_text(HEADER + textwrap.dedent("""
        @kernel
        def f(A: int32[N]):
            for i in range(N):
                A[i] = 0
        s = vichls.customize(f)
        s.pipeline("q")
    """))
    rc = main(["compile", str(path), "-o", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert rc == 2 and "no loop named 'q'" in err and f"{path}:10:" in err


def test_unknown_dataflow_interface_is_an_error(tmp_path, capsys):
    path = tmp_path / "k.py"
    path.write_text(HEADER + textwrap.dedent("""
        @kernel
        def f(A: int32[N]):
            for i in range(N):
                A[i] = 0
        s = vichls.customize(f)
        s.dataflow(interface="ap_hs")
    """))
    rc = main(["compile", str(path), "-o", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert rc == 2 and "s.dataflow(interface='ap_hs')" in err and "interface must be" in err
    assert f"{path}:" in err and "Traceback" not in err
    assert not (tmp_path / "out").exists()


def test_partition_errors(tmp_path):
    import vichls
    from vichls.errors import DirectiveError

    path = tmp_path / "k.py"
    path.write_text(HEADER + textwrap.dedent("""
        @kernel
        def f(A: int32[N]):
            for i in range(N):
                A[i] = 0
    """))
    from vichls.frontend.kernel import load_file

    f = load_file(path)["f"]
    s = vichls.customize(f)
    with pytest.raises(DirectiveError, match="larger than"):
        s.partition("A", dim=1, factor=16)
    with pytest.raises(DirectiveError, match="local arrays only"):
        s.partition("A", kind="complete")
    with pytest.raises(DirectiveError, match="no array named"):
        s.partition("B", factor=2)
