//! Float literals as MLIR writes them: stored as the exact bits of the target
//! format, printed in `%.6e` form when that reads back to the same bits, else
//! in shortest round-trip form, else (NaN, infinity) as hex bits.

use crate::types::FloatKind;

/// Converts an `f64` to the bits of `kind`, rounding to nearest even.
/// `None` for formats we do not convert decimals into (f80, f128, the narrow floats).
pub fn f64_to_bits(v: f64, kind: FloatKind) -> Option<u64> {
    Some(match kind {
        FloatKind::F64 => v.to_bits(),
        FloatKind::F32 => (v as f32).to_bits() as u64,
        FloatKind::F16 => half::f16::from_f32(f32_round_to_odd(v)).to_bits() as u64,
        FloatKind::BF16 => half::bf16::from_f32(f32_round_to_odd(v)).to_bits() as u64,
        FloatKind::TF32 => ((v as f32).to_bits() as u64) & 0xFFFF_E000,
        _ => return None,
    })
}

/// `v` as an f32 rounded to odd (truncated, then the last bit set if anything
/// was cut off): rounding that to a format of at most 22 bits of precision
/// (f16, bf16) is the correctly rounded `v`, where `v as f32` would round twice.
fn f32_round_to_odd(v: f64) -> f32 {
    let f = v as f32;
    if !f.is_finite() || f as f64 == v {
        return f;
    }
    let mut b = f.to_bits();
    if (f as f64).abs() > v.abs() {
        b -= 1;
    }
    f32::from_bits(b | 1)
}

/// Converts bits of `kind` to `f64`: exact for every kind but f80 and f128 (`None`).
pub fn bits_to_f64(bits: u64, kind: FloatKind) -> Option<f64> {
    Some(match kind {
        FloatKind::F64 => f64::from_bits(bits),
        FloatKind::F32 | FloatKind::TF32 => f32::from_bits(bits as u32) as f64,
        FloatKind::F16 => half::f16::from_bits(bits as u16).to_f64(),
        FloatKind::BF16 => half::bf16::from_bits(bits as u16).to_f64(),
        FloatKind::F80 | FloatKind::F128 => return None,
        _ => MiniFormat::of(kind)?.decode(bits as u8),
    })
}

/// Which codes of a narrow float are NaN (and infinity).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MiniNan {
    /// IEEE-like: the all-ones exponent is infinity (mantissa 0) or NaN.
    Ieee,
    /// Every bit but the sign set is NaN; no infinity (the `FN` formats).
    AllOnes,
    /// The code of negative zero is the one NaN; no infinity, no -0 (the `FNUZ` formats).
    NegativeZero,
    /// No NaN and no infinity.
    None,
}

/// An 8- or 4-bit float format (OCP / ONNX): its fields and special codes.
/// One row per format in [`MINI_FORMATS`]; the CPU lowering's casts and the host
/// decoder both read it, so the compiled code and the comparison agree.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MiniFormat {
    pub kind: FloatKind,
    pub exp_bits: u32,
    pub man_bits: u32,
    pub bias: i32,
    /// Has a sign bit (all but E8M0).
    pub signed: bool,
    /// Exponent 0 is subnormal (all but E8M0, where it is 2^-127).
    pub subnormals: bool,
    pub nan: MiniNan,
    /// The largest finite magnitude's code, and its value.
    pub max_code: u8,
    pub max_value: f64,
    /// The code (without sign) an out-of-range value becomes without saturation: inf or NaN.
    pub overflow_code: u8,
    /// The NaN code a cast writes (E2M1 has no NaN: a positive NaN becomes -0,
    /// a negative one +0, as ONNX's reference through ml_dtypes writes them).
    pub nan_code: u8,
}

macro_rules! mini {
    ($k:ident, $e:expr, $m:expr, $bias:expr, $signed:expr, $sub:expr, $nan:ident, $maxc:expr, $maxv:expr, $over:expr, $nanc:expr) => {
        MiniFormat { kind: FloatKind::$k, exp_bits: $e, man_bits: $m, bias: $bias, signed: $signed, subnormals: $sub, nan: MiniNan::$nan, max_code: $maxc, max_value: $maxv, overflow_code: $over, nan_code: $nanc }
    };
}

/// kind, exponent bits, mantissa bits, bias, signed, subnormals, NaN codes, largest code and value, overflow code, NaN code.
pub const MINI_FORMATS: [MiniFormat; 6] = [
    mini!(F8E4M3FN, 4, 3, 7, true, true, AllOnes, 0x7E, 448.0, 0x7F, 0x7F),
    mini!(F8E4M3FNUZ, 4, 3, 8, true, true, NegativeZero, 0x7F, 240.0, 0x80, 0x80),
    mini!(F8E5M2, 5, 2, 15, true, true, Ieee, 0x7B, 57344.0, 0x7C, 0x7E),
    mini!(F8E5M2FNUZ, 5, 2, 16, true, true, NegativeZero, 0x7F, 57344.0, 0x80, 0x80),
    mini!(F8E8M0FNU, 8, 0, 127, false, false, AllOnes, 0xFE, 1.7014118346046923e38, 0xFF, 0xFF),
    mini!(F4E2M1FN, 2, 1, 1, true, true, None, 0x7, 6.0, 0x7, 0x8),
];

impl MiniFormat {
    pub fn of(kind: FloatKind) -> Option<MiniFormat> {
        MINI_FORMATS.iter().copied().find(|f| f.kind == kind)
    }
    /// Bits per element (8 or 4).
    pub fn width(&self) -> u32 {
        self.signed as u32 + self.exp_bits + self.man_bits
    }
    /// The `FNUZ` formats: one NaN at -0, no infinity.
    pub fn fnuz(&self) -> bool {
        self.nan == MiniNan::NegativeZero
    }
    /// The code's value (bits above the width are ignored), exactly.
    pub fn decode(&self, code: u8) -> f64 {
        let w = self.width();
        let code = (code as u32) & ((1 << w) - 1);
        let sign_bit = if self.signed { code >> (w - 1) } else { 0 };
        let mag = code & ((1 << (self.exp_bits + self.man_bits)) - 1);
        let exp = mag >> self.man_bits;
        let man = mag & ((1 << self.man_bits) - 1);
        let all_exp = (1 << self.exp_bits) - 1;
        match self.nan {
            MiniNan::AllOnes if mag == (1 << (self.exp_bits + self.man_bits)) - 1 => return f64::NAN,
            MiniNan::NegativeZero if sign_bit == 1 && mag == 0 => return f64::NAN,
            MiniNan::Ieee if exp == all_exp => return if man == 0 { if sign_bit == 1 { f64::NEG_INFINITY } else { f64::INFINITY } } else { f64::NAN },
            _ => {}
        }
        let m = self.man_bits as i32;
        let v = if exp == 0 && self.subnormals {
            man as f64 * 2f64.powi(1 - self.bias - m)
        } else {
            (man + (1 << self.man_bits)) as f64 * 2f64.powi(exp as i32 - self.bias - m)
        };
        if sign_bit == 1 {
            -v
        } else {
            v
        }
    }
    /// The code with the unused high bits cleared and every NaN as `nan_code`:
    /// two codes are the same value (or both NaN) exactly when these are equal.
    pub fn canonical(&self, code: u8) -> u8 {
        if self.nan != MiniNan::None && self.decode(code).is_nan() {
            self.nan_code
        } else {
            code & ((1u16 << self.width()) - 1) as u8
        }
    }
}

/// Parses a decimal float literal into the bits of `kind`.
pub fn parse_decimal(text: &str, kind: FloatKind) -> Option<u64> {
    match kind {
        FloatKind::F32 => text.parse::<f32>().ok().map(|v| v.to_bits() as u64),
        _ => f64_to_bits(text.parse::<f64>().ok()?, kind),
    }
}

/// Rewrites Rust's `1.5e0` exponent form into MLIR's `1.5e+00`, keeping a '.' in the mantissa.
fn mlir_exp_form(s: &str) -> String {
    let (m, e) = s.split_once('e').unwrap_or((s, "0"));
    let mut m = m.to_string();
    if !m.contains('.') {
        m.push_str(".0");
    }
    let (sign, digits) = if let Some(d) = e.strip_prefix('-') { ('-', d) } else { ('+', e) };
    format!("{}e{}{:0>2}", m, sign, digits)
}

/// The shortest digits as APFloat prints them: plain decimal unless more than
/// three padding zeros would be needed, else `d.dddE+XX`.
fn plain_or_exp_form(sci: &str) -> String {
    let (m, e) = sci.split_once('e').unwrap_or((sci, "0"));
    let e: i32 = e.parse().unwrap_or(0);
    let (neg, m) = match m.strip_prefix('-') {
        Some(r) => ("-", r),
        None => ("", m),
    };
    let digits: String = m.chars().filter(|c| *c != '.').collect();
    let n = digits.len() as i32;
    if e >= 0 && e < n - 1 {
        let (a, b) = digits.split_at(e as usize + 1);
        return format!("{}{}.{}", neg, a, b);
    }
    if e >= 0 && e - (n - 1) <= 3 {
        return format!("{}{}{}.0", neg, digits, "0".repeat((e - (n - 1)) as usize));
    }
    if e < 0 && -e - 1 <= 3 {
        return format!("{}0.{}{}", neg, "0".repeat((-e - 1) as usize), digits);
    }
    let (a, b) = digits.split_at(1);
    let b = if b.is_empty() { "0" } else { b };
    format!("{}{}.{}E{}{:02}", neg, a, b, if e < 0 { '-' } else { '+' }, e.abs())
}

pub fn hex_bits(bits: u64, kind: FloatKind) -> String {
    let digits = (kind.width() as usize).div_ceil(4);
    format!("0x{:0width$X}", bits, width = digits)
}

/// Formats the bits of `kind` as MLIR prints a float (without the type suffix).
pub fn format_float(bits: u64, kind: FloatKind) -> String {
    let Some(v) = bits_to_f64(bits, kind) else { return hex_bits(bits, kind) };
    if !v.is_finite() {
        return hex_bits(bits, kind);
    }
    let six = mlir_exp_form(&format!("{:.6e}", v));
    if parse_decimal(&six, kind) == Some(bits) {
        return six;
    }
    let shortest = match kind {
        FloatKind::F64 => format!("{:e}", v),
        _ => format!("{:e}", v as f32),
    };
    let s = plain_or_exp_form(&shortest);
    if parse_decimal(&s, kind) == Some(bits) {
        s
    } else {
        hex_bits(bits, kind)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn six_digit_form_and_fallbacks() {
        assert_eq!(format_float(1.5f64.to_bits(), FloatKind::F64), "1.500000e+00");
        assert_eq!(format_float((0.1f32).to_bits() as u64, FloatKind::F32), "1.000000e-01");
        assert_eq!(format_float(0.1f64.to_bits(), FloatKind::F64), "1.000000e-01");
        assert_eq!(format_float(3.14159265358979f64.to_bits(), FloatKind::F64), "3.14159265358979");
        assert_eq!(format_float(1.2345678901234567e30f64.to_bits(), FloatKind::F64), "1.2345678901234567E+30");
        assert_eq!(format_float(0.0012345678f64.to_bits(), FloatKind::F64), "0.0012345678");
        assert_eq!(format_float(f32::NAN.to_bits() as u64, FloatKind::F32), "0x7FC00000");
        assert_eq!(format_float(1e30f64.to_bits(), FloatKind::F64), "1.000000e+30");
    }
    #[test]
    fn half_conversions_round_trip() {
        for h in [0x3C00u64, 0x0001, 0x7BFF, 0x8000, 0x3555] {
            let v = bits_to_f64(h, FloatKind::F16).unwrap();
            assert_eq!(f64_to_bits(v, FloatKind::F16), Some(h), "{:#x}", h);
        }
        assert_eq!(f64_to_bits(1.0, FloatKind::BF16), Some(0x3F80));
        // Rounded once from f64 (through f32 it would round twice, to 0x3F81).
        assert_eq!(f64_to_bits(1.0 + 2f64.powi(-8) + 2f64.powi(-30), FloatKind::BF16), Some(0x3F81));
        assert_eq!(f64_to_bits(1.0 + 2f64.powi(-8), FloatKind::BF16), Some(0x3F80));
        assert_eq!(f64_to_bits(-(1.0 + 2f64.powi(-8) + 2f64.powi(-30)), FloatKind::BF16), Some(0xBF81));
        assert_eq!(f64_to_bits(1.0 + 2f64.powi(-11) + 2f64.powi(-40), FloatKind::F16), Some(0x3C01));
        assert_eq!(f64_to_bits(1.0 + 2f64.powi(-11), FloatKind::F16), Some(0x3C00));
        assert_eq!(f64_to_bits(1e6, FloatKind::F16), Some(0x7C00));
        assert_eq!(f64_to_bits(1e-30, FloatKind::BF16), f64_to_bits(1e-30f32 as f64, FloatKind::BF16));
    }
    #[test]
    fn narrow_floats_decode_exactly() {
        let d = |k, c: u8| bits_to_f64(c as u64, k).unwrap();
        use FloatKind::*;
        assert_eq!(d(F8E4M3FN, 0x7E), 448.0);
        assert_eq!(d(F8E4M3FN, 0x01), 2f64.powi(-9));
        assert_eq!(d(F8E4M3FN, 0x38), 1.0);
        assert_eq!(d(F8E4M3FN, 0xB8), -1.0);
        assert!(d(F8E4M3FN, 0x7F).is_nan() && d(F8E4M3FN, 0xFF).is_nan());
        assert_eq!(d(F8E4M3FNUZ, 0x7F), 240.0);
        assert_eq!(d(F8E4M3FNUZ, 0x01), 2f64.powi(-10));
        assert!(d(F8E4M3FNUZ, 0x80).is_nan());
        assert_eq!(d(F8E5M2, 0x7B), 57344.0);
        assert_eq!(d(F8E5M2, 0x7C), f64::INFINITY);
        assert_eq!(d(F8E5M2, 0xFC), f64::NEG_INFINITY);
        assert!(d(F8E5M2, 0x7D).is_nan());
        assert_eq!(d(F8E5M2, 0x01), 2f64.powi(-16));
        assert_eq!(d(F8E5M2FNUZ, 0x01), 2f64.powi(-17));
        assert!(d(F8E5M2FNUZ, 0x80).is_nan());
        assert_eq!(d(F8E8M0FNU, 0x00), 2f64.powi(-127));
        assert_eq!(d(F8E8M0FNU, 0x7F), 1.0);
        assert_eq!(d(F8E8M0FNU, 0xFE), 2f64.powi(127));
        assert!(d(F8E8M0FNU, 0xFF).is_nan());
        assert_eq!(d(F4E2M1FN, 0x7), 6.0);
        assert_eq!(d(F4E2M1FN, 0x1), 0.5);
        assert_eq!(d(F4E2M1FN, 0xF), -6.0);
        assert_eq!(d(F4E2M1FN, 0xF7), 6.0, "bits above the width are ignored");
        for f in MINI_FORMATS {
            assert_eq!(f.decode(f.max_code), f.max_value, "{:?}", f.kind);
            assert!(f.decode(f.nan_code).is_nan() || f.nan == MiniNan::None, "{:?}", f.kind);
        }
    }
    #[test]
    fn canonical_codes_merge_nans_only() {
        let f = MiniFormat::of(FloatKind::F8E5M2).unwrap();
        assert_eq!(f.canonical(0x7D), f.canonical(0xFF));
        assert_ne!(f.canonical(0x00), f.canonical(0x80), "+0 and -0 differ bit for bit");
        assert_ne!(f.canonical(0x7C), f.canonical(0x7D));
    }

}
