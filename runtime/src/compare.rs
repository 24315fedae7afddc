//! Output comparison as ONNX's backend tests do it: floats within
//! `atol + rtol * |expected|` with NaN equal to NaN; integers and bools exactly.

use crate::tensor::HostTensor;

#[derive(Debug)]
pub struct Mismatch {
    pub max_abs: f64,
    pub max_rel: f64,
    pub bad: usize,
    pub first: Option<(usize, f64, f64)>,
}

/// Compares `got` against `want`; `Ok(max_abs, max_rel)` when within tolerance.
pub fn compare(got: &HostTensor, want: &HostTensor, rtol: f64, atol: f64) -> Result<(f64, f64), String> {
    if got.shape != want.shape {
        return Err(format!("shape {:?} where {:?} was expected", got.shape, want.shape));
    }
    if got.dtype != want.dtype {
        return Err(format!("dtype {} where {} was expected", onnx::types::data_type_name(got.dtype), onnx::types::data_type_name(want.dtype)));
    }
    if let (Some(g), Some(w)) = (got.to_i128(), want.to_i128()) {
        if let Some(i) = (0..g.len()).find(|&i| g[i] != w[i]) {
            let n = (0..g.len()).filter(|&i| g[i] != w[i]).count();
            return Err(format!("{} of {} integers differ; first at {}: {} vs expected {}", n, g.len(), i, g[i], w[i]));
        }
        return Ok((0.0, 0.0));
    }
    let (g, w) = (got.to_f64(), want.to_f64());
    let (mut max_abs, mut max_rel, mut bad, mut first) = (0f64, 0f64, 0usize, None);
    for i in 0..g.len() {
        let (a, b) = (g[i], w[i]);
        if a.is_nan() && b.is_nan() || a == b {
            continue;
        }
        let d = (a - b).abs();
        let d = if d.is_nan() { f64::INFINITY } else { d };
        max_abs = max_abs.max(d);
        if b != 0.0 {
            max_rel = max_rel.max(d / b.abs());
        }
        if !(d <= atol + rtol * b.abs()) {
            bad += 1;
            first.get_or_insert((i, a, b));
        }
    }
    if bad > 0 {
        let (i, a, b) = first.unwrap();
        return Err(format!("{} of {} elements differ (max abs {:.3e}, max rel {:.3e}); first at {}: {} vs expected {}", bad, g.len(), max_abs, max_rel, i, a, b));
    }
    Ok((max_abs, max_rel))
}
