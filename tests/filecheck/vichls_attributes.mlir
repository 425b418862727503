// RUN: not vichls-opt %s 2>&1 | filecheck %s
// The vichls attributes are checked as the ops are (dialects/attributes.py): a cycle that
// is not an integer is refused where it stands.

builtin.module attributes {vichls.top = "sum"} {
  func.func @sum(%A: memref<8xi32> {vichls.name = "A", vichls.type = "int32"}) -> i32 attributes {vichls.kernel, vichls.ret_type = "int32"} {
    %acc = memref.alloca() : memref<i32>
    %zero = arith.constant 0 : i32
    memref.store %zero, %acc[] : memref<i32>
    affine.for %i = 0 to 8 {
      %s = memref.load %acc[] : memref<i32>
      %x = affine.load %A[%i] : memref<8xi32>
      %t = arith.addi %s, %x {vichls.cycle = "x"} : i32 loc("sum.py":7:5)
      memref.store %t, %acc[] : memref<i32>
    }
    %r = memref.load %acc[] : memref<i32>
    func.return %r : i32
  }
}

// CHECK: sum.py:7:5: error: arith.addi: 'vichls.cycle' = "x": "x" should be of base attribute integer
