// RUN: vichls-opt -p if-convert-scalars,forward-scalar-stores %s | filecheck %s
// Outside pipelines, only an update that is read back right after its if becomes a
// select (r: the compare after it reads it, forwarded, and so does the store in the last
// if); s's update is not read in the body (a select would only add a multiplexer), and the
// if with an array store stays an if.

builtin.module {
  func.func @f(%a: memref<8xi32>, %n: i32) -> i32 {
    %r = memref.alloca() : memref<i32>
    %s = memref.alloca() : memref<i32>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %one = arith.constant 1 : i32
    scf.for %i = %c0 to %c8 step %c1 {
      %x = memref.load %a[%i] : memref<8xi32>
      %big = arith.cmpi sgt, %x, %n : i32
      scf.if %big {
        %v = memref.load %r[] : memref<i32>
        %w = arith.addi %v, %one : i32
        memref.store %w, %r[] : memref<i32>
      }
      scf.if %big {
        %v = memref.load %s[] : memref<i32>
        %w = arith.addi %v, %x : i32
        memref.store %w, %s[] : memref<i32>
      }
      %now = memref.load %r[] : memref<i32>
      %full = arith.cmpi sge, %now, %n : i32
      scf.if %full {
        %v = memref.load %r[] : memref<i32>
        memref.store %v, %a[%i] : memref<8xi32>
      }
    }
    %out = memref.load %s[] : memref<i32>
    func.return %out : i32
  }
}

// CHECK:       %big = arith.cmpi sgt, %x, %n : i32
// CHECK-NOT:   scf.if
// CHECK:       %[[NOW:.*]] = arith.select %big, %{{.*}}, %{{.*}} : i32
// CHECK-NEXT:  memref.store %[[NOW]], %r[] : memref<i32>
// CHECK-NEXT:  scf.if %big {
// CHECK:         memref.store %{{.*}}, %s[] : memref<i32>
// CHECK-NEXT:  }
// CHECK-NEXT:  %full = arith.cmpi sge, %[[NOW]], %n : i32
// CHECK-NEXT:  scf.if %full {
// CHECK-NEXT:    memref.store %[[NOW]], %a[%i] : memref<8xi32>
// CHECK-NOT:   arith.select
