// TfIdfVectorizer (TF with skips over 1..3-grams, IDF with weights over 2..3-grams,
// TFIDF over an unbatched int32 row) runs on both paths and gives what ONNX
// Runtime gives.
// RUN: rm -rf %t && split-file %s %t
// RUN: npu-translate --import-onnx %t/m.onnxtext | npu-translate --export-onnx -o %t/m.onnx
// RUN: python3 -c "import numpy as n; n.save('%t/x.npy', n.array([[2, 3, 5, 4, 2, 3, 5, 6, 7], [5, 6, 7, 8, 2, 5, 3, 4, 2]], dtype=n.int64)); n.save('%t/z.npy', n.array([2, 3, 5, 6, 2, 3, 7], dtype=n.int32))"
// RUN: npu-run %t/m.onnx --input x=%t/x.npy --input z=%t/z.npy --output-dir %t/cpu
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/cpu x=%t/x.npy z=%t/z.npy | FileCheck %s
// RUN: npu-run %t/m.onnx --target npu --input x=%t/x.npy --input z=%t/z.npy --output-dir %t/npu
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/npu x=%t/x.npy z=%t/z.npy | FileCheck %s
// CHECK: tf: match
// CHECK-NEXT: idf: match
// CHECK-NEXT: tfidf: match
// The comparison can fail: a count off by one differs.
// RUN: python3 -c "import numpy as n; a = n.load('%t/cpu/tf.npy'); a[1, 4] += 1; n.save('%t/cpu/tf.npy', a)"
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/cpu x=%t/x.npy z=%t/z.npy | FileCheck %s --check-prefix=CORRUPT
// CORRUPT: tf: differs

//--- m.onnxtext
<ir_version: 8, opset_import: ["" : 17]>
g (int64[2,9] x, int32[7] z) => (float[2,7] tf, float[2,7] idf, float[7] tfidf) {
  tf = TfIdfVectorizer <mode = "TF", min_gram_length = 1, max_gram_length = 3, max_skip_count = 2, ngram_counts = [0, 4, 8], ngram_indexes = [0, 1, 2, 3, 4, 5, 6], pool_int64s = [2, 3, 5, 4, 5, 6, 7, 8, 2, 3, 5]> (x)
  idf = TfIdfVectorizer <mode = "IDF", min_gram_length = 2, max_gram_length = 3, max_skip_count = 1, ngram_counts = [0, 4, 8], ngram_indexes = [0, 1, 2, 3, 4, 5, 6], weights = [0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5], pool_int64s = [2, 3, 5, 4, 5, 6, 7, 8, 2, 3, 5]> (x)
  tfidf = TfIdfVectorizer <mode = "TFIDF", min_gram_length = 1, max_gram_length = 2, max_skip_count = 0, ngram_counts = [0, 4], ngram_indexes = [0, 1, 2, 3, 4, 5, 6], weights = [1.0, 0.5, 2.0, 1.0, 3.0, 0.25, 4.0], pool_int64s = [2, 3, 5, 4, 5, 6, 7, 8, 2, 3]> (z)
}
