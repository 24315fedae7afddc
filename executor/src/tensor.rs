//! Host tensors: a dtype (ONNX's numbering), a shape and row-major bytes in a
//! 64-byte-aligned buffer, read from and written to `.npy` files (through
//! `npu_sim::npy`) and ONNX `TensorProto` (`.pb`) files. Every element type the
//! CPU path runs decodes exactly (`ir::float` for the floats); a type that
//! cannot be decoded is an error, never a NaN.

use onnx_translate::proto::data_type as dt;

/// Bytes with 64-byte alignment (the JIT may use aligned vector loads).
#[derive(Clone)]
pub struct AlignedBytes {
    words: Vec<Line>,
    len: usize,
}

/// One cache line: what gives the buffer its alignment (an array of `u64`
/// alone is aligned to 8).
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Line([u64; 8]);

impl AlignedBytes {
    pub fn zeroed(len: usize) -> AlignedBytes {
        let n = len.div_ceil(64).max(1);
        let layout = std::alloc::Layout::array::<Line>(n).expect("a buffer under isize::MAX bytes");
        // SAFETY: `layout` is non-zero in size and of `n` lines; all-zero bytes
        // are a valid `Line`, so the vector owns `n` initialized lines, as
        // calloc would give them (untouched pages stay unmapped until written).
        let words = unsafe {
            let p = std::alloc::alloc_zeroed(layout) as *mut Line;
            if p.is_null() {
                std::alloc::handle_alloc_error(layout);
            }
            Vec::from_raw_parts(p, n, n)
        };
        AlignedBytes { words, len }
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
    let bits = packed_bits(dtype).unwrap_or(4);
    let v = (byte & ((1u16 << bits) - 1) as u8) as i64;
    if matches!(dtype, dt::INT4 | dt::INT2) && v >> (bits - 1) & 1 == 1 {
        v - (1 << bits)
    } else {
        v
    }
}

/// The float kind of a float dtype (wide or narrow).
pub fn float_kind(dtype: i32) -> Option<ir::types::FloatKind> {
    use ir::types::FloatKind as K;
    Some(match dtype {
        dt::FLOAT => K::F32,
        dt::DOUBLE => K::F64,
        dt::FLOAT16 => K::F16,
        dt::BFLOAT16 => K::BF16,
        dt::FLOAT8E4M3FN => K::F8E4M3FN,
        dt::FLOAT8E4M3FNUZ => K::F8E4M3FNUZ,
        dt::FLOAT8E5M2 => K::F8E5M2,
        dt::FLOAT8E5M2FNUZ => K::F8E5M2FNUZ,
        dt::FLOAT8E8M0 => K::F8E8M0FNU,
        dt::FLOAT4E2M1 => K::F4E2M1FN,
        _ => return None,
    })
}

/// The format of an 8- or 4-bit float dtype.
pub fn mini_format(dtype: i32) -> Option<ir::float::MiniFormat> {
    ir::float::MiniFormat::of(float_kind(dtype)?)
}

/// Bits per element in ONNX's files when less than a byte (4- and 2-bit types pack).
fn packed_bits(dtype: i32) -> Option<u32> {
    match dtype {
        dt::INT4 | dt::UINT4 | dt::FLOAT4E2M1 => Some(4),
        dt::INT2 | dt::UINT2 => Some(2),
        _ => None,
    }
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

/// numpy's type of a dtype (kind and bytes); the types numpy lacks are written
/// as the nearest one that holds every value exactly (see `to_npy`).
const NPY: &[(i32, char, usize)] = &[
    (dt::FLOAT, 'f', 4),
    (dt::DOUBLE, 'f', 8),
    (dt::FLOAT16, 'f', 2),
    (dt::INT8, 'i', 1),
    (dt::UINT8, 'u', 1),
    (dt::INT16, 'i', 2),
    (dt::UINT16, 'u', 2),
    (dt::INT32, 'i', 4),
    (dt::UINT32, 'u', 4),
    (dt::INT64, 'i', 8),
    (dt::UINT64, 'u', 8),
    (dt::BOOL, 'b', 1),
];

impl std::fmt::Debug for HostTensor {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "HostTensor({}, {:?})", onnx::types::data_type_name(self.dtype), self.shape)
    }
}

/// The most bytes one tensor may take (`npu-run --max-tensor-bytes`): checked
/// before a host tensor is allocated and, at compile time, for every tensor a
/// model computes, so that a shape in a file cannot ask for more memory than
/// the machine has and abort the process. 0: [`default_max_tensor_bytes`].
static MAX_TENSOR_BYTES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// The machine's memory (`MemTotal` in /proc/meminfo; 64 GiB where it cannot
/// be read): no one tensor larger than that can be allocated anyway.
pub fn default_max_tensor_bytes() -> u64 {
    static DEFAULT: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *DEFAULT.get_or_init(|| {
        let kib = std::fs::read_to_string("/proc/meminfo")
            .ok()
            .and_then(|m| m.lines().find(|l| l.starts_with("MemTotal:")).and_then(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok()));
        kib.map_or(64 << 30, |k| k.saturating_mul(1024))
    })
}

pub fn set_max_tensor_bytes(bytes: u64) {
    MAX_TENSOR_BYTES.store(bytes, std::sync::atomic::Ordering::Relaxed);
}

pub fn max_tensor_bytes() -> u64 {
    match MAX_TENSOR_BYTES.load(std::sync::atomic::Ordering::Relaxed) {
        0 => default_max_tensor_bytes(),
        n => n,
    }
}

impl HostTensor {
    pub fn zeros(dtype: i32, shape: &[i64]) -> Result<HostTensor, String> {
        let size = dtype_size(dtype).ok_or_else(|| format!("element type {} is not supported by the CPU runtime", onnx::types::data_type_name(dtype)))?;
        // Checked: a corrupt file's dims must not become a huge allocation.
        let bytes = shape
            .iter()
            .try_fold(size as u64, |a, &d| if d < 0 { None } else { a.checked_mul(d as u64) })
            .ok_or_else(|| format!("tensor shape {:?} is negative or too large", shape))?;
        if bytes > max_tensor_bytes() {
            return Err(format!("a tensor of shape {:?} needs {} bytes, more than the limit of {} (--max-tensor-bytes)", shape, bytes, max_tensor_bytes()));
        }
        Ok(HostTensor { dtype, shape: shape.to_vec(), data: AlignedBytes::zeroed(bytes as usize) })
    }
    pub fn numel(&self) -> usize {
        self.shape.iter().product::<i64>() as usize
    }

    /// Reads a `.npy` file (any version, C order).
    pub fn from_npy(bytes: &[u8]) -> Result<HostTensor, String> {
        let r = npu_sim::npy::read_raw(bytes)?;
        let dtype = NPY.iter().find(|(_, k, w)| (*k, *w) == (r.kind, r.size)).map(|(t, ..)| *t).ok_or_else(|| format!("unsupported .npy dtype '{}{}'", r.kind, r.size))?;
        let shape: Vec<i64> = r.shape.iter().map(|&d| i64::try_from(d).map_err(|_| format!(".npy dimension {} is too large", d))).collect::<Result<_, _>>()?;
        let mut t = HostTensor::zeros(dtype, &shape)?;
        t.data.as_mut().copy_from_slice(&r.data);
        Ok(t)
    }

    /// Writes a `.npy` file. numpy has no bfloat16 nor 8-/4-bit floats: those are
    /// written as float32 (every value exactly); 4-/2-bit integers as int8/uint8.
    pub fn to_npy(&self) -> Result<Vec<u8>, String> {
        let shape: Vec<u64> = self.shape.iter().map(|&d| d as u64).collect();
        let raw = if let Some(&(_, kind, size)) = NPY.iter().find(|(t, ..)| *t == self.dtype) {
            npu_sim::npy::Raw { kind, size, shape, data: self.data.as_ref().to_vec() }
        } else if float_kind(self.dtype).is_some() {
            let data = self.to_f64()?.into_iter().flat_map(|v| (v as f32).to_le_bytes()).collect();
            npu_sim::npy::Raw { kind: 'f', size: 4, shape, data }
        } else if let Some(ints) = self.to_i128().filter(|_| packed_bits(self.dtype).is_some()) {
            let kind = if matches!(self.dtype, dt::INT4 | dt::INT2) { 'i' } else { 'u' };
            npu_sim::npy::Raw { kind, size: 1, shape, data: ints.into_iter().map(|v| v as u8).collect() }
        } else {
            return Err(format!("no .npy type for {} tensors", onnx::types::data_type_name(self.dtype)));
        };
        npu_sim::npy::write_raw(&raw)
    }

    /// Reads an ONNX `TensorProto` (the node tests' `input_0.pb`).
    pub fn from_pb(bytes: &[u8]) -> Result<HostTensor, String> {
        let tp = onnx_translate::proto::decode_tensor(bytes::Bytes::copy_from_slice(bytes))?;
        HostTensor::from_proto(&tp)
    }

    pub fn from_proto(tp: &onnx_translate::proto::TensorProto) -> Result<HostTensor, String> {
        let ctx = ir::Context::new();
        let dtype = tp.data_type.unwrap_or(0);
        // tensor_attr checks the data against the dims before anything is allocated.
        let a = onnx_translate::convert::tensor_attr(&ctx, tp, None, usize::MAX, &mut Default::default())?;
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

    /// An ONNX `TensorProto` with raw data (4- and 2-bit elements packed, lowest bits first, as ONNX stores them).
    pub fn to_proto(&self, name: &str) -> onnx_translate::proto::TensorProto {
        let raw = match packed_bits(self.dtype) {
            Some(bits) => {
                let per = (8 / bits) as usize;
                let mask = ((1u16 << bits) - 1) as u8;
                self.data.as_ref()[..self.numel()].chunks(per).map(|c| c.iter().enumerate().fold(0u8, |acc, (j, v)| acc | (v & mask) << (bits as usize * j))).collect()
            }
            None => self.data.as_ref().to_vec(),
        };
        onnx_translate::proto::TensorProto {
            dims: self.shape.clone(),
            data_type: Some(self.dtype),
            name: Some(name.to_string()),
            raw_data: Some(bytes::Bytes::from(raw)),
            ..Default::default()
        }
    }

    /// Reads a file by extension: `.npy` or ONNX `.pb`.
    pub fn read_file(path: &std::path::Path) -> Result<HostTensor, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {}", path.display(), e))?;
        let r = if path.extension().is_some_and(|e| e == "npy") { HostTensor::from_npy(&bytes) } else { HostTensor::from_pb(&bytes) };
        r.map_err(|e| format!("{}: {}", path.display(), e))
    }

    /// Every element as f64, exactly for the floats (for comparisons and printing);
    /// an error for a type that cannot be read this way.
    pub fn to_f64(&self) -> Result<Vec<f64>, String> {
        if let Some(ints) = self.to_i128() {
            return Ok(ints.into_iter().map(|v| v as f64).collect());
        }
        let name = onnx::types::data_type_name(self.dtype);
        let kind = float_kind(self.dtype).ok_or_else(|| format!("cannot read {} elements as numbers", name))?;
        let w = dtype_size(self.dtype).ok_or_else(|| format!("cannot read {} elements as numbers", name))?;
        let b = self.data.as_ref();
        (0..self.numel()).map(|i| ir::float::bits_to_f64(ir::attributes::read_raw_element(b, i, w), kind).ok_or_else(|| format!("cannot decode {} elements", name))).collect()
    }

    /// The codes of an 8- or 4-bit float tensor with every NaN made one code
    /// (`MiniFormat::canonical`): equal exactly when the values are the same bits or both NaN.
    pub fn mini_codes(&self) -> Option<Vec<u8>> {
        let f = mini_format(self.dtype)?;
        Some(self.data.as_ref()[..self.numel()].iter().map(|&c| f.canonical(c)).collect())
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
                dt::FLOAT16 => half::f16::from_f64(f).to_le_bytes().to_vec(),
                dt::BFLOAT16 => half::bf16::from_f64(f).to_le_bytes().to_vec(),
                dt::BOOL => vec![(s & 1) as u8],
                _ => ((s % 8) as u64).to_le_bytes()[..w].to_vec(),
            };
            out[i * w..i * w + w].copy_from_slice(&bytes[..w]);
        }
        Ok(t)
    }
}

#[cfg(test)]
mod tests {
    use super::AlignedBytes;

    #[test]
    fn buffers_start_on_a_cache_line_and_are_zeroed() {
        for len in [0, 1, 63, 64, 65, 1 << 20] {
            let mut a = AlignedBytes::zeroed(len);
            assert_eq!(a.as_mut_ptr() as usize % 64, 0, "a buffer of {} bytes", len);
            assert_eq!(a.as_ref().len(), len);
            assert!(a.as_ref().iter().all(|&b| b == 0));
            let b = a.clone();
            assert_eq!(b.as_ref().as_ptr() as usize % 64, 0, "a clone of {} bytes", len);
        }
    }
}
