//! What `npu-run` prints after a run unless `-q`: where and how fast it ran,
//! and each output's name, type and a look at its values, so that a run that
//! writes no files still shows what it computed.

use runtime::{HostTensor, TensorSpec};

/// How many leading values an output line shows.
const FIRST_VALUES: usize = 6;

/// One line per output: `name  FLOAT[1, 4]  min … max … mean …  [v0, v1, …]`.
pub fn outputs(specs: &[TensorSpec], outs: &[HostTensor]) -> String {
    let rows: Vec<(String, String, String)> = specs
        .iter()
        .zip(outs)
        .map(|(s, t)| {
            let dims: Vec<String> = t.shape.iter().map(|d| d.to_string()).collect();
            (s.name.clone(), format!("{}[{}]", onnx::types::data_type_name(t.dtype), dims.join(", ")), values(t))
        })
        .collect();
    let (wn, wt) = rows.iter().fold((0, 0), |(a, b), (n, t, _)| (a.max(n.len()), b.max(t.len())));
    let mut s = String::from("outputs:\n");
    for (n, t, v) in rows {
        s.push_str(&format!("  {:wn$}  {:wt$}  {}\n", n, t, v));
    }
    s
}

/// Statistics and the first values of one tensor (NaNs counted apart).
fn values(t: &HostTensor) -> String {
    let Ok(v) = t.to_f64() else { return "(values not shown for this element type)".into() };
    if v.is_empty() {
        return "(empty)".into();
    }
    let finite: Vec<f64> = v.iter().copied().filter(|x| !x.is_nan()).collect();
    let nans = v.len() - finite.len();
    let mut s = String::new();
    if !finite.is_empty() {
        let min = finite.iter().copied().fold(f64::INFINITY, f64::min);
        let max = finite.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let mean = finite.iter().sum::<f64>() / finite.len() as f64;
        s.push_str(&format!("min {}  max {}  mean {}  ", num(min), num(max), num(mean)));
    }
    if nans > 0 {
        s.push_str(&format!("{} NaN  ", nans));
    }
    let first: Vec<String> = v.iter().take(FIRST_VALUES).map(|x| num(*x)).collect();
    let more = if v.len() > FIRST_VALUES { ", …" } else { "" };
    s.push_str(&format!("[{}{}]", first.join(", "), more));
    s
}

/// A number in at most 6 significant digits (integers as they are).
fn num(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        return format!("{}", x as i64);
    }
    let s = format!("{:.6}", x);
    if x.abs() >= 1e-3 && x.abs() < 1e6 {
        let t = s.trim_end_matches('0');
        return t.trim_end_matches('.').to_string();
    }
    format!("{:.5e}", x)
}

/// The first line on the CPU path: where it ran and the times.
pub fn cpu_line(nodes: usize, compile_ms: f64, cached: bool, run_ms: f64) -> String {
    let from = if cached { " (from the compile cache)" } else { "" };
    format!("ran on cpu: {} ONNX nodes, compiled in {:.1} ms{}, run in {:.3} ms\n", nodes, compile_ms, from, run_ms)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f32s(v: &[f32]) -> HostTensor {
        let mut t = HostTensor::zeros(onnx_translate::proto::data_type::FLOAT, &[v.len() as i64]).unwrap();
        for (c, x) in t.data.as_mut().chunks_exact_mut(4).zip(v) {
            c.copy_from_slice(&x.to_le_bytes());
        }
        t
    }

    #[test]
    fn statistics_skip_nans_and_count_them() {
        assert_eq!(values(&f32s(&[1.0, f32::NAN, 3.0])), "min 1  max 3  mean 2  1 NaN  [1, NaN, 3]");
    }

    #[test]
    fn long_tensors_show_their_first_values() {
        let v: Vec<f32> = (0..10).map(|i| i as f32 * 0.5).collect();
        assert_eq!(values(&f32s(&v)), "min 0  max 4.5  mean 2.25  [0, 0.5, 1, 1.5, 2, 2.5, …]");
    }

    #[test]
    fn small_and_large_numbers_keep_their_digits() {
        assert_eq!(num(0.00011133), "1.11330e-4");
        assert_eq!(num(123.456789), "123.456789");
        assert_eq!(num(-0.7615942), "-0.761594");
    }
}
