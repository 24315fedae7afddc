//! ConvTranspose as npu16 runs it: on the array, without scattering.
//!
//! A transposed convolution of stride s writes output row f = i·s + kh − p
//! from input row i. Split by phase r = (f + p) mod s, each phase is an
//! ordinary stride-1 convolution of the input with the taps kh ≡ r (mod s),
//! flipped: with f + p = q·s + r and t = q − i, y[q·s + r] = Σ_t x[q − t] ·
//! w[t·s + r]. npu16 computes all s_h·s_w phases as one `npu.conv` with
//! s_h·s_w times the output channels and ⌈k/s⌉ taps per dim, then puts the
//! phases in place with one strided DMA copy (depth to space), and crops the
//! padding with a slice where there is some. A 2×2 stride-2 ConvTranspose (a
//! detector's upsampling head) is a pointwise conv and a copy.

use backend::{Reason, Unsupported};
use ir::{Body, OpId};

/// One spatial dim of the plan.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Axis {
    pub stride: i64,
    pub kernel: i64,
    /// Taps of the phase convolutions: ⌈kernel / stride⌉, or more where output padding needs them.
    pub taps: i64,
    /// The phase convolutions' padding before the input (taps − 1, less the
    /// whole positions the ConvTranspose's padding crops away).
    pub pad_before: i64,
    /// The phase convolutions' padding after the input.
    pub pad_after: i64,
    /// Phase-conv outputs (each gives `stride` rows of the interleaved result).
    pub positions: i64,
    /// Where the ConvTranspose's output starts in the interleaved result (its padding before).
    pub crop: i64,
    /// The ConvTranspose's output size.
    pub out: i64,
}

impl Axis {
    fn new(input: i64, stride: i64, kernel: i64, before: i64, out: i64) -> Result<Axis, Unsupported> {
        if stride < 1 || kernel < 1 || input < 1 || out < 1 {
            return Err(Unsupported::new(Reason::Shape, "an empty ConvTranspose"));
        }
        if before < 0 {
            return Err(Unsupported::new(Reason::Attribute, "an output larger than the transposed convolution writes (negative padding)"));
        }
        let taps = (kernel + stride - 1) / stride;
        // Leading positions that would only be cropped are not computed (a
        // stride-1 ConvTranspose becomes the plain convolution it is).
        let skip = (before / stride).min(taps - 1);
        let crop = before - skip * stride;
        // Phase-conv outputs that cover the cropped output.
        let needed = (crop + out + stride - 1) / stride;
        let pad_after = (needed - (input - skip)).max(0);
        // The array skips taps that read padding, so every output needs one tap
        // inside the input: where output_padding adds rows of bias only, the
        // phase conv gets leading taps of zero weights (one more at most: ONNX
        // keeps output_padding below the stride).
        if pad_after > taps {
            return Err(Unsupported::new(Reason::Attribute, "output padding of a stride or more"));
        }
        let taps = taps.max(pad_after + 1);
        Ok(Axis { stride, kernel, taps, pad_before: taps - 1 - skip, pad_after, positions: input - skip + pad_after, crop, out })
    }

    /// Rows of the interleaved result.
    pub fn full(&self) -> i64 {
        self.positions * self.stride
    }
}

/// How one ConvTranspose runs: the phase convolution and its copy.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    pub h: Axis,
    pub w: Axis,
    pub cin: i64,
    /// All output channels (the groups' together).
    pub cout: i64,
    pub group: i64,
}

/// The plan of a 2-D, batch-1, dilation-1 ConvTranspose with static shapes,
/// or why there is none.
pub fn plan(body: &Body, op: OpId) -> Result<Plan, Unsupported> {
    let o = body.op(op);
    let shape = |v| body.value_type(v).shape().map(|s| s.to_vec()).filter(|s| s.iter().all(|d| *d >= 0)).ok_or_else(|| Unsupported::new(Reason::DynamicShape, "dynamic shape"));
    let (x, w, y) = (shape(o.operand(0))?, shape(o.operand(1))?, shape(o.result(0))?);
    if x.len() != 4 || w.len() != 4 || y.len() != 4 {
        return Err(Unsupported::new(Reason::Shape, format!("{}-D transposed convolution (the NPU runs 2-D)", x.len() as i64 - 2)));
    }
    crate::target::one_image(x[0])?;
    let ints = |n: &str| body.op(op).ints_attr(n);
    if ints("dilations").is_some_and(|d| d.iter().any(|v| *v != 1)) {
        return Err(Unsupported::new(Reason::Attribute, "dilation other than 1"));
    }
    let group = o.attr("group").and_then(|a| a.as_int()).unwrap_or(1) as i64;
    if group < 1 || x[1] % group != 0 || w[0] != x[1] {
        return Err(Unsupported::new(Reason::Shape, "weights that do not match the input channels and groups"));
    }
    let strides = ints("strides").unwrap_or(vec![1, 1]);
    let before = onnx::infer::conv_transpose_pads_before(body, op).filter(|b| b.len() == 2 && strides.len() == 2).ok_or_else(|| Unsupported::new(Reason::Attribute, "padding or strides not given for 2 dims"))?;
    if y[1] != w[1] * group {
        return Err(Unsupported::new(Reason::Shape, "a result whose channels are not the weights' output channels"));
    }
    let h = Axis::new(x[2], strides[0], w[2], before[0], y[2])?;
    let wa = Axis::new(x[3], strides[1], w[3], before[1], y[3])?;
    Ok(Plan { h, w: wa, cin: x[1], cout: w[1] * group, group })
}

impl Plan {
    /// Phases per output channel.
    pub fn phases(&self) -> i64 {
        self.h.stride * self.w.stride
    }

    /// The phase convolution's pads, [top, left, bottom, right].
    pub fn conv_pads(&self) -> [i64; 4] {
        [self.h.pad_before, self.w.pad_before, self.h.pad_after, self.w.pad_after]
    }

    /// The phase convolution's filter, HWIO `[taps_h, taps_w, cin, phases·cout]`
    /// (channel (r_h·s_w + r_w)·cout + co), from ConvTranspose's `[cin, cout/group, kh, kw]`;
    /// zero across groups and for taps past the kernel.
    pub fn weights(&self, w: &[f64]) -> Vec<f32> {
        let (h, wa) = (&self.h, &self.w);
        let (cin, cout, n) = (self.cin as usize, self.cout as usize, (self.phases() * self.cout) as usize);
        let (cin_g, cout_g) = (cin / self.group as usize, cout / self.group as usize);
        let (kh, kw) = (h.kernel as usize, wa.kernel as usize);
        let mut out = vec![0f32; (h.taps * wa.taps) as usize * cin * n];
        for th in 0..h.taps {
            for tw in 0..wa.taps {
                for rh in 0..h.stride {
                    for rw in 0..wa.stride {
                        let (k_h, k_w) = ((h.taps - 1 - th) * h.stride + rh, (wa.taps - 1 - tw) * wa.stride + rw);
                        if k_h >= h.kernel || k_w >= wa.kernel {
                            continue;
                        }
                        for ci in 0..cin {
                            let g = ci / cin_g;
                            for cl in 0..cout_g {
                                let co = g * cout_g + cl;
                                let dst = (((th * wa.taps + tw) as usize * cin + ci) * n) + (rh * wa.stride + rw) as usize * cout + co;
                                out[dst] = w[((ci * cout_g + cl) * kh + k_h as usize) * kw + k_w as usize] as f32;
                            }
                        }
                    }
                }
            }
        }
        out
    }

    /// The phase convolution's bias: each output channel's, once per phase.
    pub fn bias(&self, b: &[f64]) -> Vec<f32> {
        (0..self.phases()).flat_map(|_| b.iter().map(|v| *v as f32)).collect()
    }

    /// The phase convolution's result, NHWC.
    pub fn phase_shape(&self) -> Vec<i64> {
        vec![1, self.h.positions, self.w.positions, self.phases() * self.cout]
    }

    /// Whether the interleaved result is the output itself (no padding to crop).
    pub fn uncropped(&self) -> bool {
        [self.h, self.w].iter().all(|a| a.crop == 0 && a.full() == a.out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// ConvTranspose by its definition (scatter), NCHW, batch 1.
    fn scatter(x: &[f64], xs: [usize; 3], w: &[f64], p: &Plan, before: [i64; 2]) -> Vec<f64> {
        let (cin, hh, ww) = (xs[0], xs[1], xs[2]);
        let (cout, g) = (p.cout as usize, p.group as usize);
        let (cin_g, cout_g) = (cin / g, cout / g);
        let (kh, kw) = (p.h.kernel as usize, p.w.kernel as usize);
        let (oh, ow) = (p.h.out, p.w.out);
        let mut y = vec![0.0; cout * (oh * ow) as usize];
        for ci in 0..cin {
            for i in 0..hh {
                for j in 0..ww {
                    for cl in 0..cout_g {
                        for a in 0..kh {
                            for b in 0..kw {
                                let (r, c) = (i as i64 * p.h.stride + a as i64 - before[0], j as i64 * p.w.stride + b as i64 - before[1]);
                                if r < 0 || c < 0 || r >= oh || c >= ow {
                                    continue;
                                }
                                let co = ci / cin_g * cout_g + cl;
                                y[(co * oh as usize + r as usize) * ow as usize + c as usize] += x[(ci * hh + i) * ww + j] * w[((ci * cout_g + cl) * kh + a) * kw + b];
                            }
                        }
                    }
                }
            }
        }
        y
    }

    /// The plan's way: the phase convolution (NHWC), depth to space, crop.
    fn phased(x: &[f64], xs: [usize; 3], w: &[f64], p: &Plan) -> Vec<f64> {
        let k = p.weights(w);
        let (cin, hh, ww) = (xs[0] as i64, xs[1] as i64, xs[2] as i64);
        let n = p.phases() * p.cout;
        let [pt, pl, _, _] = p.conv_pads();
        let mut y = vec![0.0; (p.cout * p.h.out * p.w.out) as usize];
        for q in 0..p.h.positions {
            for qq in 0..p.w.positions {
                for ch in 0..n {
                    let mut acc = 0.0;
                    for th in 0..p.h.taps {
                        for tw in 0..p.w.taps {
                            let (i, j) = (q + th - pt, qq + tw - pl);
                            if i < 0 || j < 0 || i >= hh || j >= ww {
                                continue;
                            }
                            for ci in 0..cin {
                                acc += x[((ci * hh + i) * ww + j) as usize] * k[(((th * p.w.taps + tw) * cin + ci) * n + ch) as usize] as f64;
                            }
                        }
                    }
                    let (phase, co) = (ch / p.cout, ch % p.cout);
                    let (r, c) = (q * p.h.stride + phase / p.w.stride - p.h.crop, qq * p.w.stride + phase % p.w.stride - p.w.crop);
                    if r >= 0 && c >= 0 && r < p.h.out && c < p.w.out {
                        y[((co * p.h.out + r) * p.w.out + c) as usize] = acc;
                    }
                }
            }
        }
        y
    }

    #[test]
    fn phases_compute_the_transposed_convolution() {
        // (cin, h, w, cout per group, group, kernel, stride, pads before, output padding)
        let cases: &[(usize, usize, usize, usize, usize, [i64; 2], [i64; 2], [i64; 2], [i64; 2])] = &[
            (3, 4, 5, 2, 1, [2, 2], [2, 2], [0, 0], [0, 0]),
            (2, 3, 3, 3, 1, [4, 4], [2, 2], [1, 1], [0, 0]),
            (2, 3, 4, 2, 1, [3, 3], [2, 2], [1, 1], [1, 1]),
            (4, 3, 3, 1, 2, [4, 2], [3, 1], [0, 1], [2, 0]),
            (1, 5, 2, 2, 1, [1, 3], [2, 1], [0, 0], [1, 0]),
            (4, 3, 3, 1, 2, [3, 2], [3, 1], [0, 1], [2, 0]),
            (2, 3, 3, 2, 1, [2, 2], [2, 2], [0, 0], [1, 1]),
            (2, 4, 4, 2, 1, [5, 3], [2, 1], [2, 1], [1, 0]),
        ];
        for (n, &(cin, hh, ww, cout_g, g, k, s, before, opad)) in cases.iter().enumerate() {
            let out = |i: usize, x: usize| s[i] * (x as i64 - 1) + opad[i] + k[i] - 2 * before[i];
            let (oh, ow) = (out(0, hh), out(1, ww));
            let axis = |i: usize, x: usize, o: i64| Axis::new(x as i64, s[i], k[i], before[i], o).unwrap();
            let p = Plan { h: axis(0, hh, oh), w: axis(1, ww, ow), cin: cin as i64, cout: (cout_g * g) as i64, group: g as i64 };
            let x: Vec<f64> = (0..cin * hh * ww).map(|i| ((i * 7 + n) % 11) as f64 - 5.0).collect();
            let w: Vec<f64> = (0..cin * cout_g * (k[0] * k[1]) as usize).map(|i| ((i * 5 + 3 * n) % 13) as f64 - 6.0).collect();
            assert_eq!(phased(&x, [cin, hh, ww], &w, &p), scatter(&x, [cin, hh, ww], &w, &p, before), "case {}", n);
        }
    }

    #[test]
    fn an_output_padding_row_of_bias_only_gets_a_zero_tap() {
        // k = s = 2 with output_padding 1: the last row has no tap of the kernel.
        let a = Axis::new(3, 2, 2, 0, 7).unwrap();
        assert_eq!((a.taps, a.pad_before, a.pad_after, a.positions), (2, 1, 1, 4));
        assert_eq!(Axis::new(3, 2, 2, 1, 3).unwrap().taps, 1);
        assert!(Axis::new(3, 2, 2, -1, 8).is_err());
    }

    #[test]
    fn a_stride_1_transposed_convolution_is_a_plain_one() {
        // k = 3, pads 1: the flipped kernel with pads 1, nothing to crop.
        let a = Axis::new(6, 1, 3, 1, 6).unwrap();
        assert_eq!((a.pad_before, a.pad_after, a.positions, a.crop), (1, 1, 6, 0));
    }
}
