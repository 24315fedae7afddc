//! The host decoder of the narrow floats (`ir::float::MINI_FORMATS`) against
//! ml_dtypes, the library ONNX's reference implementation uses: every code of
//! every format, value for value (NaN where it has NaN), and bf16/f16 too.

use ir::types::FloatKind;
use std::process::Command;

/// Every code's value as ml_dtypes decodes it, one `repr` of a Python float per line.
fn ml_dtypes_values(dtype: &str, codes: u32) -> Vec<f64> {
    let script = format!(
        "import numpy as np, ml_dtypes\nc = np.arange({codes}, dtype=np.uint{w}).view(ml_dtypes.{dtype} if hasattr(ml_dtypes, '{dtype}') else np.{dtype})\nprint('\\n'.join(repr(float(v)) for v in c.astype(np.float64)))",
        codes = codes,
        w = if codes > 256 { 16 } else { 8 },
        dtype = dtype
    );
    let out = Command::new("python3").arg("-c").arg(&script).output().expect("python3 (scripts/setup.sh installs onnx, which brings ml_dtypes)");
    assert!(out.status.success(), "ml_dtypes failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).lines().map(|l| l.parse::<f64>().unwrap_or_else(|_| panic!("not a number: {}", l))).collect()
}

#[test]
fn every_code_decodes_as_ml_dtypes_does() {
    let formats = [
        (FloatKind::F8E4M3FN, "float8_e4m3fn", 256),
        (FloatKind::F8E4M3FNUZ, "float8_e4m3fnuz", 256),
        (FloatKind::F8E5M2, "float8_e5m2", 256),
        (FloatKind::F8E5M2FNUZ, "float8_e5m2fnuz", 256),
        (FloatKind::F8E8M0FNU, "float8_e8m0fnu", 256),
        (FloatKind::F4E2M1FN, "float4_e2m1fn", 16),
        (FloatKind::BF16, "bfloat16", 65536),
        (FloatKind::F16, "float16", 65536),
    ];
    for (kind, name, codes) in formats {
        let want = ml_dtypes_values(name, codes);
        assert_eq!(want.len(), codes as usize, "{}", name);
        for (code, w) in want.iter().enumerate() {
            let got = ir::float::bits_to_f64(code as u64, kind).unwrap();
            assert!(got == *w && got.is_sign_negative() == w.is_sign_negative() || got.is_nan() && w.is_nan(), "{} code {:#x}: {} where ml_dtypes has {}", name, code, got, w);
        }
    }
}
