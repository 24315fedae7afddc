//! The vector unit's f32 max and min, shared by the simulator and the host
//! reference so both answer as ONNX does: NaN wins (IEEE 754-2019
//! `maximum`/`minimum`), where Rust's `f32::max` would drop it.

/// max(a, b), NaN if either is NaN, +0 over -0.
pub fn maximum(a: f32, b: f32) -> f32 {
    if a.is_nan() || b.is_nan() {
        f32::NAN
    } else if a == b {
        // Equal: only the signs of zeros can differ, and +0 is the larger.
        if a.is_sign_positive() { a } else { b }
    } else {
        a.max(b)
    }
}

/// min(a, b), NaN if either is NaN, -0 under +0.
pub fn minimum(a: f32, b: f32) -> f32 {
    if a.is_nan() || b.is_nan() {
        f32::NAN
    } else if a == b {
        if a.is_sign_negative() { a } else { b }
    } else {
        a.min(b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// IEEE 754-2019 maximum/minimum: NaN wins, and +0 > -0 in either order.
    #[test]
    fn nan_and_signed_zeros() {
        assert!(maximum(f32::NAN, 1.0).is_nan() && maximum(1.0, f32::NAN).is_nan());
        assert!(minimum(f32::NAN, 1.0).is_nan() && minimum(1.0, f32::NAN).is_nan());
        assert!(maximum(-0.0, 0.0).is_sign_positive() && maximum(0.0, -0.0).is_sign_positive());
        assert!(minimum(-0.0, 0.0).is_sign_negative() && minimum(0.0, -0.0).is_sign_negative());
        assert_eq!((maximum(-1.0, 2.0), minimum(-1.0, 2.0)), (2.0, -1.0));
    }
}

/// The error function, as `v.erf` computes it (and the host reference):
/// libm's `erff`, within 1 ulp.
pub fn erf(x: f32) -> f32 {
    libm::erff(x)
}
