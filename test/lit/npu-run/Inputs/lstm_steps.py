"""LSTMs and GRUs of the forms npu16 writes out as steps
(onnx::unroll_recurrent), and one it keeps whole: writes DIR/m.onnx and its inputs.
  fw:   forward, biases, initial states from the inputs, batch 2
  bw:   reverse, no biases, no initial states, one output (Y_h) used
  bi:   bidirectional, zero initial states as constants, all three outputs
  one:  a single step
  col:  batch 1 (R times h as a column), bidirectional, nonzero constant initial states
  gru_fw:  GRU forward, biases, initial state from the inputs, batch 2
  gru_lbr: GRU bidirectional, linear_before_reset, biases, constant initial state, batch 1
  gru_nob: GRU reverse, linear_before_reset, no biases, no initial state, batch 1
  clip: a clip (kept whole: the CPU runs it)
usage: lstm_steps.py DIR"""
import sys

import numpy as np
from onnx import TensorProto as T

sys.path.insert(0, __import__("os").path.dirname(__file__))
from onnx_graph import Graph  # noqa: E402

rng = np.random.default_rng(7)
g = Graph()
F = T.FLOAT


def weights(p, d, h, i, bias=True, gates=4):
    w = g.init(p + "_w", rng.uniform(-0.5, 0.5, (d, gates * h, i)).astype(np.float32))
    r = g.init(p + "_r", rng.uniform(-0.5, 0.5, (d, gates * h, h)).astype(np.float32))
    b = g.init(p + "_b", rng.uniform(-0.5, 0.5, (d, 2 * gates * h)).astype(np.float32)) if bias else ""
    return w, r, b


g.input("x", F, rng.standard_normal((5, 2, 12)).astype(np.float32))
g.input("h0", F, rng.standard_normal((1, 2, 16)).astype(np.float32))
g.input("c0", F, rng.standard_normal((1, 2, 16)).astype(np.float32))
w, r, b = weights("fw", 1, 16, 12)
g.node("LSTM", ["x", w, r, b, "", "h0", "c0"], ["fw_y", "fw_yh", "fw_yc"], hidden_size=16)
w, r, _ = weights("bw", 1, 8, 12, bias=False)
g.node("LSTM", ["x", w, r], ["", "bw_yh"], hidden_size=8, direction="reverse")
w, r, b = weights("bi", 2, 20, 12)
z = g.init("zeros", np.zeros((2, 2, 20), np.float32))
g.node("LSTM", ["x", w, r, b, "", z, z], ["bi_y", "bi_yh", "bi_yc"], hidden_size=20, direction="bidirectional")
g.input("x1", F, rng.standard_normal((1, 1, 12)).astype(np.float32))
w, r, b = weights("one", 1, 16, 12)
g.node("LSTM", ["x1", w, r, b], ["one_y"], hidden_size=16)
g.input("x2", F, rng.standard_normal((4, 1, 12)).astype(np.float32))
w, r, b = weights("col", 2, 24, 12)
hc = g.init("col_h0", rng.uniform(-1, 1, (2, 1, 24)).astype(np.float32))
cc = g.init("col_c0", rng.uniform(-1, 1, (2, 1, 24)).astype(np.float32))
g.node("LSTM", ["x2", w, r, b, "", hc, cc], ["col_y", "col_yh", "col_yc"], hidden_size=24, direction="bidirectional")
g.input("gh0", F, rng.standard_normal((1, 2, 16)).astype(np.float32))
w, r, b = weights("gru_fw", 1, 16, 12, gates=3)
g.node("GRU", ["x", w, r, b, "", "gh0"], ["gru_fw_y", "gru_fw_yh"], hidden_size=16)
w, r, b = weights("gru_lbr", 2, 20, 12, gates=3)
gh = g.init("gru_lbr_h0", rng.uniform(-1, 1, (2, 1, 20)).astype(np.float32))
g.node("GRU", ["x2", w, r, b, "", gh], ["gru_lbr_y", "gru_lbr_yh"], hidden_size=20, direction="bidirectional", linear_before_reset=1)
w, r, _ = weights("gru_nob", 1, 8, 12, bias=False, gates=3)
g.node("GRU", ["x2", w, r], ["gru_nob_y"], hidden_size=8, direction="reverse", linear_before_reset=1)
w, r, b = weights("clip", 1, 16, 12)
g.node("LSTM", ["x", w, r, b], ["clip_y"], hidden_size=16, clip=0.5)
for o in ["fw_y", "fw_yh", "fw_yc", "bw_yh", "bi_y", "bi_yh", "bi_yc", "one_y", "col_y", "col_yh", "col_yc", "gru_fw_y", "gru_fw_yh", "gru_lbr_y", "gru_lbr_yh", "gru_nob_y", "clip_y"]:
    g.result(o, F)
g.save(sys.argv[1], "lstm_steps", opset=14)
