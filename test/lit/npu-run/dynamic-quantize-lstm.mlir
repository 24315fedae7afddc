// com.microsoft's DynamicQuantizeLSTM runs on the CPU path as ONNX Runtime
// runs it (single-threaded: with more threads it quantizes each thread's part
// of the batch on its own scale): X quantized to uint8 once over the whole
// sequence, H at every step, integer products with the weights' zero points,
// scaled back per direction or per column; bidirectional, with a bias and an
// initial state, int8 weights with per-column recurrent scales (m) and uint8
// weights with zero points (u). A uint8 tensor computed at run time
// (DynamicQuantizeLinear's) stays unsigned for the ops that read it: its Cast
// to float gives 0..255, not -128..127.
// RUN: rm -rf %t && split-file %s %t
// RUN: npu-translate --import-onnx %t/m.onnxtext | npu-translate --export-onnx -o %t/m.onnx
// RUN: npu-translate --import-onnx %t/u.onnxtext | npu-translate --export-onnx -o %t/u.onnx
// RUN: python3 -c "import numpy as n; n.save('%t/x.npy', n.random.default_rng(0).standard_normal((4, 2, 2)).astype(n.float32))"
// RUN: npu-run %t/m.onnx --input x=%t/x.npy --output-dir %t/cpu
// RUN: %if vnni %{ python3 %S/Inputs/match_ort.py %t/m.onnx %t/cpu x=%t/x.npy | FileCheck %s %}
// RUN: npu-run %t/u.onnx --input x=%t/x.npy --output-dir %t/u
// RUN: python3 %S/Inputs/match_ort.py %t/u.onnx %t/u x=%t/x.npy | FileCheck %s
// ONNX Runtime is the reference for the int8 weights only with VNNI (`%if
// vnni`): elsewhere its u8s8 GEMM sums pairs of products in int16 with
// saturation and is off by 1e-4; its u8u8 GEMM, the uint8 weights', is exact
// on every host.
// On the NPU path the LSTM falls back to the CPU, with the reason.
// RUN: npu-run %t/m.onnx --target npu -v --input x=%t/x.npy --output-dir %t/npu | FileCheck %s --check-prefix=PLACED
// RUN: %if vnni %{ python3 %S/Inputs/match_ort.py %t/m.onnx %t/npu x=%t/x.npy | FileCheck %s %}
// PLACED: onnx.ms.DynamicQuantizeLSTM {{.*}} [no-lowering] no NPU lowering for onnx.ms.DynamicQuantizeLSTM
// The comparison can fail: a corrupted output differs.
// RUN: python3 -c "import numpy as n; a = n.load('%t/u/yh.npy'); a.flat[7] += 0.01; n.save('%t/u/yh.npy', a)"
// RUN: python3 %S/Inputs/match_ort.py %t/u.onnx %t/u x=%t/x.npy | FileCheck %s --check-prefix=CORRUPT
// CHECK: y: match
// CHECK: yh: match
// CHECK: yc: match
// CHECK: xq: match
// CORRUPT: yh: differs

//--- m.onnxtext
<ir_version: 8, opset_import: ["" : 13, "com.microsoft" : 1]>
g (float[4,2,2] x) => (float[4,2,2,3] y, float[2,2,3] yh, float[2,2,3] yc, float[4,2,2] xq) <int8[2,2,12] W = {79, -106, -82, -67, -81, 77, 94, 21, -117, -103, -43, -17, 31, -5, -60, -87, 49, 60, -119, -99, -12, -28, 99, 4, -20, -18, 42, 22, -83, 61, 65, 116, 73, -55, -46, 38, 38, 50, 94, -53, 112, -127, -108, 121, 113, -51, -92, -47}, int8[2,3,12] R = {-117, 100, 41, 22, -65, -7, -79, 70, -7, -120, -63, 53, 5, -32, -63, -104, 28, 41, 5, 110, 109, -75, 28, 33, -64, -51, -3, 62, -53, 57, 39, -72, -29, 84, 87, 40, -126, 47, -70, 82, 105, -18, 117, 66, -44, 97, -29, -101, 24, 89, 40, -27, 103, -5, -29, -90, -73, 51, 76, -53, 33, 95, -90, -57, 6, 16, -26, -26, -95, 29, 110, -77}, float[2,24] B = {0.1474, -0.4917, 0.01841, -0.2892, 0.2272, -0.6103, -0.2743, 0.2129, 0.3469, -0.6474, -0.1494, 0.09841, -0.1828, 0.4772, -0.3574, 0.1064, -0.3145, 0.4218, -0.006495, -0.1117, -0.5155, 0.5045, 0.2258, 0.2261, 0.3414, 0.1048, -0.1918, -0.2401, -0.2401, 0.411, -0.4381, -0.1789, -0.09637, 0.06739, 0.1726, -0.3747, -0.519, -0.001324, 0.3641, 0.2271, 0.0647, -0.09515, 0.08797, -0.073, 0.2452, -0.2383, 0.04027, -0.03323}, float[2,2,3] h0 = {0.2717, 0.1123, 1.275, 0.7493, 0.7484, -1.02, -0.1702, -0.3043, 0.2664, -1.14, 0.5872, 0.5335}, float[2] ws = {0.01, 0.012}, int8[2] wz = {0, 0}, float[2,12] rs = {0.01244, 0.01313, 0.0132, 0.007538, 0.00982, 0.008427, 0.007617, 0.01072, 0.008179, 0.01119, 0.01082, 0.006044, 0.009424, 0.008899, 0.01207, 0.005881, 0.00669, 0.01013, 0.009046, 0.01165, 0.008329, 0.006972, 0.01432, 0.007439}, int8[2,12] rz = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}> {
  y, yh, yc = com.microsoft.DynamicQuantizeLSTM<hidden_size = 3, direction = "bidirectional">(x, W, R, B, "", h0, "", "", ws, wz, rs, rz)
  q, qs, qz = DynamicQuantizeLinear(x)
  xq = Cast<to = 1>(q)
}

//--- u.onnxtext
<ir_version: 8, opset_import: ["" : 13, "com.microsoft" : 1]>
g (float[4,2,2] x) => (float[4,2,2,3] y, float[2,2,3] yh, float[2,2,3] yc, float[4,2,2] xq) <uint8[2,2,12] W = {207, 21, 45, 60, 46, 205, 222, 149, 10, 24, 85, 110, 159, 122, 67, 40, 177, 188, 8, 29, 115, 100, 227, 132, 107, 110, 170, 150, 44, 188, 193, 244, 201, 72, 81, 166, 166, 178, 222, 74, 240, 0, 19, 249, 241, 76, 35, 80}, uint8[2,3,12] R = {11, 228, 169, 149, 62, 120, 48, 197, 121, 7, 65, 180, 133, 95, 64, 23, 155, 169, 133, 238, 237, 53, 155, 161, 63, 76, 124, 189, 74, 184, 167, 55, 99, 212, 215, 168, 1, 174, 57, 209, 233, 109, 244, 194, 83, 224, 98, 26, 151, 217, 168, 100, 230, 122, 98, 37, 54, 178, 204, 74, 160, 223, 37, 70, 134, 143, 101, 102, 33, 156, 238, 50}, float[2,24] B = {0.1474, -0.4917, 0.01841, -0.2892, 0.2272, -0.6103, -0.2743, 0.2129, 0.3469, -0.6474, -0.1494, 0.09841, -0.1828, 0.4772, -0.3574, 0.1064, -0.3145, 0.4218, -0.006495, -0.1117, -0.5155, 0.5045, 0.2258, 0.2261, 0.3414, 0.1048, -0.1918, -0.2401, -0.2401, 0.411, -0.4381, -0.1789, -0.09637, 0.06739, 0.1726, -0.3747, -0.519, -0.001324, 0.3641, 0.2271, 0.0647, -0.09515, 0.08797, -0.073, 0.2452, -0.2383, 0.04027, -0.03323}, float[2,2,3] h0 = {0.2717, 0.1123, 1.275, 0.7493, 0.7484, -1.02, -0.1702, -0.3043, 0.2664, -1.14, 0.5872, 0.5335}, float[2] ws = {0.01, 0.012}, uint8[2] wz = {120, 131}, float[2] rs = {0.009, 0.011}, uint8[2] rz = {128, 125}> {
  y, yh, yc = com.microsoft.DynamicQuantizeLSTM<hidden_size = 3, direction = "bidirectional">(x, W, R, B, "", h0, "", "", ws, wz, rs, rz)
  q, qs, qz = DynamicQuantizeLinear(x)
  xq = Cast<to = 1>(q)
}
