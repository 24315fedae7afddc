//! Sparse tensors (`sparse_initializer`, `Constant`'s `sparse_value`) made
//! dense on import: the dialect's constants are dense, so the values are
//! scattered at their indices into zeros. The dense size is checked before
//! anything is allocated, and every index before it is written.

use crate::proto::{data_type as dt, SparseTensorProto};
use crate::convert::tensor_attr;
use ir::attributes::{read_int_element, AttrData, Attribute, DenseData};
use ir::types::TypeData;
use ir::Context;
use std::path::Path;

/// A sparse tensor may densify to at most this many bytes.
const MAX_DENSE_BYTES: u64 = 1 << 30;

pub fn sparse_tensor_attr(ctx: &Context, sp: &SparseTensorProto, model_dir: Option<&Path>, used_names: &mut std::collections::HashSet<String>) -> Result<Attribute, String> {
    let values = sp.values.as_ref().ok_or("sparse tensor without values")?;
    let name = values.name.as_deref().unwrap_or("");
    if sp.dims.iter().any(|d| *d < 0) {
        return Err(format!("sparse tensor '{}' has a negative dimension {:?}", name, sp.dims));
    }
    let n = sp.dims.iter().try_fold(1u64, |a, &d| a.checked_mul(d as u64)).ok_or_else(|| format!("sparse tensor '{}' is too large", name))?;
    // Values and indices are small dense tensors: never resources.
    let vals = tensor_attr(ctx, values, model_dir, usize::MAX, used_names)?;
    let (vty, vdata) = match vals.data() {
        AttrData::Dense { ty, data } => (ty.clone(), data.clone()),
        _ => return Err(format!("sparse tensor '{}': values are not dense elements", name)),
    };
    let elem = vty.scalar().clone();
    let w = ir::attributes::element_bytes(&elem).ok_or_else(|| format!("sparse tensor '{}': values of {} cannot be stored", name, elem))?;
    if n.saturating_mul(w as u64) > MAX_DENSE_BYTES {
        return Err(format!("sparse tensor '{}' of shape {:?} would take {} bytes dense (at most {})", name, sp.dims, n.saturating_mul(w as u64), MAX_DENSE_BYTES));
    }
    let nnz = match vty.shape() {
        Some([k]) => *k as usize,
        _ => return Err(format!("sparse tensor '{}': values must be 1-D, not of shape {:?}", name, vty.shape())),
    };
    let indices = sp.indices.as_ref().ok_or_else(|| format!("sparse tensor '{}' without indices", name))?;
    if indices.data_type != Some(dt::INT64) {
        return Err(format!("sparse tensor '{}': indices must be int64", name));
    }
    let idx = tensor_attr(ctx, indices, model_dir, usize::MAX, used_names)?;
    let (ity, idata) = match idx.data() {
        AttrData::Dense { ty, data } => (ty.clone(), data.clone()),
        _ => return Err(format!("sparse tensor '{}': indices are not dense elements", name)),
    };
    let rank = sp.dims.len();
    // Indices are [NNZ] linear positions or [NNZ, rank] coordinates.
    let coords = match ity.shape() {
        Some([k]) if *k as usize == nnz => false,
        Some([k, r]) if *k as usize == nnz && *r as usize == rank => true,
        s => return Err(format!("sparse tensor '{}': indices of shape {:?} do not fit {} values of a rank-{} tensor", name, s, nnz, rank)),
    };
    let index = |i: usize| read_int_element(&idata.bytes, if idata.splat { 0 } else { i }, &ctx.i64()) as i64;
    let mut out = vec![0u8; n as usize * w];
    for k in 0..nnz {
        let lin = if coords {
            let mut lin = 0i64;
            for (a, &d) in sp.dims.iter().enumerate() {
                let c = index(k * rank + a);
                if c < 0 || c >= d {
                    return Err(format!("sparse tensor '{}': index {} of value {} is outside dimension {} of size {}", name, c, k, a, d));
                }
                lin = lin * d + c;
            }
            lin
        } else {
            index(k)
        };
        if lin < 0 || lin as u64 >= n {
            return Err(format!("sparse tensor '{}': position {} of value {} is outside its {} elements", name, lin, k, n));
        }
        let src = if vdata.splat { 0 } else { k * w };
        out[lin as usize * w..(lin as usize + 1) * w].copy_from_slice(&vdata.bytes[src..src + w]);
    }
    let ty = ctx.intern_type(TypeData::RankedTensor { shape: sp.dims.clone(), elem, encoding: None });
    Ok(Attribute::new(AttrData::Dense { ty, data: DenseData::canonical(out, w, n as usize) }))
}
