// expect: 5:5: stream.clear is not part of the loop level
builtin.module attributes {vichls.top = "f"} {
  func.func @f(%a: memref<4xi32> {vichls.name = "a", vichls.type = "int32"}) attributes {vichls.kernel} {
    %q = stream.create {vichls.name = "q", depth = 2 : i64} : !stream.stream<i32>
    stream.clear %q : !stream.stream<i32>
    func.return
  }
}
