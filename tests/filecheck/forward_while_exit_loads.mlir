// RUN: vichls-opt -p forward-while-exit-loads %s | filecheck %s
// The loop exits from its condition, so the read of a[i & 7] right after it is the element
// the last test read: the condition keeps it in a register (a_at_exit) and the code after
// the loop reads that instead of the memory.

builtin.module attributes {vichls.top = "f"} {
  func.func @f(%a: memref<8xi32> {vichls.name = "a", vichls.type = "int32"}, %x: i32 {vichls.name = "x", vichls.type = "int32"}) -> i32 attributes {vichls.kernel, vichls.ret_type = "int32"} {
    %0 = memref.alloca() : memref<i32>
    %1 = memref.alloca() : memref<i32>
    %2 = arith.constant 0 : i32
    memref.store %2, %0[] : memref<i32>
    scf.while () : () -> () {
      %3 = memref.load %0[] : memref<i32>
      %4 = arith.constant 7 : i32
      %5 = arith.andi %3, %4 : i32
      %6 = arith.index_cast %5 : i32 to index
      %7 = memref.load %a[%6] : memref<8xi32>
      %8 = arith.cmpi ne, %7, %x : i32
      scf.condition(%8)
    } do {
      %9 = memref.load %0[] : memref<i32>
      %10 = arith.constant 1 : i32
      %11 = arith.addi %9, %10 : i32
      memref.store %11, %0[] : memref<i32>
      scf.yield
    }
    %12 = memref.load %0[] : memref<i32>
    %13 = arith.constant 7 : i32
    %14 = arith.andi %12, %13 : i32
    %15 = arith.index_cast %14 : i32 to index
    %16 = memref.load %a[%15] : memref<8xi32>
    memref.store %16, %1[] : memref<i32>
    func.return %16 : i32
  }
}


// CHECK:      %a_at_exit = memref.alloca() : memref<i32>
// CHECK:      scf.while
// CHECK:        %[[E:.*]] = memref.load %a[%{{.*}}] : memref<8xi32>
// CHECK-NEXT:   memref.store %[[E]], %a_at_exit[] : memref<i32>
// CHECK:      scf.yield
// CHECK:      %[[AFTER:.*]] = memref.load %a_at_exit[] : memref<i32>
// CHECK-NOT:  memref.load %a[
// CHECK:      func.return %[[AFTER]] : i32
