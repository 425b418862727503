// RUN: vichls-opt -p 'loop-tile{loop=j size=4}' %s | filecheck %s --check-prefix=TILE
// RUN: vichls-opt -p 'loop-unroll{loop=j factor=2}' %s | filecheck %s --check-prefix=UNROLL
// RUN: vichls-opt -p 'loop-unroll{loop=i}' %s | filecheck %s --check-prefix=FULL
// RUN: vichls-opt -p 'loop-reorder{loops=j,i}' %s | filecheck %s --check-prefix=REORDER
// RUN: vichls-opt -p 'loop-flatten{loops=i,j}' %s | filecheck %s --check-prefix=FLATTEN
// RUN: vichls-opt -p 'loop-pipeline{loop="i/j" ii=2}' %s | filecheck %s --check-prefix=PIPE
// RUN: not vichls-opt -p 'loop-tile{loop=q size=4}' %s 2>&1 | filecheck %s --check-prefix=MISSING
// The loop directives on IR text, each on a 4x8 nest whose loops are named by their
// induction variables (%i, %j), as the directive API names them by the kernel's variables.

builtin.module attributes {vichls.top = "mm"} {
  func.func @mm(%A: memref<4x8xi32> {vichls.name = "A", vichls.type = "int32"}, %B: memref<4x8xi32> {vichls.name = "B", vichls.type = "int32"}) attributes {vichls.kernel} {
    affine.for %i = 0 to 4 {
      affine.for %j = 0 to 8 {
        %x = affine.load %A[%i, %j] : memref<4x8xi32>
        %y = arith.addi %x, %x : i32
        affine.store %y, %B[%i, %j] : memref<4x8xi32>
      }
    }
    func.return
  }
}

// TILE:         affine.for %i = 0 to 4 {
// TILE-NEXT:      affine.for %j_out = 0 to 2 {
// TILE-NEXT:        affine.for %j_in = 0 to 4 {
// TILE-NEXT:          affine.load %A[%i, %j_out * 4 + %j_in]

// UNROLL:       affine.for %j = 0 to 8 step 2 {
// UNROLL:         affine.load %A[%i, %j] :
// UNROLL:         affine.load %A[%i, %j + 1] :
// UNROLL-NOT:     affine.load

// FULL-NOT:     affine.for %i
// FULL-COUNT-4: affine.for %j

// REORDER:      affine.for %j = 0 to 8 {
// REORDER-NEXT:   affine.for %i = 0 to 4 {

// FLATTEN:      affine.for %i_j = 0 to 32 {
// FLATTEN:        %i = arith.shrui %i_j
// FLATTEN:        %j = arith.andi %i_j
// FLATTEN-NOT:  affine.for

// PIPE:         affine.for %i_j = 0 to 32 {
// PIPE:         } {vichls.pipeline = 2 : i64}

// MISSING:      error: no loop named 'q' is left to transform
