//! Host tensors: a dtype (ONNX's numbering), a shape and row-major bytes in a
//! 64-byte-aligned buffer, read from and written to `.npy` files and ONNX
//! `TensorProto` (`.pb`) files.

use onnx::proto::data_type as dt;

/// Bytes with 64-byte alignment (the JIT may use aligned vector loads).
#[derive(Clone)]
pub struct AlignedBytes {
    words: Vec<[u64; 8]>,
    len: usize,
}

impl AlignedBytes {
    pub fn zeroed(len: usize) -> AlignedBytes {
        AlignedBytes { words: vec![[0u64; 8]; len.div_ceil(64).max(1)], len }
    }
    pub fn from_slice(b: &[u8]) -> AlignedBytes {
        let mut a = AlignedBytes::zeroed(b.len());
        a.as_mut().copy_from_slice(b);
        a
    }
    pub fn as_ref(&self) -> &[u8] {
        unsafe { std::slice::from_raw_parts(self.words.as_ptr() as *const u8, self.len) }
    }
    pub fn as_mut(&mut self) -> &mut [u8] {
        unsafe { std::slice::from_raw_parts_mut(self.words.as_mut_ptr() as *mut u8, self.len) }
    }
    pub fn as_mut_ptr(&mut self) -> *mut u8 {
        self.words.as_mut_ptr() as *mut u8
    }
}

/// A 4- or 2-bit integer stored in a byte (upper bits unspecified), sign- or
/// zero-extended per its type.
fn narrow_int(byte: u8, dtype: i32) -> i64 {
    let bits = if matches!(dtype, dt::INT2 | dt::UINT2) { 2 } else { 4 };
    let v = (byte & ((1u16 << bits) - 1) as u8) as i64;
    if matches!(dtype, dt::INT4 | dt::INT2) && v >> (bits - 1) & 1 == 1 {
        v - (1 << bits)
    } else {
        v
    }
}

/// The float kind and width in bits of an 8- or 4-bit float dtype.
fn narrow_float(dtype: i32) -> Option<(ir::types::FloatKind, u32)> {
    use ir::types::FloatKind as K;
    Some(match dtype {
        dt::FLOAT8E4M3FN => (K::F8E4M3FN, 8),
        dt::FLOAT8E4M3FNUZ => (K::F8E4M3FNUZ, 8),
        dt::FLOAT8E5M2 => (K::F8E5M2, 8),
        dt::FLOAT8E5M2FNUZ => (K::F8E5M2FNUZ, 8),
        dt::FLOAT8E8M0 => (K::F8E8M0FNU, 8),
        dt::FLOAT4E2M1 => (K::F4E2M1FN, 4),
        _ => return None,
    })
}

#[derive(Clone)]
pub struct HostTensor {
    pub dtype: i32,
    pub shape: Vec<i64>,
    pub data: AlignedBytes,
}

/// Bytes per element of the dtypes the CPU path runs.
pub fn dtype_size(t: i32) -> Option<usize> {
    Some(match t {
        dt::FLOAT | dt::INT32 | dt::UINT32 => 4,
        dt::DOUBLE | dt::INT64 | dt::UINT64 => 8,
        dt::FLOAT16 | dt::BFLOAT16 | dt::INT16 | dt::UINT16 => 2,
        dt::INT8 | dt::UINT8 | dt::BOOL => 1,
        // One byte per element here (ONNX packs the 4- and 2-bit ones in files).
        dt::FLOAT8E4M3FN | dt::FLOAT8E4M3FNUZ | dt::FLOAT8E5M2 | dt::FLOAT8E5M2FNUZ | dt::FLOAT8E8M0 => 1,
        dt::INT4 | dt::UINT4 | dt::FLOAT4E2M1 | dt::INT2 | dt::UINT2 => 1,
        _ => return None,
    })
}

/// numpy's name for a dtype (`<f4`), and back.
const NPY: &[(i32, &str)] = &[
    (dt::FLOAT, "<f4"),
    (dt::DOUBLE, "<f8"),
    (dt::FLOAT16, "<f2"),
    (dt::INT8, "|i1"),
    (dt::UINT8, "|u1"),
    (dt::INT16, "<i2"),
    (dt::UINT16, "<u2"),
    (dt::INT32, "<i4"),
    (dt::UINT32, "<u4"),
    (dt::INT64, "<i8"),
    (dt::UINT64, "<u8"),
    (dt::BOOL, "|b1"),
];

impl std::fmt::Debug for HostTensor {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "HostTensor({}, {:?})", onnx::types::data_type_name(self.dtype), self.shape)
    }
}

impl HostTensor {
    pub fn zeros(dtype: i32, shape: &[i64]) -> Result<HostTensor, String> {
        let size = dtype_size(dtype).ok_or_else(|| format!("element type {} is not supported by the CPU runtime", onnx::types::data_type_name(dtype)))?;
        // Checked: a corrupt file's dims must not become a huge allocation.
        let bytes = shape
            .iter()
            .try_fold(size as u64, |a, &d| if d < 0 { None } else { a.checked_mul(d as u64) })
            .filter(|b| *b <= 1 << 36)
            .ok_or_else(|| format!("tensor shape {:?} is negative or too large", shape))?;
        Ok(HostTensor { dtype, shape: shape.to_vec(), data: AlignedBytes::zeroed(bytes as usize) })
    }
    pub fn numel(&self) -> usize {
        self.shape.iter().product::<i64>() as usize
    }

    /// Reads a `.npy` file (version 1–3, little-endian, C order).
    pub fn from_npy(bytes: &[u8]) -> Result<HostTensor, String> {
        if bytes.len() < 10 || &bytes[..6] != b"\x93NUMPY" {
            return Err("not a .npy file (bad magic)".into());
        }
        let (hlen, start) = if bytes[6] == 1 {
            (u16::from_le_bytes([bytes[8], bytes[9]]) as usize, 10)
        } else {
            if bytes.len() < 12 {
                return Err("truncated .npy header".into());
            }
            (u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize, 12)
        };
        let header = bytes.get(start..start + hlen).ok_or("truncated .npy header")?;
        let header = std::str::from_utf8(header).map_err(|_| ".npy header is not text")?;
        let field = |k: &str| -> Option<&str> {
            let i = header.find(&format!("'{}'", k))?;
            Some(header[i + k.len() + 2..].trim_start().trim_start_matches(':').trim_start())
        };
        let descr = field("descr").and_then(|s| s.strip_prefix('\'')).and_then(|s| s.split('\'').next()).ok_or(".npy header has no descr")?;
        let dtype = NPY.iter().find(|(_, n)| *n == descr || n[1..] == descr[1..] && descr.starts_with('=')).map(|(t, _)| *t).ok_or_else(|| format!("unsupported .npy dtype '{}'", descr))?;
        if field("fortran_order").is_some_and(|s| s.starts_with("True")) {
            return Err("Fortran-ordered .npy arrays are not supported".into());
        }
        let shape_s = field("shape").and_then(|s| s.strip_prefix('(')).and_then(|s| s.split(')').next()).ok_or(".npy header has no shape")?;
        let shape: Vec<i64> = shape_s.split(',').map(|s| s.trim()).filter(|s| !s.is_empty()).map(|s| s.parse::<i64>().map_err(|_| format!("bad .npy shape '{}'", shape_s))).collect::<Result<_, _>>()?;
        let mut t = HostTensor::zeros(dtype, &shape)?;
        let data = &bytes[start + hlen..];
        let need = t.data.as_ref().len();
        if data.len() < need {
            return Err(format!(".npy data is truncated: {} bytes for {} needed", data.len(), need));
        }
        t.data.as_mut().copy_from_slice(&data[..need]);
        Ok(t)
    }

    pub fn to_npy(&self) -> Result<Vec<u8>, String> {
        let descr = NPY.iter().find(|(t, _)| *t == self.dtype).map(|(_, n)| *n).ok_or("no .npy dtype for this tensor")?;
        let shape = match self.shape.len() {
            1 => format!("({},)", self.shape[0]),
            _ => format!("({})", self.shape.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(", ")),
        };
        let mut h = format!("{{'descr': '{}', 'fortran_order': False, 'shape': {}, }}", descr, shape);
        while (10 + h.len() + 1) % 64 != 0 {
            h.push(' ');
        }
        h.push('\n');
        let mut out = b"\x93NUMPY\x01\x00".to_vec();
        out.extend((h.len() as u16).to_le_bytes());
        out.extend(h.as_bytes());
        out.extend(self.data.as_ref());
        Ok(out)
    }

    /// Reads an ONNX `TensorProto` (the node tests' `input_0.pb`).
    pub fn from_pb(bytes: &[u8]) -> Result<HostTensor, String> {
        let tp = onnx::proto::decode_tensor(bytes::Bytes::copy_from_slice(bytes))?;
        HostTensor::from_proto(&tp)
    }

    pub fn from_proto(tp: &onnx::proto::TensorProto) -> Result<HostTensor, String> {
        let ctx = ir::Context::new();
        let dtype = tp.data_type.unwrap_or(0);
        // tensor_attr checks the data against the dims before anything is allocated.
        let a = onnx::types::tensor_attr(&ctx, tp, None, usize::MAX, &mut Default::default())?;
        let mut t = HostTensor::zeros(dtype, &tp.dims)?;
        let (bytes, splat): (&[u8], bool) = match a.data() {
            ir::attributes::AttrData::Dense { data, .. } => (&data.bytes, data.splat),
            _ => return Err("unexpected tensor encoding".into()),
        };
        let out = t.data.as_mut();
        if splat && !out.is_empty() {
            let w = bytes.len();
            for chunk in out.chunks_mut(w) {
                chunk.copy_from_slice(&bytes[..chunk.len()]);
            }
        } else {
            if bytes.len() != out.len() {
                return Err(format!("tensor data holds {} bytes, its shape needs {}", bytes.len(), out.len()));
            }
            out.copy_from_slice(bytes);
        }
        Ok(t)
    }

    pub fn to_proto(&self, name: &str) -> onnx::proto::TensorProto {
        onnx::proto::TensorProto {
            dims: self.shape.clone(),
            data_type: Some(self.dtype),
            name: Some(name.to_string()),
            raw_data: Some(bytes::Bytes::copy_from_slice(self.data.as_ref())),
            ..Default::default()
        }
    }

    /// Reads a file by extension: `.npy` or ONNX `.pb`.
    pub fn read_file(path: &std::path::Path) -> Result<HostTensor, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {}", path.display(), e))?;
        let r = if path.extension().is_some_and(|e| e == "npy") { HostTensor::from_npy(&bytes) } else { HostTensor::from_pb(&bytes) };
        r.map_err(|e| format!("{}: {}", path.display(), e))
    }

    /// Every element as f64 (for comparisons and random fills).
    pub fn to_f64(&self) -> Vec<f64> {
        let b = self.data.as_ref();
        let n = self.numel();
        (0..n)
            .map(|i| match self.dtype {
                dt::FLOAT => f32::from_le_bytes(b[i * 4..i * 4 + 4].try_into().unwrap()) as f64,
                dt::DOUBLE => f64::from_le_bytes(b[i * 8..i * 8 + 8].try_into().unwrap()),
                dt::FLOAT16 => ir::float::bits_to_f64(u16::from_le_bytes([b[i * 2], b[i * 2 + 1]]) as u64, ir::types::FloatKind::F16).unwrap_or(f64::NAN),
                dt::BFLOAT16 => f32::from_bits((u16::from_le_bytes([b[i * 2], b[i * 2 + 1]]) as u32) << 16) as f64,
                dt::INT8 => b[i] as i8 as f64,
                dt::UINT8 | dt::BOOL => b[i] as f64,
                dt::INT16 => i16::from_le_bytes([b[i * 2], b[i * 2 + 1]]) as f64,
                dt::UINT16 => u16::from_le_bytes([b[i * 2], b[i * 2 + 1]]) as f64,
                dt::INT32 => i32::from_le_bytes(b[i * 4..i * 4 + 4].try_into().unwrap()) as f64,
                dt::UINT32 => u32::from_le_bytes(b[i * 4..i * 4 + 4].try_into().unwrap()) as f64,
                dt::INT64 => i64::from_le_bytes(b[i * 8..i * 8 + 8].try_into().unwrap()) as f64,
                dt::UINT64 => u64::from_le_bytes(b[i * 8..i * 8 + 8].try_into().unwrap()) as f64,
                dt::INT4 | dt::UINT4 | dt::INT2 | dt::UINT2 => narrow_int(b[i], self.dtype) as f64,
                _ => match narrow_float(self.dtype) {
                    // Compiled code leaves the bits above a 4-bit value unspecified.
                    Some((kind, bits)) => ir::float::bits_to_f64((b[i] & ((1u16 << bits) - 1) as u8) as u64, kind).unwrap_or(f64::NAN),
                    None => f64::NAN,
                },
            })
            .collect()
    }

    /// Integers exactly (for exact comparison of integer outputs).
    pub fn to_i128(&self) -> Option<Vec<i128>> {
        let b = self.data.as_ref();
        let n = self.numel();
        let w = dtype_size(self.dtype)?;
        if matches!(self.dtype, dt::INT4 | dt::UINT4 | dt::INT2 | dt::UINT2) {
            return Some(b[..n].iter().map(|&x| narrow_int(x, self.dtype) as i128).collect());
        }
        let signed = matches!(self.dtype, dt::INT8 | dt::INT16 | dt::INT32 | dt::INT64);
        if !signed && !matches!(self.dtype, dt::UINT8 | dt::UINT16 | dt::UINT32 | dt::UINT64 | dt::BOOL) {
            return None;
        }
        Some(
            (0..n)
                .map(|i| {
                    let mut raw = [0u8; 16];
                    raw[..w].copy_from_slice(&b[i * w..i * w + w]);
                    let v = u128::from_le_bytes(raw);
                    if signed && (v >> (w * 8 - 1)) & 1 == 1 {
                        (v | (u128::MAX << (w * 8))) as i128
                    } else {
                        v as i128
                    }
                })
                .collect(),
        )
    }

    /// Deterministic pseudo-random contents (xorshift), in [-1, 1) for floats,
    /// small non-negative integers otherwise.
    pub fn random(dtype: i32, shape: &[i64], seed: u64) -> Result<HostTensor, String> {
        let mut t = HostTensor::zeros(dtype, shape)?;
        let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let w = dtype_size(dtype).unwrap();
        let n = t.numel();
        let out = t.data.as_mut();
        for i in 0..n {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            let u = (s >> 11) as f64 / (1u64 << 53) as f64;
            let f = u * 2.0 - 1.0;
            let bytes: Vec<u8> = match dtype {
                dt::FLOAT => (f as f32).to_le_bytes().to_vec(),
                dt::DOUBLE => f.to_le_bytes().to_vec(),
                dt::FLOAT16 => (ir::float::f64_to_bits(f, ir::types::FloatKind::F16).unwrap_or(0) as u16).to_le_bytes().to_vec(),
                dt::BOOL => vec![(s & 1) as u8],
                _ => ((s % 8) as u64).to_le_bytes()[..w].to_vec(),
            };
            out[i * w..i * w + w].copy_from_slice(&bytes[..w]);
        }
        Ok(t)
    }
}
