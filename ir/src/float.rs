//! Float literals as MLIR writes them: stored as the exact bits of the target
//! format, printed in `%.6e` form when that reads back to the same bits, else
//! in shortest round-trip form, else (NaN, infinity) as hex bits.

use crate::types::FloatKind;

/// Converts an `f64` to the bits of `kind`, rounding to nearest even.
/// `None` for formats we do not convert decimals into (f80, f128, f8).
pub fn f64_to_bits(v: f64, kind: FloatKind) -> Option<u64> {
    Some(match kind {
        FloatKind::F64 => v.to_bits(),
        FloatKind::F32 => (v as f32).to_bits() as u64,
        FloatKind::F16 => f32_to_small(v as f32, 5, 10) as u64,
        FloatKind::BF16 => f32_to_small(v as f32, 8, 7) as u64,
        FloatKind::TF32 => ((v as f32).to_bits() as u64) & 0xFFFF_E000,
        _ => return None,
    })
}

/// Converts bits of `kind` to `f64` (exact for every supported kind).
pub fn bits_to_f64(bits: u64, kind: FloatKind) -> Option<f64> {
    Some(match kind {
        FloatKind::F64 => f64::from_bits(bits),
        FloatKind::F32 | FloatKind::TF32 => f32::from_bits(bits as u32) as f64,
        FloatKind::F16 => small_to_f32(bits as u16, 5, 10) as f64,
        FloatKind::BF16 => f32::from_bits((bits as u32) << 16) as f64,
        _ => return None,
    })
}

/// Round-to-nearest-even conversion of an f32 to a float with `eb` exponent and `mb` mantissa bits.
fn f32_to_small(x: f32, eb: u32, mb: u32) -> u16 {
    if eb == 8 {
        // bf16: truncate with rounding of the low 16 bits.
        let b = x.to_bits();
        if x.is_nan() {
            return ((b >> 16) | 0x40) as u16;
        }
        let round = 0x7FFF + ((b >> 16) & 1);
        return ((b + round) >> 16) as u16;
    }
    let b = x.to_bits();
    let sign = ((b >> 31) as u16) << 15;
    let exp = ((b >> 23) & 0xFF) as i32;
    let man = b & 0x7F_FFFF;
    let bias = (1 << (eb - 1)) - 1;
    let max_exp = (1 << eb) - 1;
    if exp == 0xFF {
        return sign | ((max_exp as u16) << mb) | if man != 0 { 1 << (mb - 1) } else { 0 };
    }
    let e = exp - 127 + bias;
    if e >= max_exp {
        return sign | ((max_exp as u16) << mb);
    }
    if e <= 0 {
        if e < -(mb as i32) {
            return sign;
        }
        let m = man | 0x80_0000;
        let shift = (14 - e) as u32 + (23 - mb - 13);
        let shift = shift.min(31);
        let half = 1u32 << (shift - 1);
        let mut r = m >> shift;
        let rem = m & ((1 << shift) - 1);
        if rem > half || (rem == half && (r & 1) == 1) {
            r += 1;
        }
        return sign | r as u16;
    }
    let shift = 23 - mb;
    let mut r = ((e as u32) << mb) | (man >> shift);
    let rem = man & ((1 << shift) - 1);
    let half = 1 << (shift - 1);
    if rem > half || (rem == half && (r & 1) == 1) {
        r += 1;
    }
    sign | r as u16
}

fn small_to_f32(h: u16, eb: u32, mb: u32) -> f32 {
    let sign = if h >> 15 != 0 { -1.0f32 } else { 1.0 };
    let max_exp = (1u32 << eb) - 1;
    let exp = ((h as u32) >> mb) & max_exp;
    let man = (h as u32) & ((1 << mb) - 1);
    let bias = (1i32 << (eb - 1)) - 1;
    if exp == max_exp {
        return if man == 0 { sign * f32::INFINITY } else { f32::NAN };
    }
    if exp == 0 {
        return sign * (man as f32) * 2f32.powi(1 - bias - mb as i32);
    }
    sign * (1.0 + man as f32 / (1u32 << mb) as f32) * 2f32.powi(exp as i32 - bias)
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
        for h in [0x3C00u16, 0x0001, 0x7BFF, 0x8000, 0x3555] {
            let v = small_to_f32(h, 5, 10);
            assert_eq!(f32_to_small(v, 5, 10), h, "{:#x}", h);
        }
        assert_eq!(f64_to_bits(1.0, FloatKind::BF16), Some(0x3F80));
    }
}
