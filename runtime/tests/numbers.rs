//! The CPU path end to end on shapes chosen to hit every code path of the
//! lowering (vector tails in both tile dims, batched products, im2col and
//! grouped convolutions, transposed Gemm), checked against references
//! computed here in f64 from the same random inputs.

use prost::Message;
use runtime::{compile, CompileOptions, HostTensor};
use std::collections::HashMap;

fn model(text: &str) -> Vec<u8> {
    onnx_translate::text::parse_model(text).unwrap_or_else(|e| panic!("{}: {}", text, e.message)).encode_to_vec()
}

fn random(shape: &[i64], seed: u64) -> (HostTensor, Vec<f64>) {
    let t = HostTensor::random(onnx_translate::proto::data_type::FLOAT, shape, seed).unwrap();
    let v = t.to_f64().unwrap();
    (t, v)
}

fn run(text: &str, inputs: Vec<(&str, HostTensor)>) -> Vec<f64> {
    let bytes = model(text);
    let given: HashMap<String, HostTensor> = inputs.into_iter().map(|(n, t)| (n.to_string(), t)).collect();
    let c = compile(&bytes, None, &given, &CompileOptions { opt_level: 2, ..Default::default() }).unwrap();
    c.run(&given).unwrap()[0].to_f64().unwrap()
}

fn close(got: &[f64], want: &[f64]) {
    assert_eq!(got.len(), want.len());
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!((g - w).abs() <= 1e-4 + 1e-4 * w.abs(), "element {}: {} vs expected {}", i, g, w);
    }
}

#[test]
fn matmul_with_tails_in_both_tile_dims() {
    let (m, k, n) = (37usize, 53usize, 29usize);
    let (a, av) = random(&[m as i64, k as i64], 1);
    let (b, bv) = random(&[k as i64, n as i64], 2);
    let got = run("<ir_version: 8, opset_import: [\"\" : 17]> g (float[37,53] A, float[53,29] B) => (float[37,29] C) { C = MatMul(A, B) }", vec![("A", a), ("B", b)]);
    let want: Vec<f64> = (0..m * n).map(|p| (0..k).map(|q| av[p / n * k + q] * bv[q * n + p % n]).sum()).collect();
    close(&got, &want);
}

#[test]
fn batched_matmul_wider_than_one_tile() {
    let (bs, m, k, n) = (3usize, 5usize, 17usize, 70usize);
    let (a, av) = random(&[bs as i64, m as i64, k as i64], 3);
    let (b, bv) = random(&[bs as i64, k as i64, n as i64], 4);
    let got = run("<ir_version: 8, opset_import: [\"\" : 17]> g (float[3,5,17] A, float[3,17,70] B) => (float[3,5,70] C) { C = MatMul(A, B) }", vec![("A", a), ("B", b)]);
    let want: Vec<f64> = (0..bs * m * n)
        .map(|p| {
            let (z, i, j) = (p / (m * n), p / n % m, p % n);
            (0..k).map(|q| av[z * m * k + i * k + q] * bv[z * k * n + q * n + j]).sum()
        })
        .collect();
    close(&got, &want);
}

#[test]
fn gemm_transposed_b_with_alpha_beta_and_bias() {
    let (m, k, n) = (4usize, 6usize, 33usize);
    let (a, av) = random(&[m as i64, k as i64], 5);
    let (b, bv) = random(&[n as i64, k as i64], 6);
    let (c, cv) = random(&[n as i64], 7);
    let got = run(
        "<ir_version: 8, opset_import: [\"\" : 17]> g (float[4,6] A, float[33,6] B, float[33] C) => (float[4,33] Y) { Y = Gemm<transB = 1, alpha = 0.5, beta = 2.0>(A, B, C) }",
        vec![("A", a), ("B", b), ("C", c)],
    );
    let want: Vec<f64> = (0..m * n).map(|p| 0.5 * (0..k).map(|q| av[p / n * k + q] * bv[p % n * k + q]).sum::<f64>() + 2.0 * cv[p % n]).collect();
    close(&got, &want);
}

/// Direct convolution in f64: NCHW, one batch, zero padding, groups.
#[allow(clippy::too_many_arguments)]
fn conv_ref(x: &[f64], w: &[f64], c: usize, h: usize, wd: usize, m: usize, kh: usize, kw: usize, stride: usize, pad: usize, groups: usize) -> (Vec<f64>, usize, usize) {
    let oh = (h + 2 * pad - kh) / stride + 1;
    let ow = (wd + 2 * pad - kw) / stride + 1;
    let (cg, mg) = (c / groups, m / groups);
    let mut out = vec![0.0; m * oh * ow];
    for o in 0..m {
        let g = o / mg;
        for y in 0..oh {
            for z in 0..ow {
                let mut s = 0.0;
                for ci in 0..cg {
                    for dy in 0..kh {
                        for dx in 0..kw {
                            let (iy, ix) = ((y * stride + dy) as isize - pad as isize, (z * stride + dx) as isize - pad as isize);
                            if iy < 0 || ix < 0 || iy >= h as isize || ix >= wd as isize {
                                continue;
                            }
                            s += x[(g * cg + ci) * h * wd + iy as usize * wd + ix as usize] * w[((o * cg + ci) * kh + dy) * kw + dx];
                        }
                    }
                }
                out[(o * oh + y) * ow + z] = s;
            }
        }
    }
    (out, oh, ow)
}

#[test]
fn strided_padded_conv_through_im2col() {
    let (x, xv) = random(&[1, 3, 11, 9], 8);
    let (w, wv) = random(&[5, 3, 3, 3], 9);
    let got = run(
        "<ir_version: 8, opset_import: [\"\" : 17]> g (float[1,3,11,9] X, float[5,3,3,3] W) => (float[1,5,6,5] Y) { Y = Conv<pads = [1, 1, 1, 1], strides = [2, 2]>(X, W) }",
        vec![("X", x), ("W", w)],
    );
    let (want, oh, ow) = conv_ref(&xv, &wv, 3, 11, 9, 5, 3, 3, 2, 1, 1);
    assert_eq!((oh, ow), (6, 5));
    close(&got, &want);
}

#[test]
fn grouped_conv() {
    let (x, xv) = random(&[1, 6, 7, 7], 10);
    let (w, wv) = random(&[9, 2, 3, 3], 11);
    let got = run(
        "<ir_version: 8, opset_import: [\"\" : 17]> g (float[1,6,7,7] X, float[9,2,3,3] W) => (float[1,9,7,7] Y) { Y = Conv<pads = [1, 1, 1, 1], group = 3>(X, W) }",
        vec![("X", x), ("W", w)],
    );
    let (want, _, _) = conv_ref(&xv, &wv, 6, 7, 7, 9, 3, 3, 1, 1, 3);
    close(&got, &want);
}

#[test]
fn wrong_inputs_are_refused_with_what_the_model_expects() {
    let bytes = model("<ir_version: 8, opset_import: [\"\" : 17]> g (float[2,3] X) => (float[2,3] Y) { Y = Relu(X) }");
    let (x, _) = random(&[2, 3], 1);
    let given: HashMap<String, HostTensor> = [("X".to_string(), x)].into_iter().collect();
    let c = compile(&bytes, None, &given, &CompileOptions::default()).unwrap();
    let (bad, _) = random(&[3, 2], 1);
    let err = c.run(&[("X".to_string(), bad)].into_iter().collect()).unwrap_err();
    assert!(err.contains("X: FLOAT[3, 2] does not match") && err.contains("X: FLOAT[2, 3]"), "{}", err);
    let err = c.run(&HashMap::new()).unwrap_err();
    assert!(err.contains("missing input 'X'"), "{}", err);
}

/// MatMul → Add (per-column bias) → Add (residual, a full matrix) → Relu:
/// all three fuse into the product's epilogue and run on the accumulator
/// vectors (bias broadcast, residual loaded along the row, masked tails).
#[test]
fn fused_epilogue_bias_residual_relu() {
    let (m, k, n) = (11usize, 9usize, 37usize);
    let (a, av) = random(&[m as i64, k as i64], 21);
    let (w, wv) = random(&[k as i64, n as i64], 22);
    let (b, bv) = random(&[n as i64], 23);
    let (r, rv) = random(&[m as i64, n as i64], 24);
    let got = run(
        "<ir_version: 8, opset_import: [\"\" : 17]> g (float[11,9] A, float[9,37] W, float[37] B, float[11,37] R) => (float[11,37] Y) { P = MatMul(A, W) Q = Add(P, B) S = Add(Q, R) Y = Relu(S) }",
        vec![("A", a), ("W", w), ("B", b), ("R", r)],
    );
    let want: Vec<f64> = (0..m * n)
        .map(|p| {
            let (i, j) = (p / n, p % n);
            let s: f64 = (0..k).map(|q| av[i * k + q] * wv[q * n + j]).sum::<f64>() + bv[j] + rv[p];
            s.max(0.0)
        })
        .collect();
    close(&got, &want);
}
