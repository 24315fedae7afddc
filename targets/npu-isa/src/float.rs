//! The vector unit's f32 max and min, shared by the simulator and the host
//! reference so both answer as ONNX does: NaN wins (IEEE 754-2019
//! `maximum`/`minimum`), where Rust's `f32::max` would drop it.

/// max(a, b), NaN if either is NaN.
pub fn maximum(a: f32, b: f32) -> f32 {
    if a.is_nan() || b.is_nan() {
        f32::NAN
    } else {
        a.max(b)
    }
}

/// min(a, b), NaN if either is NaN.
pub fn minimum(a: f32, b: f32) -> f32 {
    if a.is_nan() || b.is_nan() {
        f32::NAN
    } else {
        a.min(b)
    }
}
