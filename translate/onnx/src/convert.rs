//! ONNX protobuf types and tensors in IR terms: tensor types (with symbolic
//! dimensions recorded by name), and `TensorProto` data as dense elements
//! attributes — `dense_resource` blobs when large, so a 100 MB model is never
//! printed as text. Every length is checked before it is trusted.

use crate::proto::{data_type as dt, DimValue, TensorProto, TypeProto, TypeValue};
use ir::attributes::{AttrData, Attribute, DenseData, Resource};
use ir::types::{Type, TypeData, DYNAMIC};
use ir::Context;
use onnx::types::{data_type_name, elem_type, wrap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A value type; `dim_names` receives the symbolic name of each dimension ("" when static or unnamed).
pub fn value_type(ctx: &Context, tp: &TypeProto, dim_names: &mut Vec<String>) -> Result<Type, String> {
    value_type_with(ctx, tp, dim_names, &std::collections::HashMap::new())
}

/// `value_type`, with symbolic dimensions named in `bound` replaced by their value (`--dim batch=1`).
pub fn value_type_with(
    ctx: &Context,
    tp: &TypeProto,
    dim_names: &mut Vec<String>,
    bound: &std::collections::HashMap<String, i64>,
) -> Result<Type, String> {
    match &tp.value {
        Some(TypeValue::TensorType(t)) | Some(TypeValue::SparseTensorType(t)) => {
            let elem = elem_type(ctx, t.elem_type.unwrap_or(0))?;
            match &t.shape {
                None => Ok(ctx.intern_type(TypeData::UnrankedTensor { elem })),
                Some(s) => {
                    let mut shape = vec![];
                    for d in &s.dim {
                        match &d.value {
                            Some(DimValue::DimValue(v)) if *v >= 0 => {
                                shape.push(*v);
                                dim_names.push(String::new());
                            }
                            // -1 is how some exporters (paddle2onnx) write a free dim; ONNX Runtime reads it so.
                            Some(DimValue::DimValue(-1)) => {
                                shape.push(DYNAMIC);
                                dim_names.push(String::new());
                            }
                            Some(DimValue::DimValue(v)) => return Err(format!("negative dimension {}", v)),
                            Some(DimValue::DimParam(p)) => match bound.get(p) {
                                Some(v) => {
                                    shape.push(*v);
                                    dim_names.push(String::new());
                                }
                                None => {
                                    shape.push(DYNAMIC);
                                    dim_names.push(p.clone());
                                }
                            },
                            None => {
                                shape.push(DYNAMIC);
                                dim_names.push(String::new());
                            }
                        }
                    }
                    Ok(ctx.intern_type(TypeData::RankedTensor { shape, elem, encoding: None }))
                }
            }
        }
        Some(TypeValue::SequenceType(s)) | Some(TypeValue::OptionalType(s)) => {
            let inner = match &s.elem_type {
                Some(t) => value_type_with(ctx, t, &mut vec![], bound)?,
                None => return Err("sequence or optional type without an element type".into()),
            };
            let kind = if matches!(tp.value, Some(TypeValue::SequenceType(_))) { "Seq" } else { "Opt" };
            Ok(wrap(ctx, kind, &inner))
        }
        Some(TypeValue::MapType(_)) => Err("map types are not supported".into()),
        None => Err("value without a type".into()),
    }
}

/// Reads the bytes of external data, refusing paths outside the model's folder
/// and ranges past the end of the file.
fn external_bytes(t: &TensorProto, model_dir: Option<&Path>, expected: usize) -> Result<Vec<u8>, String> {
    let get = |k: &str| t.external_data.iter().find(|e| e.key.as_deref() == Some(k)).and_then(|e| e.value.clone());
    let loc = get("location").ok_or("external data without a location")?;
    let rel = PathBuf::from(&loc);
    if rel.is_absolute() || rel.components().any(|c| matches!(c, std::path::Component::ParentDir)) {
        return Err(format!("external data '{}' is outside the model's folder", loc));
    }
    let dir = model_dir.ok_or("external data needs the model's path")?;
    let path = dir.join(&rel);
    let offset: u64 = get("offset").map(|o| o.parse().map_err(|_| format!("bad external data offset '{}'", o))).transpose()?.unwrap_or(0);
    let size = std::fs::metadata(&path).map_err(|e| format!("external data '{}': {}", loc, e))?.len();
    let length: u64 = get("length").map(|l| l.parse().map_err(|_| format!("bad external data length '{}'", l))).transpose()?.unwrap_or(size.saturating_sub(offset));
    if offset.checked_add(length).is_none_or(|end| end > size) {
        return Err(format!("external data '{}' range {}..{} is past the end of the file ({} bytes)", loc, offset, offset + length, size));
    }
    if length as usize != expected {
        return Err(format!("external data '{}' has {} bytes but the tensor needs {}", loc, length, expected));
    }
    use std::io::{Read, Seek, SeekFrom};
    let mut f = std::fs::File::open(&path).map_err(|e| format!("external data '{}': {}", loc, e))?;
    f.seek(SeekFrom::Start(offset)).map_err(|e| e.to_string())?;
    let mut buf = vec![0u8; length as usize];
    f.read_exact(&mut buf).map_err(|e| format!("external data '{}': {}", loc, e))?;
    Ok(buf)
}

/// `base`, or `base_1`, `base_2`, ... : the first not in `used`, which then holds it.
pub fn unique_name(base: &str, used: &mut std::collections::HashSet<String>) -> String {
    let mut name = base.to_string();
    let mut k = 1;
    while !used.insert(name.clone()) {
        name = format!("{}_{}", base, k);
        k += 1;
    }
    name
}

/// A `dense_resource` holding `data`, named after the tensor (uniquely in the module).
fn resource_attr(ty: Type, t: &TensorProto, used_names: &mut std::collections::HashSet<String>, data: ir::attributes::BlobBytes) -> Attribute {
    let name = unique_name(&sanitize(t.name.as_deref().unwrap_or_default()), used_names);
    Attribute::new(AttrData::DenseResource { ty, resource: Resource::new(&name, 16, data) })
}

/// The dense attribute of a tensor (`dense_resource` at or above `resource_threshold` bytes).
pub fn tensor_attr(
    ctx: &Context,
    t: &TensorProto,
    model_dir: Option<&Path>,
    resource_threshold: usize,
    used_names: &mut std::collections::HashSet<String>,
) -> Result<Attribute, String> {
    let dtype = t.data_type.unwrap_or(0);
    let elem = elem_type(ctx, dtype)?;
    if dtype == dt::STRING {
        return Err("string tensors are not supported yet".into());
    }
    if t.dims.iter().any(|d| *d < 0) {
        return Err(format!("negative dimension in tensor '{}'", t.name.as_deref().unwrap_or("")));
    }
    let n = t.dims.iter().try_fold(1u64, |a, &d| a.checked_mul(d as u64)).filter(|n| *n <= 1 << 34).ok_or("tensor is too large")? as usize;
    let shape: Vec<i64> = t.dims.clone();
    let ty = ctx.intern_type(TypeData::RankedTensor { shape, elem: elem.clone(), encoding: None });
    // Bytes per element in ONNX raw data and in our storage.
    let (raw_w, store_w): (usize, usize) = match dtype {
        dt::BOOL | dt::INT8 | dt::UINT8 | dt::FLOAT8E4M3FN | dt::FLOAT8E5M2 | dt::FLOAT8E4M3FNUZ | dt::FLOAT8E5M2FNUZ | dt::FLOAT8E8M0 => (1, 1),
        dt::INT16 | dt::UINT16 | dt::FLOAT16 | dt::BFLOAT16 => (2, 2),
        dt::INT32 | dt::UINT32 | dt::FLOAT => (4, 4),
        dt::INT64 | dt::UINT64 | dt::DOUBLE => (8, 8),
        dt::INT4 | dt::UINT4 | dt::FLOAT4E2M1 => (0, 1),
        dt::INT2 | dt::UINT2 => (0, 1),
        dt::COMPLEX64 => (8, 8),
        dt::COMPLEX128 => (16, 16),
        other => return Err(format!("tensors of {} are not supported", data_type_name(other))),
    };
    if matches!(dtype, dt::COMPLEX64 | dt::COMPLEX128) {
        return Err("complex tensors are not supported yet".into());
    }
    // Sub-byte types pack 8/bits values per byte, lowest bits first.
    let sub_bits: usize = if matches!(dtype, dt::INT2 | dt::UINT2) { 2 } else { 4 };
    let per_byte = 8 / sub_bits;
    let need_raw = if raw_w == 0 { n.div_ceil(per_byte) } else { n * raw_w };
    let signed_sub = matches!(dtype, dt::INT4 | dt::INT2);
    let unpack = |byte: u8, i: usize| -> u8 {
        let mask = ((1u16 << sub_bits) - 1) as u8;
        let v = (byte >> (sub_bits * (i % per_byte))) & mask;
        if signed_sub && v >> (sub_bits - 1) & 1 == 1 { v | !mask } else { v }
    };
    // `Bytes` clones share the model buffer: nothing is copied here.
    let raw: Option<bytes::Bytes> = if t.data_location == Some(1) {
        Some(bytes::Bytes::from(external_bytes(t, model_dir, need_raw)?))
    } else {
        t.raw_data.clone()
    };
    // Large raw tensors go straight into a resource that shares the buffer.
    if let Some(r) = &raw {
        if raw_w != 0 && dtype != dt::BOOL && r.len() == need_raw && r.len() >= resource_threshold && n > 1 {
            return Ok(resource_attr(ty, t, used_names, Arc::new(r.clone())));
        }
    }
    // Allocated only as data is found to be there: the dims alone are no promise
    // (the fuzzer found a 224-byte model whose dims asked for 3.8 GB up front).
    let mut bytes: Vec<u8> = Vec::new();
    let mismatch = |got: usize| Err(format!("tensor '{}' has {} data elements but its shape {:?} needs {}", t.name.as_deref().unwrap_or(""), got, t.dims, n));
    match raw {
        Some(r) => {
            if r.len() != need_raw {
                return Err(format!("tensor '{}' has {} bytes of data but its shape {:?} of {} needs {}", t.name.as_deref().unwrap_or(""), r.len(), t.dims, data_type_name(dtype), need_raw));
            }
            if raw_w == 0 {
                for i in 0..n {
                    bytes.push(unpack(r[i / per_byte], i));
                }
            } else if dtype == dt::BOOL {
                bytes.extend(r.iter().map(|b| (*b != 0) as u8));
            } else {
                bytes = r.to_vec();
            }
        }
        None => match dtype {
            dt::FLOAT => {
                if t.float_data.len() != n {
                    return mismatch(t.float_data.len());
                }
                bytes.extend(t.float_data.iter().flat_map(|v| v.to_le_bytes()));
            }
            dt::DOUBLE => {
                if t.double_data.len() != n {
                    return mismatch(t.double_data.len());
                }
                bytes.extend(t.double_data.iter().flat_map(|v| v.to_le_bytes()));
            }
            dt::INT64 => {
                if t.int64_data.len() != n {
                    return mismatch(t.int64_data.len());
                }
                bytes.extend(t.int64_data.iter().flat_map(|v| v.to_le_bytes()));
            }
            dt::UINT32 | dt::UINT64 => {
                if t.uint64_data.len() != n {
                    return mismatch(t.uint64_data.len());
                }
                bytes.extend(t.uint64_data.iter().flat_map(|v| v.to_le_bytes()[..store_w].to_vec()));
            }
            dt::INT4 | dt::UINT4 | dt::FLOAT4E2M1 | dt::INT2 | dt::UINT2 => {
                if t.int32_data.len() != n.div_ceil(per_byte) {
                    return mismatch(t.int32_data.len() * per_byte);
                }
                for i in 0..n {
                    bytes.push(unpack(t.int32_data[i / per_byte] as u8, i));
                }
            }
            _ => {
                // int32_data carries every narrower integer, bool and the 16-bit float bits.
                if t.int32_data.len() != n {
                    return mismatch(t.int32_data.len());
                }
                for v in &t.int32_data {
                    let v = if dtype == dt::BOOL { (*v != 0) as i32 } else { *v };
                    bytes.extend_from_slice(&v.to_le_bytes()[..store_w]);
                }
            }
        },
    }
    if bytes.len() >= resource_threshold && n > 1 {
        return Ok(resource_attr(ty, t, used_names, Arc::new(bytes)));
    }
    Ok(Attribute::new(AttrData::Dense { ty, data: DenseData::canonical(bytes, store_w, n) }))
}

/// A resource or symbol name made of identifier characters.
pub fn sanitize(s: &str) -> String {
    let mut out: String = s.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' }).collect();
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, '_');
    }
    out
}
