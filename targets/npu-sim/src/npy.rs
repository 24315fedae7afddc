//! `.npy` files, the one reader and writer of the project (the simulator's
//! arrays here, the runtime's host tensors through [`Raw`]): the format is
//! `npyz`'s; we move raw little-endian element bytes in and out of it.

use crate::isa::Dtype;
use std::io::Read;

/// A `.npy` array as a numpy type (`'f'`, `'i'`, `'u'` or `'b'` and a size in
/// bytes), a C-order shape and little-endian element bytes.
#[derive(Debug)]
pub struct Raw {
    pub kind: char,
    pub size: usize,
    pub shape: Vec<u64>,
    pub data: Vec<u8>,
}

/// The most bytes of data a `.npy` file may declare (a corrupt header must not
/// become a huge allocation).
const MAX_BYTES: u64 = 1 << 36;

/// Reads a `.npy` file (any version): bool, integer and float arrays in C order.
/// The most bytes a `.npy` header may take (numpy writes well under 1 KiB).
const MAX_HEADER: usize = 1 << 20;

pub fn read_raw(bytes: &[u8]) -> Result<Raw, String> {
    use npyz::{Endianness, TypeChar};
    // The header's length, checked before npyz allocates a buffer of that size.
    let header_len = match (bytes.get(..6), bytes.get(6)) {
        (Some(b"\x93NUMPY"), Some(1)) if bytes.len() >= 10 => u16::from_le_bytes([bytes[8], bytes[9]]) as usize,
        (Some(b"\x93NUMPY"), Some(2 | 3)) if bytes.len() >= 12 => u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize,
        (Some(b"\x93NUMPY"), Some(v)) => return Err(format!("not a .npy file: unsupported version {} or truncated", v)),
        _ => return Err("not a .npy file (bad magic)".into()),
    };
    if header_len > MAX_HEADER || header_len > bytes.len() {
        return Err(format!("not a .npy file: a header of {} bytes", header_len));
    }
    let file = npyz::NpyFile::new(bytes).map_err(|e| format!("not a .npy file: {}", e))?;
    let ts = match file.dtype() {
        npyz::DType::Plain(ts) => ts,
        d => return Err(format!("unsupported .npy dtype {}", d.descr())),
    };
    let kind = match ts.type_char() {
        TypeChar::Bool => 'b',
        TypeChar::Int => 'i',
        TypeChar::Uint => 'u',
        TypeChar::Float => 'f',
        _ => return Err(format!("unsupported .npy dtype '{}'", ts)),
    };
    let size = ts.num_bytes().ok_or_else(|| format!("unsupported .npy dtype '{}'", ts))?;
    if ts.endianness() == Endianness::Big && size > 1 {
        return Err(format!("big-endian .npy data ('{}') is not supported", ts));
    }
    if file.order() == npyz::Order::Fortran {
        return Err("Fortran-ordered .npy arrays are not supported".into());
    }
    let shape = file.shape().to_vec();
    let need = shape
        .iter()
        .try_fold(size as u64, |a, &d| a.checked_mul(d))
        .filter(|n| *n <= MAX_BYTES)
        .ok_or_else(|| format!(".npy shape {:?} is too large", shape))?;
    let mut data = Vec::new();
    file.into_inner().take(need + 1).read_to_end(&mut data).map_err(|e| e.to_string())?;
    if data.len() as u64 != need {
        let what = if (data.len() as u64) < need { "truncated" } else { "longer than its shape" };
        return Err(format!(".npy data is {}: shape {:?} of '{}' needs {} bytes", what, shape, ts, need));
    }
    Ok(Raw { kind, size, shape, data })
}

fn write_typed<T: npyz::Serialize>(descr: &str, shape: &[u64], items: impl Iterator<Item = T>) -> Result<Vec<u8>, String> {
    use npyz::WriterBuilder;
    let ts: npyz::TypeStr = descr.parse().map_err(|e| format!("{:?}", e))?;
    let mut out = Vec::new();
    let mut w = npyz::WriteOptions::new().dtype(npyz::DType::new_scalar(ts)).shape(shape).writer(&mut out).begin_nd().map_err(|e| e.to_string())?;
    w.extend(items).map_err(|e| e.to_string())?;
    w.finish().map_err(|e| e.to_string())?;
    Ok(out)
}

/// Writes a `.npy` file (version 1.0, little-endian, C order).
pub fn write_raw(r: &Raw) -> Result<Vec<u8>, String> {
    macro_rules! le {
        ($descr:expr, $t:ty) => {
            write_typed($descr, &r.shape, r.data.chunks_exact(std::mem::size_of::<$t>()).map(|c| <$t>::from_le_bytes(c.try_into().unwrap())))
        };
    }
    match (r.kind, r.size) {
        ('b', 1) => write_typed("|b1", &r.shape, r.data.iter().map(|&b| b != 0)),
        ('i', 1) => le!("|i1", i8),
        ('u', 1) => le!("|u1", u8),
        ('i', 2) => le!("<i2", i16),
        ('u', 2) => le!("<u2", u16),
        ('i', 4) => le!("<i4", i32),
        ('u', 4) => le!("<u4", u32),
        ('i', 8) => le!("<i8", i64),
        ('u', 8) => le!("<u8", u64),
        ('f', 2) => le!("<f2", half::f16),
        ('f', 4) => le!("<f4", f32),
        ('f', 8) => le!("<f8", f64),
        (k, s) => Err(format!("no .npy type for '{}' of {} bytes", k, s)),
    }
}

#[derive(Debug)]
pub struct Array {
    pub dtype: Dtype,
    pub shape: Vec<u64>,
    pub data: Vec<u8>,
}

fn numpy_type(d: Dtype) -> (char, usize) {
    match d {
        Dtype::I8 => ('i', 1),
        Dtype::I32 => ('i', 4),
        Dtype::F32 => ('f', 4),
    }
}

/// Reads an int8, int32 or float32 array.
pub fn read(bytes: &[u8]) -> Result<Array, String> {
    let r = read_raw(bytes)?;
    let dtype = [Dtype::I8, Dtype::I32, Dtype::F32]
        .into_iter()
        .find(|d| numpy_type(*d) == (r.kind, r.size))
        .ok_or_else(|| format!("unsupported .npy dtype '{}{}' (the simulator takes int8, int32 and float32)", r.kind, r.size))?;
    Ok(Array { dtype, shape: r.shape, data: r.data })
}

pub fn write(a: &Array) -> Vec<u8> {
    let (kind, size) = numpy_type(a.dtype);
    write_raw(&Raw { kind, size, shape: a.shape.clone(), data: a.data.clone() }).expect("the simulator's dtypes have .npy types")
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn round_trip_and_errors() {
        let a = Array { dtype: Dtype::F32, shape: vec![2, 1], data: [1.5f32, -2.0].iter().flat_map(|v| v.to_le_bytes()).collect() };
        let bytes = write(&a);
        assert_eq!(&bytes[..6], b"\x93NUMPY");
        let b = read(&bytes).unwrap();
        assert_eq!((b.dtype, b.shape, b.data), (Dtype::F32, vec![2, 1], a.data.clone()));
        assert!(read(&bytes[..bytes.len() - 1]).unwrap_err().contains("truncated"));
        assert!(read(b"\x93NUMPY").is_err());
        let mut huge = b"\x93NUMPY\x02\x00".to_vec();
        huge.extend(u32::MAX.to_le_bytes());
        assert!(read(&huge).unwrap_err().contains("header of"));
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(read(&longer).unwrap_err().contains("longer"));
        let f16 = write_raw(&Raw { kind: 'f', size: 2, shape: vec![1], data: vec![0x00, 0x3C] }).unwrap();
        assert!(read(&f16).unwrap_err().contains("simulator"));
        assert_eq!(read_raw(&f16).unwrap().data, vec![0x00, 0x3C]);
    }
}
