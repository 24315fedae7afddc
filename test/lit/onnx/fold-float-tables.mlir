// The float tables exporters compute from static shapes fold to constants: a
// detector's anchor grid (Range, Add, Reshape, Expand, Unsqueeze, Concat along
// the last axis), a Transpose and a Slice of it, and a Sub that broadcasts a
// column against a row. None of their ops is left to run on any target.
// Values are computed by hand below. An Expand to more than 65,536 elements
// stays an op (the folding limit).
// RUN: npu-opt %s --onnx-shape-inference --canonicalize | FileCheck %s

// x = Range(0, 3, 1) + 0.5 = [0.5, 1.5, 2.5] (a row), y = Range(0, 2, 1) + 0.5 = [0.5, 1.5] (a column).
// grid[i, j] = (x[j], y[i]):
// CHECK-LABEL: func.func @anchor_grid
// CHECK-DAG: %[[GRID:.*]] = "onnx.Constant"() <{value = dense<{{\[\[\[}}5.000000e-01, 5.000000e-01], [1.500000e+00, 5.000000e-01], [2.500000e+00, 5.000000e-01]], {{\[\[}}5.000000e-01, 1.500000e+00], [1.500000e+00, 1.500000e+00], [2.500000e+00, 1.500000e+00]]]> : tensor<2x3x2xf32>}>
// Transposed to [coordinate, i, j]:
// CHECK-DAG: %[[T:.*]] = "onnx.Constant"() <{value = dense<{{\[\[\[}}5.000000e-01, 1.500000e+00, 2.500000e+00], [5.000000e-01, 1.500000e+00, 2.500000e+00]], {{\[\[}}5.000000e-01, 5.000000e-01, 5.000000e-01], [1.500000e+00, 1.500000e+00, 1.500000e+00]]]> : tensor<2x2x3xf32>}>
// y[i] − x[j]:
// CHECK-DAG: %[[D:.*]] = "onnx.Constant"() <{value = dense<{{\[\[}}0.000000e+00, -1.000000e+00, -2.000000e+00], [1.000000e+00, 0.000000e+00, -1.000000e+00]]> : tensor<2x3xf32>}>
// The y coordinates alone:
// CHECK-DAG: %[[S:.*]] = "onnx.Constant"() <{value = dense<{{\[\[\[}}5.000000e-01, 5.000000e-01, 5.000000e-01], [1.500000e+00, 1.500000e+00, 1.500000e+00]]]> : tensor<1x2x3xf32>}>
// CHECK: return %[[GRID]], %[[T]], %[[D]], %[[S]]
func.func @anchor_grid() -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
  %zero = "onnx.Constant"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32>
  %one = "onnx.Constant"() <{value = dense<1.0> : tensor<f32>}> : () -> tensor<f32>
  %two = "onnx.Constant"() <{value = dense<2.0> : tensor<f32>}> : () -> tensor<f32>
  %three = "onnx.Constant"() <{value = dense<3.0> : tensor<f32>}> : () -> tensor<f32>
  %half = "onnx.Constant"() <{value = dense<0.5> : tensor<f32>}> : () -> tensor<f32>
  %rx = "onnx.Range"(%zero, %three, %one) : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<*xf32>
  %ry = "onnx.Range"(%zero, %two, %one) : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<*xf32>
  %x = "onnx.Add"(%rx, %half) : (tensor<*xf32>, tensor<f32>) -> tensor<*xf32>
  %y = "onnx.Add"(%ry, %half) : (tensor<*xf32>, tensor<f32>) -> tensor<*xf32>
  %s_row = "onnx.Constant"() <{value = dense<[1, 3]> : tensor<2xi64>}> : () -> tensor<2xi64>
  %s_col = "onnx.Constant"() <{value = dense<[2, 1]> : tensor<2xi64>}> : () -> tensor<2xi64>
  %s_grid = "onnx.Constant"() <{value = dense<[2, 3]> : tensor<2xi64>}> : () -> tensor<2xi64>
  %row = "onnx.Reshape"(%x, %s_row) : (tensor<*xf32>, tensor<2xi64>) -> tensor<*xf32>
  %col = "onnx.Reshape"(%y, %s_col) : (tensor<*xf32>, tensor<2xi64>) -> tensor<*xf32>
  %gx = "onnx.Expand"(%row, %s_grid) : (tensor<*xf32>, tensor<2xi64>) -> tensor<*xf32>
  %gy = "onnx.Expand"(%col, %s_grid) : (tensor<*xf32>, tensor<2xi64>) -> tensor<*xf32>
  %last = "onnx.Constant"() <{value = dense<[-1]> : tensor<1xi64>}> : () -> tensor<1xi64>
  %ux = "onnx.Unsqueeze"(%gx, %last) : (tensor<*xf32>, tensor<1xi64>) -> tensor<*xf32>
  %uy = "onnx.Unsqueeze"(%gy, %last) : (tensor<*xf32>, tensor<1xi64>) -> tensor<*xf32>
  %grid = "onnx.Concat"(%ux, %uy) <{axis = -1 : si64}> : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
  %t = "onnx.Transpose"(%grid) <{perm = array<i64: 2, 0, 1>}> : (tensor<*xf32>) -> tensor<*xf32>
  %d = "onnx.Sub"(%col, %row) : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
  %st = "onnx.Constant"() <{value = dense<[1]> : tensor<1xi64>}> : () -> tensor<1xi64>
  %en = "onnx.Constant"() <{value = dense<[2]> : tensor<1xi64>}> : () -> tensor<1xi64>
  %ax = "onnx.Constant"() <{value = dense<[0]> : tensor<1xi64>}> : () -> tensor<1xi64>
  %s = "onnx.Slice"(%t, %st, %en, %ax) : (tensor<*xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<*xf32>
  return %grid, %t, %d, %s : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
}

// CHECK-LABEL: func.func @too_big
// CHECK: "onnx.Expand"
func.func @too_big() -> tensor<*xf32> {
  %half = "onnx.Constant"() <{value = dense<0.5> : tensor<f32>}> : () -> tensor<f32>
  %s = "onnx.Constant"() <{value = dense<[300, 300]> : tensor<2xi64>}> : () -> tensor<2xi64>
  %e = "onnx.Expand"(%half, %s) : (tensor<f32>, tensor<2xi64>) -> tensor<*xf32>
  return %e : tensor<*xf32>
}
