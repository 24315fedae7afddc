#!/usr/bin/env python3
"""Calls the shared library npu-translate --emit=lib built for index-checks.mlir
(graph g: y = Gather(x = [10, 20, 30], i)) through its C interface and prints y."""
import ctypes, sys, numpy as np
class D(ctypes.Structure):
    _fields_ = [("a", ctypes.c_void_p), ("b", ctypes.c_void_p), ("off", ctypes.c_int64), ("size", ctypes.c_int64), ("stride", ctypes.c_int64)]
def desc(arr):
    p = arr.ctypes.data
    return D(p, p, 0, arr.shape[0], 1)
lib = ctypes.CDLL(sys.argv[1])
x = np.array([10, 20, 30], np.float32); i = np.array([int(v) for v in sys.argv[2].split(",")], np.int64); y = np.zeros(3, np.float32)
ds = [desc(x), desc(i), desc(y)]
lib._mlir_ciface_g(*[ctypes.byref(d) for d in ds])
print(y.tolist())
