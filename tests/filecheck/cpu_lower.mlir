// RUN: vichls-opt -p vichls-cpu-c-entry-point %s | filecheck %s --check-prefix=ENTRY
// RUN: vichls-opt -p vichls-cpu-c-entry-point,vichls-cpu-stream-put-bounds,vichls-cpu-lower-affine %s | filecheck %s --check-prefix=AFFINE
// RUN: vichls-opt -p vichls-cpu-c-entry-point,vichls-cpu-stream-put-bounds,vichls-cpu-lower-affine,vichls-cpu-scf-to-cf %s | filecheck %s --check-prefix=CF
// RUN: vichls-opt -p vichls-cpu-c-entry-point,vichls-cpu-stream-put-bounds,vichls-cpu-lower-affine,vichls-cpu-scf-to-cf,vichls-cpu-lower-streams,vichls-cpu-memref-to-llvm %s | filecheck %s --check-prefix=MEMREF
// RUN: vichls-opt -p vichls-cpu-c-entry-point,vichls-cpu-stream-put-bounds,vichls-cpu-lower-affine,vichls-cpu-scf-to-cf,vichls-cpu-lower-streams,vichls-cpu-memref-to-llvm,vichls-cpu-index-to-i64 %s | filecheck %s --check-prefix=INDEX
// RUN: vichls-opt -p vichls-cpu-c-entry-point,vichls-cpu-stream-put-bounds,vichls-cpu-lower-affine,vichls-cpu-scf-to-cf,vichls-cpu-lower-streams,vichls-cpu-memref-to-llvm,vichls-cpu-index-to-i64,vichls-cpu-arith-to-llvm %s | filecheck %s --check-prefix=ARITH
// RUN: vichls-opt -p vichls-cpu-c-entry-point,vichls-cpu-stream-put-bounds,vichls-cpu-lower-affine,vichls-cpu-scf-to-cf,vichls-cpu-lower-streams,vichls-cpu-memref-to-llvm,vichls-cpu-index-to-i64,vichls-cpu-arith-to-llvm,vichls-cpu-cf-to-llvm %s | filecheck %s --check-prefix=BRANCH
// RUN: vichls-opt -p vichls-cpu-c-entry-point,vichls-cpu-stream-put-bounds,vichls-cpu-lower-affine,vichls-cpu-scf-to-cf,vichls-cpu-lower-streams,vichls-cpu-memref-to-llvm,vichls-cpu-index-to-i64,vichls-cpu-arith-to-llvm,vichls-cpu-cf-to-llvm,vichls-cpu-func-to-llvm %s | filecheck %s --check-prefix=FUNC
// RUN: vichls-opt -p cpu-lower %s | filecheck %s --check-prefix=FUNC
// The CPU back end's lowering of a summing loop, one pass at a time (each RUN runs the
// passes of cpu-lower up to one and checks what that one did; the stream passes have
// cpu_lower_streams.mlir). cpu-lower, the pipeline, ends where the last pass does.

builtin.module attributes {vichls.top = "sum"} {
  func.func @sum(%A: memref<8xi32> {vichls.name = "A", vichls.type = "int32"}) -> i32 attributes {vichls.kernel, vichls.ret_type = "int32"} {
    %acc = memref.alloca() : memref<i32>
    %zero = arith.constant 0 : i32
    memref.store %zero, %acc[] : memref<i32>
    affine.for %i = 0 to 8 {
      %s = memref.load %acc[] : memref<i32>
      %x = affine.load %A[%i] : memref<8xi32>
      %t = arith.addi %s, %x : i32
      memref.store %t, %acc[] : memref<i32>
    }
    %r = memref.load %acc[] : memref<i32>
    func.return %r : i32
  }
}

// ENTRY:      func.func private @__vichls_sum(%A: memref<8xi32>
// ENTRY:      func.func @sum(%0: memref<8xi32>
// ENTRY-NEXT:   %1 = func.call @__vichls_sum(%0) : (memref<8xi32>) -> i32
// ENTRY-NEXT:   func.return %1 : i32

// AFFINE-NOT: affine.
// AFFINE:     scf.for %i = %{{.*}} to %{{.*}} step %{{.*}} {
// AFFINE:       %x = memref.load %A[%i] : memref<8xi32>

// CF-NOT:     scf.for
// CF:         cf.br ^[[HEAD:bb[0-9]+]](%{{.*}} : index)
// CF:       ^[[HEAD]](%i: index):
// CF-NEXT:    %[[C:.*]] = arith.cmpi slt, %i, %{{.*}} : index
// CF-NEXT:    cf.cond_br %[[C]], ^{{bb[0-9]+}}, ^{{bb[0-9]+}}

// MEMREF-NOT: memref.
// MEMREF:     func.func private @__vichls_sum(%A: !llvm.ptr
// MEMREF:     %acc = llvm.alloca %{{.*}} x i32
// MEMREF:     llvm.getelementptr inbounds %A[%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, i32

// INDEX-NOT:  index
// INDEX:    ^bb1(%i: i64):

// ARITH-NOT:  arith.
// ARITH:      llvm.icmp "slt" %i, %{{.*}} : i64
// ARITH:      %t = llvm.add %s, %x : i32

// BRANCH-NOT: cf.
// BRANCH:     llvm.cond_br

// FUNC-NOT:   func.
// FUNC:       llvm.func internal @__vichls_sum(%A: !llvm.ptr) -> i32 {
// FUNC:         llvm.return %r : i32
// FUNC:       llvm.func @sum(
