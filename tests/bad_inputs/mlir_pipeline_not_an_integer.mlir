// expect: 9:5: 'vichls.pipeline' = "yes": "yes" should be of base attribute integer
builtin.module attributes {vichls.top = "small"} {
  func.func @small(%a: memref<8xi32> {vichls.name = "a", vichls.type = "int32"} loc(unknown), %b: memref<8xi8> {vichls.name = "b", vichls.type = "uint8"} loc(unknown), %k: i32 {vichls.name = "k", vichls.type = "int32"} loc(unknown)) -> i32 attributes {vichls.kernel, vichls.ret_type = "int32"} {
    %0 = memref.alloca() : memref<i32> loc("small.py":4:1)
    %1 = memref.alloca() : memref<i32> loc("small.py":4:1)
    %2 = arith.constant 7 : i32 loc("small.py":4:1)
    memref.store %2, %0[] : memref<i32> loc("small.py":4:1)
    memref.store %2, %0[] : memref<i32> loc("small.py":5:5)
    affine.for %i = 0 to 8 {
      %3 = memref.load %0[] : memref<i32> loc("small.py":7:9)
      %4 = affine.load %a[%i] : memref<8xi32> loc("small.py":7:14)
      %5 = arith.muli %4, %k : i32 loc("small.py":7:14)
      %6 = affine.load %b[%i] : memref<8xi8> loc("small.py":7:25)
      %7 = arith.extui %6 : i8 to i32 loc("small.py":7:25)
      %8 = arith.addi %5, %7 : i32 loc("small.py":7:14)
      %9 = arith.addi %3, %8 : i32 loc("small.py":7:9)
      memref.store %9, %0[] : memref<i32> loc("small.py":7:9)
    } {vichls.pipeline = "yes"} loc("small.py":6:5)
    %10 = memref.load %0[] : memref<i32> loc("small.py":8:12)
    memref.store %10, %1[] : memref<i32> loc("small.py":8:5)
    %11 = memref.load %1[] : memref<i32> loc("small.py":4:1)
    func.return %11 : i32 loc("small.py":4:1)
  } loc("small.py":4:1)
} loc(unknown)
