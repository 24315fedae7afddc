//! Compiler-rt builtins the object code may call and this process may lack:
//! LLVM converts to bfloat16 with a call to `__truncsfbf2`/`__truncdfbf2`
//! where the CPU has no instruction for it (AVX2 hosts; AVX-512 BF16 has
//! `vcvtneps2bf16`), and Debian 12's libgcc (GCC 12) has neither. The JIT
//! binds these names to the functions here before the process's own.

/// f32 → bfloat16, rounded to nearest even; a NaN stays a (quiet) NaN of the
/// same sign. A `__bf16` is returned in the low 16 bits of xmm0, as an f32
/// whose bits are the bfloat16's is.
extern "C" fn truncsfbf2(x: f32) -> f32 {
    f32::from_bits(bf16_bits(x) as u32)
}

/// f64 → bfloat16, rounded once: to f32 rounding to odd (inexact results
/// keep a sticky low bit), then to nearest even, which equals rounding the
/// f64 directly since f32 keeps more than twice bfloat16's 8 bits.
extern "C" fn truncdfbf2(x: f64) -> f32 {
    let r = x as f32;
    let odd = if x.is_finite() && r.is_finite() && r as f64 != x {
        // `as` rounded to nearest; step back toward zero if it rounded away,
        // then set the sticky bit.
        let toward_zero = if (r as f64).abs() > x.abs() { f32::from_bits(r.to_bits() - 1) } else { r };
        f32::from_bits(toward_zero.to_bits() | 1)
    } else {
        r
    };
    f32::from_bits(bf16_bits(odd) as u32)
}

/// The bits of `x` rounded to bfloat16, nearest even.
fn bf16_bits(x: f32) -> u16 {
    let b = x.to_bits();
    if x.is_nan() {
        return ((b >> 16) | 0x40) as u16;
    }
    let round = 0x7fff + ((b >> 16) & 1);
    (b.wrapping_add(round) >> 16) as u16
}

/// The builtins as (name, address) pairs for the JIT's absolute symbols.
pub(crate) fn symbols() -> [(&'static str, *mut ()); 2] {
    [("__truncsfbf2", truncsfbf2 as *mut ()), ("__truncdfbf2", truncdfbf2 as *mut ())]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounds_to_nearest_even() {
        assert_eq!(bf16_bits(1.0), 0x3f80);
        // 1 + 2^-8 is halfway between 1 and 1 + 2^-7: to the even one, 1.
        assert_eq!(bf16_bits(f32::from_bits(0x3f80_8000)), 0x3f80);
        // 1 + 3·2^-8 is halfway between 1 + 2^-7 (odd) and 1 + 2^-6: up.
        assert_eq!(bf16_bits(f32::from_bits(0x3f81_8000)), 0x3f82);
        assert_eq!(bf16_bits(f32::from_bits(0x3f80_8001)), 0x3f81);
        assert_eq!(bf16_bits(f32::MAX), 0x7f80);
        assert_eq!(bf16_bits(-0.0), 0x8000);
        assert_eq!(bf16_bits(f32::NAN) & 0x7fc0, 0x7fc0);
    }

    #[test]
    fn f64_rounds_once() {
        // Just above the halfway point 1 + 2^-8 in f64, which f32 would round
        // to the halfway point itself (and then to even, 1.0): up instead.
        let x = 1.0 + 2f64.powi(-8) + 2f64.powi(-40);
        assert_eq!(truncdfbf2(x).to_bits() as u16, 0x3f81);
        assert_eq!(truncdfbf2(1.0).to_bits() as u16, 0x3f80);
        assert_eq!(truncdfbf2(-2.5).to_bits() as u16, truncsfbf2(-2.5).to_bits() as u16);
    }
}
