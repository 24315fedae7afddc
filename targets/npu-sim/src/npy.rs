//! `.npy` files (format 1.0/2.0, little-endian, C order) for simulator inputs
//! and outputs: int8 (`|i1`), int32 (`<i4`) and float32 (`<f4`).

use crate::isa::Dtype;

pub struct Array {
    pub dtype: Dtype,
    pub shape: Vec<u64>,
    pub data: Vec<u8>,
}

fn descr(d: Dtype) -> &'static str {
    match d {
        Dtype::I8 => "|i1",
        Dtype::I32 => "<i4",
        Dtype::F32 => "<f4",
    }
}

pub fn read(bytes: &[u8]) -> Result<Array, String> {
    if bytes.len() < 10 || &bytes[..6] != b"\x93NUMPY" {
        return Err("not a .npy file".into());
    }
    let (hlen, start) = match bytes[6] {
        1 => (u16::from_le_bytes([bytes[8], bytes[9]]) as usize, 10),
        2 | 3 if bytes.len() >= 12 => (u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize, 12),
        v => return Err(format!("unsupported .npy version {}", v)),
    };
    let header = bytes.get(start..start + hlen).ok_or("truncated .npy header")?;
    let header = std::str::from_utf8(header).map_err(|_| "bad .npy header")?;
    let field = |k: &str| -> Option<&str> {
        let i = header.find(&format!("'{}'", k))?;
        Some(header[i + k.len() + 2..].trim_start().trim_start_matches(':').trim_start())
    };
    let d = field("descr").ok_or("no descr in .npy header")?;
    let dtype = if d.starts_with("'|i1'") || d.starts_with("'<i1'") || d.starts_with("'i1'") {
        Dtype::I8
    } else if d.starts_with("'<i4'") {
        Dtype::I32
    } else if d.starts_with("'<f4'") {
        Dtype::F32
    } else {
        return Err(format!("unsupported .npy dtype {}", d.split(',').next().unwrap_or(d)));
    };
    if field("fortran_order").is_some_and(|v| v.starts_with("True")) {
        return Err("Fortran-order .npy files are not supported".into());
    }
    let sh = field("shape").ok_or("no shape in .npy header")?;
    let inner = sh.trim_start_matches('(').split(')').next().unwrap_or("");
    let shape: Vec<u64> = inner.split(',').map(|s| s.trim()).filter(|s| !s.is_empty()).map(|s| s.parse::<u64>().map_err(|_| "bad .npy shape".to_string())).collect::<Result<_, _>>()?;
    let n = shape.iter().try_fold(1u64, |a, &d| a.checked_mul(d)).ok_or("bad .npy shape")?;
    let need = n.checked_mul(dtype.bytes()).ok_or("bad .npy shape")? as usize;
    let data = bytes.get(start + hlen..).ok_or("truncated .npy data")?;
    if data.len() != need {
        return Err(format!(".npy data has {} bytes; shape {:?} of {} needs {}", data.len(), shape, dtype.name(), need));
    }
    Ok(Array { dtype, shape, data: data.to_vec() })
}

pub fn write(a: &Array) -> Vec<u8> {
    let dims: Vec<String> = a.shape.iter().map(|d| d.to_string()).collect();
    let shape = if dims.len() == 1 { format!("({},)", dims[0]) } else { format!("({})", dims.join(", ")) };
    let mut header = format!("{{'descr': '{}', 'fortran_order': False, 'shape': {}, }}", descr(a.dtype), shape);
    while (10 + header.len() + 1) % 64 != 0 {
        header.push(' ');
    }
    header.push('\n');
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend_from_slice(&(header.len() as u16).to_le_bytes());
    out.extend_from_slice(header.as_bytes());
    out.extend_from_slice(&a.data);
    out
}
