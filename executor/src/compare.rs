//! Output comparison as ONNX's backend tests do it, for every element type:
//! integers and bools exactly; 8- and 4-bit floats bit for bit once every NaN
//! is one code; wider floats within `atol + rtol * |expected|`, NaN equal to
//! NaN (numpy's `assert_allclose`). Both sides decode exactly or the
//! comparison is an error: "could not decode" never counts as equal.

use crate::tensor::HostTensor;

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
    let (g, w) = (got.to_f64()?, want.to_f64()?);
    if let (Some(gc), Some(wc)) = (got.mini_codes(), want.mini_codes()) {
        if let Some(i) = (0..gc.len()).find(|&i| gc[i] != wc[i]) {
            let n = (0..gc.len()).filter(|&i| gc[i] != wc[i]).count();
            return Err(format!("{} of {} elements differ bit for bit; first at {}: {} ({:#04x}) vs expected {} ({:#04x})", n, gc.len(), i, g[i], gc[i], w[i], wc[i]));
        }
        return Ok((0.0, 0.0));
    }
    let (mut max_abs, mut max_rel, mut bad, mut first) = (0f64, 0f64, 0usize, None);
    for i in 0..g.len() {
        let (a, b) = (g[i], w[i]);
        if a.is_nan() && b.is_nan() || a == b {
            continue;
        }
        // An infinity or NaN on one side only is never within tolerance (inf <= rtol * inf would be).
        let d = if a.is_finite() && b.is_finite() { (a - b).abs() } else { f64::INFINITY };
        max_abs = max_abs.max(d);
        if b != 0.0 {
            max_rel = max_rel.max(d / b.abs());
        }
        if !(d.is_finite() && d <= atol + rtol * b.abs()) {
            bad += 1;
            first.get_or_insert((i, a, b));
        }
    }
    if let Some((i, a, b)) = first {
        return Err(format!("{} of {} elements differ (max abs {:.3e}, max rel {:.3e}); first at {}: {} vs expected {}", bad, g.len(), max_abs, max_rel, i, a, b));
    }
    Ok((max_abs, max_rel))
}

#[cfg(test)]
mod tests {
    use super::*;
    use onnx_translate::proto::data_type as dt;

    fn tensor(dtype: i32, bytes: &[u8]) -> HostTensor {
        let w = crate::tensor::dtype_size(dtype).unwrap();
        let mut t = HostTensor::zeros(dtype, &[(bytes.len() / w) as i64]).unwrap();
        t.data.as_mut().copy_from_slice(bytes);
        t
    }

    #[test]
    fn narrow_floats_compare_bit_for_bit() {
        for d in [dt::FLOAT8E4M3FN, dt::FLOAT8E4M3FNUZ, dt::FLOAT8E5M2, dt::FLOAT8E5M2FNUZ, dt::FLOAT8E8M0, dt::FLOAT4E2M1] {
            let a = tensor(d, &[0x01, 0x02, 0x03]);
            assert!(compare(&a, &a, 1e-3, 1e-5).is_ok(), "{}", d);
            let b = tensor(d, &[0x01, 0x03, 0x03]);
            assert!(compare(&a, &b, 1e-3, 1e-5).is_err(), "{}: a flipped bit must fail", d);
        }
        // Two NaN codes of E5M2 are one value; +0 and -0 are not.
        assert!(compare(&tensor(dt::FLOAT8E5M2, &[0x7D]), &tensor(dt::FLOAT8E5M2, &[0xFF]), 0.0, 0.0).is_ok());
        assert!(compare(&tensor(dt::FLOAT8E5M2, &[0x00]), &tensor(dt::FLOAT8E5M2, &[0x80]), 0.0, 0.0).is_err());
        // A 4-bit float's unused high bits are not compared.
        assert!(compare(&tensor(dt::FLOAT4E2M1, &[0x07]), &tensor(dt::FLOAT4E2M1, &[0xF7]), 0.0, 0.0).is_ok());
    }

    #[test]
    fn half_floats_decode_exactly() {
        let one = tensor(dt::FLOAT16, &[0x00, 0x3C]);
        let two = tensor(dt::FLOAT16, &[0x00, 0x40]);
        assert_eq!(one.to_f64().unwrap(), vec![1.0]);
        assert!(compare(&one, &two, 1e-3, 1e-5).is_err());
        let bf = tensor(dt::BFLOAT16, &[0x80, 0x3F]);
        assert_eq!(bf.to_f64().unwrap(), vec![1.0]);
        assert!(compare(&bf, &tensor(dt::BFLOAT16, &[0x00, 0x40]), 1e-3, 1e-5).is_err());
    }

    #[test]
    fn nan_matches_only_nan() {
        let nan = tensor(dt::FLOAT, &f32::NAN.to_le_bytes());
        let one = tensor(dt::FLOAT, &1f32.to_le_bytes());
        assert!(compare(&nan, &nan, 1e-3, 1e-5).is_ok());
        assert!(compare(&nan, &one, 1e-3, 1e-5).is_err());
        assert!(compare(&one, &nan, 1e-3, 1e-5).is_err());
        // An expected infinity is matched only by the same infinity (inf - 1 <= rtol * inf is true).
        let inf = tensor(dt::FLOAT, &f32::INFINITY.to_le_bytes());
        let ninf = tensor(dt::FLOAT, &f32::NEG_INFINITY.to_le_bytes());
        assert!(compare(&inf, &inf, 1e-3, 1e-5).is_ok());
        assert!(compare(&one, &inf, 1e-3, 1e-5).is_err());
        assert!(compare(&inf, &one, 1e-3, 1e-5).is_err());
        assert!(compare(&ninf, &inf, 1e-3, 1e-5).is_err());
    }
}
