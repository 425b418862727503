"""Reading ONNX models into vichls kernels (package)."""
