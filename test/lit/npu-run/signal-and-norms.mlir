// The signal ops (DFT forward, one-sided, inverse and back from a half
// spectrum; STFT with a window; the Hann, Hamming and Blackman windows; the
// mel filter bank) and GroupNormalization / MeanVarianceNormalization run on
// both paths and give what ONNX Runtime gives.
// RUN: rm -rf %t && split-file %s %t
// RUN: npu-translate --import-onnx %t/m.onnxtext | npu-translate --export-onnx -o %t/m.onnx
// RUN: python3 -c "import numpy as n; r = n.random.default_rng(0); n.save('%t/x.npy', r.standard_normal((2, 8, 1)).astype(n.float32)); n.save('%t/z.npy', r.standard_normal((2, 3, 8, 2)).astype(n.float32)); n.save('%t/img.npy', r.standard_normal((1, 4, 3, 3)).astype(n.float32))"
// RUN: npu-run %t/m.onnx --input x=%t/x.npy --input z=%t/z.npy --input img=%t/img.npy --output-dir %t/cpu
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/cpu x=%t/x.npy z=%t/z.npy img=%t/img.npy | FileCheck %s
// RUN: npu-run %t/m.onnx --target npu --input x=%t/x.npy --input z=%t/z.npy --input img=%t/img.npy --output-dir %t/npu
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/npu x=%t/x.npy z=%t/z.npy img=%t/img.npy | FileCheck %s
// CHECK: spec: match
// CHECK-NEXT: half: match
// CHECK-NEXT: back: match
// CHECK-NEXT: real: match
// CHECK-NEXT: frames: match
// CHECK-NEXT: hann: match
// CHECK-NEXT: hamming: match
// CHECK-NEXT: blackman: match
// CHECK-NEXT: mel: match
// CHECK-NEXT: groups: match
// CHECK-NEXT: mvn: match
// The comparison can fail: a corrupted bin differs.
// RUN: python3 -c "import numpy as n; a = n.load('%t/cpu/frames.npy'); a[0, 1, 2, 1] += 0.01; n.save('%t/cpu/frames.npy', a)"
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/cpu x=%t/x.npy z=%t/z.npy img=%t/img.npy | FileCheck %s --check-prefix=CORRUPT
// CORRUPT: frames: differs

//--- m.onnxtext
<ir_version: 10, opset_import: ["" : 21]>
g (float[2,8,1] x, float[2,3,8,2] z, float[1,4,3,3] img) => (float[2,8,2] spec, float[2,5,2] half, float[2,3,8,2] back, float[2,8,1] real, float[2,3,3,2] frames, float[8] hann, float[7] hamming, float[8] blackman, float[5,4] mel, float[1,4,3,3] groups, float[1,4,3,3] mvn) {
  spec = DFT (x)
  eight = Constant <value = int64 {8}> ()
  one = Constant <value = int64 {1}> ()
  half = DFT <onesided = 1> (x, eight, one)
  two = Constant <value = int64 {2}> ()
  back = DFT <inverse = 1> (z, eight, two)
  real = DFT <inverse = 1, onesided = 1> (half, eight, one)
  step = Constant <value = int64 {2}> ()
  four = Constant <value = int64 {4}> ()
  w = HannWindow (four)
  hann = HannWindow (eight)
  seven = Constant <value = int64 {7}> ()
  hamming = HammingWindow <periodic = 0> (seven)
  blackman = BlackmanWindow (eight)
  frames = STFT <onesided = 1> (x, step, w)
  nmel = Constant <value = int64 {4}> ()
  rate = Constant <value = int64 {8000}> ()
  lo = Constant <value = float {100.0}> ()
  hi = Constant <value = float {3000.0}> ()
  mel = MelWeightMatrix (nmel, eight, rate, lo, hi)
  scale = Constant <value = float[4] {1.0, 2.0, 0.5, -1.0}> ()
  bias = Constant <value = float[4] {0.0, 0.1, 0.2, 0.3}> ()
  groups = GroupNormalization <num_groups = 2, epsilon = 0.001> (img, scale, bias)
  mvn = MeanVarianceNormalization (img)
}
