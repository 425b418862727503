// RUN: not vichls-opt -p nosuchpass %s 2>&1 | filecheck %s --check-prefix=PASS
// RUN: not vichls-opt -p 'loop-tile{loop=i}' %s 2>&1 | filecheck %s --check-prefix=OPTION
// RUN: not vichls-opt -p 'loop-tile{loop=i size=x}' %s 2>&1 | filecheck %s --check-prefix=TYPE
// RUN: not vichls-opt %s.missing 2>&1 | filecheck %s --check-prefix=FILE
// vichls-opt's own mistakes of use are one line each with exit status 2, not a traceback.

builtin.module {
}

// PASS:       error: -p nosuchpass: Unrecognized passes: ['nosuchpass']
// PASS-NOT:   Traceback
// OPTION:     error: -p loop-tile{loop=i}: loop-tile requires argument "size"
// TYPE:       error: -p loop-tile{loop=i size=x}: Incompatible types
// FILE:       vichls-opt: error: {{.*}}opt_errors.mlir.missing: No such file or directory
