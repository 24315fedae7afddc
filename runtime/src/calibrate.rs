//! Calibration for post-training quantization (`npu-quantize`): the float
//! model runs on the CPU path with every tensor to quantize made an output,
//! over the calibration inputs, and each tensor's range comes from what it
//! held: its minimum and maximum (`minmax`), a percentile of its values
//! (`percentile`), or the clipping threshold whose int8 histogram loses the
//! least information (`entropy`, the KL-divergence search TensorRT made
//! common and ONNX Runtime's entropy calibrator does).

use crate::tensor::HostTensor;
use onnx_translate::proto::{encode_model, ModelProto, ValueInfoProto};
use std::collections::HashMap;

/// How a tensor's range is chosen from its calibration values.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Method {
    MinMax,
    /// The given percentile of the values at each end (99.999 by default).
    Percentile(f64),
    Entropy,
}

impl Method {
    pub fn parse(s: &str) -> Result<Method, String> {
        match s {
            "minmax" => Ok(Method::MinMax),
            "percentile" => Ok(Method::Percentile(99.999)),
            "entropy" => Ok(Method::Entropy),
            m => Err(format!("unknown calibration method '{}' (minmax, percentile, entropy)", m)),
        }
    }
}

/// Histogram bins per tensor (percentile and entropy).
const BINS: usize = 2048;
/// Levels the entropy search quantizes a candidate histogram to (int8's 128 per sign).
const LEVELS: usize = 128;

/// One tensor's statistics over the calibration set.
#[derive(Clone, Debug)]
struct Stats {
    min: f32,
    max: f32,
    /// Counts of |x| (entropy) or x (percentile) over [lo, hi] in BINS bins.
    hist: Vec<u64>,
    lo: f32,
    hi: f32,
}

/// A model that also returns `names` (untyped outputs: the importer types them).
pub fn with_outputs(model: &ModelProto, names: &[String]) -> Result<Vec<u8>, String> {
    let mut m = model.clone();
    let g = m.graph.as_mut().ok_or("the model has no graph")?;
    for n in names {
        if !g.output.iter().any(|o| o.name.as_deref() == Some(n)) {
            g.output.push(ValueInfoProto { name: Some(n.clone()), ..Default::default() });
        }
    }
    Ok(encode_model(&m))
}

fn floats(t: &HostTensor) -> Result<Vec<f32>, String> {
    Ok(t.to_f64()?.into_iter().map(|v| v as f32).filter(|v| !v.is_nan()).collect())
}

/// The range `[lo, hi]` of each of `names` over `samples`, by `method`.
pub fn ranges(model: &ModelProto, names: &[String], samples: &[HashMap<String, HostTensor>], method: Method) -> Result<HashMap<String, (f32, f32)>, String> {
    if samples.is_empty() {
        return Err("no calibration inputs".into());
    }
    let bytes = with_outputs(model, names)?;
    let c = crate::compile(&bytes, None, &samples[0], &crate::CompileOptions::default())?;
    let index: HashMap<&str, usize> = c.outputs.iter().enumerate().map(|(i, o)| (o.name.as_str(), i)).collect();
    let run = |s: &HashMap<String, HostTensor>| -> Result<Vec<HostTensor>, String> {
        let inputs: HashMap<String, HostTensor> = s.iter().filter(|(k, _)| c.runtime_inputs().any(|i| &i.name == *k)).map(|(k, v)| (k.clone(), v.clone())).collect();
        c.run(&inputs)
    };
    // Pass 1: minimum and maximum.
    let mut stats: HashMap<&str, Stats> = HashMap::new();
    for s in samples {
        let outs = run(s)?;
        for n in names {
            let i = *index.get(n.as_str()).ok_or_else(|| format!("'{}' is not a tensor the model computes", n))?;
            let v = floats(&outs[i])?;
            let e = stats.entry(n.as_str()).or_insert(Stats { min: f32::INFINITY, max: f32::NEG_INFINITY, hist: vec![], lo: 0.0, hi: 0.0 });
            for x in v.iter().filter(|x| x.is_finite()) {
                e.min = e.min.min(*x);
                e.max = e.max.max(*x);
            }
        }
    }
    if method != Method::MinMax {
        // Pass 2: histograms, of |x| for entropy, of x for percentiles.
        for st in stats.values_mut() {
            let (lo, hi) = if method == Method::Entropy { (0.0, st.min.abs().max(st.max.abs())) } else { (st.min, st.max) };
            st.lo = lo;
            st.hi = hi;
            st.hist = vec![0; BINS];
        }
        for s in samples {
            let outs = run(s)?;
            for n in names {
                let v = floats(&outs[index[n.as_str()]])?;
                let st = stats.get_mut(n.as_str()).unwrap();
                let w = (st.hi - st.lo).max(f32::MIN_POSITIVE);
                // Exact zeros (half of a Relu's output) quantize exactly at any
                // threshold: the entropy search does not see them, or their
                // spike would pull the threshold down to its smallest.
                for x in v.iter().filter(|x| x.is_finite() && !(method == Method::Entropy && **x == 0.0)) {
                    let x = if method == Method::Entropy { x.abs() } else { *x };
                    let b = (((x - st.lo) / w) * BINS as f32) as usize;
                    st.hist[b.min(BINS - 1)] += 1;
                }
            }
        }
    }
    Ok(names
        .iter()
        .map(|n| {
            let st = &stats[n.as_str()];
            let r = match method {
                _ if !st.min.is_finite() => (0.0, 0.0),
                Method::MinMax => (st.min, st.max),
                Method::Percentile(p) => percentile(st, p),
                Method::Entropy => {
                    // Symmetric around zero, within what was seen; a tensor that is never negative starts at zero.
                    let t = entropy_threshold(&st.hist, st.hi);
                    (if st.min >= 0.0 { 0.0 } else { (-t).max(st.min) }, t.min(st.max))
                }
            };
            (n.clone(), r)
        })
        .collect())
}

/// The values at `(100 - p)%` and `p%` of the histogram.
fn percentile(st: &Stats, p: f64) -> (f32, f32) {
    let total: u64 = st.hist.iter().sum();
    let w = (st.hi - st.lo) / BINS as f32;
    let at = |frac: f64| -> f32 {
        let target = (frac * total as f64).ceil() as u64;
        let mut seen = 0;
        for (i, c) in st.hist.iter().enumerate() {
            seen += c;
            if seen >= target.max(1) {
                return st.lo + w * (i as f32 + 1.0);
            }
        }
        st.hi
    };
    let lo = if st.min >= 0.0 { st.min } else { at(1.0 - p / 100.0) - w };
    (lo.max(st.min), at(p / 100.0).min(st.max))
}

/// A histogram as a distribution with no empty bin: each empty one gets
/// `eps`, taken evenly from the others (ONNX Runtime's `smooth_distribution`).
fn smooth(h: &[f64]) -> Option<Vec<f64>> {
    const EPS: f64 = 1e-4;
    let total: f64 = h.iter().sum();
    let zeros = h.iter().filter(|v| **v == 0.0).count();
    let nonzeros = h.len() - zeros;
    if total <= 0.0 || nonzeros == 0 {
        return None;
    }
    let take = EPS * zeros as f64 / nonzeros as f64;
    let p: Vec<f64> = h.iter().map(|v| if *v == 0.0 { EPS } else { v / total - take }).collect();
    p.iter().all(|v| *v > 0.0).then_some(p)
}

/// KL(p || q) of two distributions without empty bins.
fn kl(p: &[f64], q: &[f64]) -> f64 {
    let (sp, sq): (f64, f64) = (p.iter().sum(), q.iter().sum());
    p.iter().zip(q).map(|(a, b)| (a / sp) * ((a / sp) / (b / sq)).ln()).sum()
}

/// The |x| threshold in `[0, hi]` whose clipped histogram, quantized to
/// LEVELS levels, is closest (KL divergence) to the original (the search
/// of ONNX Runtime's entropy calibrator, on the one-sided histogram of |x|).
fn entropy_threshold(hist: &[u64], hi: f32) -> f32 {
    let n = hist.len();
    let w = hi / n as f32;
    let mut best = (f64::INFINITY, n);
    for i in (LEVELS..=n).step_by(8) {
        // p: the first i bins, the clipped tail added to the last.
        let mut p: Vec<f64> = hist[..i].iter().map(|c| *c as f64).collect();
        p[i - 1] += hist[i..].iter().sum::<u64>() as f64;
        // q: the first i bins merged into LEVELS levels (the rest into the
        // last), each level spread over the bins where p is not empty.
        let per = i / LEVELS;
        let mut q = vec![0.0; i];
        for l in 0..LEVELS {
            let (a, b) = (l * per, if l + 1 == LEVELS { i } else { (l + 1) * per });
            let sum: f64 = hist[a..b].iter().map(|c| *c as f64).sum();
            let nonzero = p[a..b].iter().filter(|v| **v > 0.0).count();
            if nonzero > 0 {
                for j in a..b {
                    if p[j] > 0.0 {
                        q[j] = sum / nonzero as f64;
                    }
                }
            }
        }
        let d = match (smooth(&p), smooth(&q)) {
            (Some(p), Some(q)) => kl(&p, &q),
            _ => f64::INFINITY,
        };
        if d < best.0 {
            best = (d, i);
        }
    }
    w * best.1 as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entropy_clips_a_long_tail() {
        // An exponential decay over the first tenth, two outliers at 100: the threshold is well below 100.
        let mut hist: Vec<u64> = (0..BINS).map(|i| (1e6 * (-(i as f64) / 40.0).exp()) as u64).collect();
        hist[BINS - 1] = 2;
        let t = entropy_threshold(&hist, 100.0);
        assert!(t < 30.0 && t > 3.0, "threshold {}", t);
    }

    #[test]
    fn entropy_of_a_gaussian_keeps_most_of_it() {
        // |x| of a standard normal over [0, 5): the threshold is a few sigmas.
        let hist: Vec<u64> = (0..BINS).map(|i| {
            let x = 5.0 * (i as f64 + 0.5) / BINS as f64;
            (1e6 * (-x * x / 2.0).exp()) as u64
        }).collect();
        let t = entropy_threshold(&hist, 5.0);
        assert!(t > 2.0 && t < 5.0, "threshold {}", t);
    }

    #[test]
    fn percentile_of_a_uniform_histogram() {
        let st = Stats { min: -1.0, max: 1.0, hist: vec![10; BINS], lo: -1.0, hi: 1.0 };
        let (lo, hi) = percentile(&st, 99.0);
        assert!((hi - 0.98).abs() < 0.01 && (lo + 0.98).abs() < 0.01, "{} {}", lo, hi);
    }
}
