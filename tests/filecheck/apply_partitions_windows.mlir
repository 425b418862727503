// RUN: vichls-opt -p apply-partitions %s | filecheck %s
// s.partition("x", dim=1, factor=4, kind="cyclic") with reads x[i + 1] .. x[i + 4]: a window
// of four consecutive elements, one in each bank whatever i is. Each bank is read once, at
// the row of its element (row + 1 for the banks below the window's phase), and each load
// takes its bank by the phase: one access per bank, where reading every bank for every
// load would charge each bank four.

builtin.module attributes {vichls.top = "f"} {
  func.func @f(%x: memref<68xi32> {vichls.name = "x", vichls.type = "int32"}, %y: memref<64xi32> {vichls.name = "y", vichls.type = "int32"}) attributes {vichls.kernel, vichls.partition_requests = [{array = "x", kind = "cyclic", dim = 1 : i64, factor = 4 : i64}]} {
    affine.for %i = 0 to 64 {
      %a = affine.load %x[%i + 1] : memref<68xi32>
      %b = affine.load %x[%i + 2] : memref<68xi32>
      %s = arith.addi %a, %b : i32
      %c = affine.load %x[%i + 3] : memref<68xi32>
      %t = arith.addi %s, %c : i32
      %d = affine.load %x[%i + 4] : memref<68xi32>
      %u = arith.addi %t, %d : i32
      affine.store %u, %y[%i] : memref<64xi32>
    }
    func.return
  }
}

// CHECK:      affine.for %i = 0 to 64 {
// CHECK:        %[[ROW:.*]] = arith.shrui %{{.*}}, %{{.*}} : index
// CHECK-NEXT:   %[[PHASE:.*]] = arith.andi %{{.*}}, %{{.*}} : index
// CHECK-COUNT-4: memref.load %x{{(_[0-9])?}}[%{{.*}}] : memref<17xi32>
// CHECK-NOT:    memref.load
// CHECK:        affine.store %u, %y[%i] : memref<64xi32>
