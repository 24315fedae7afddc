//! The `ai.onnx.ml` operators that are tensor computations: Binarizer and
//! ArrayFeatureExtractor (the tree ensembles, classifiers and maps are not
//! lowered yet).

use onnx::ops;
use super::{Cmp, Emit, Lower, LowerFn};
use ir::affine::AffineMap;
use ir::Value;

pub const TABLE: &[(&str, LowerFn)] = &[(ops::ml::Binarizer::NAME, binarizer), (ops::ml::ArrayFeatureExtractor::NAME, array_feature_extractor)];

/// y = 1 where x > threshold, else 0 (NaN gives 0), in x's type.
fn binarizer(l: &mut Lower) -> Result<Vec<Value>, String> {
    let xi = l.in_info(0)?;
    let th = l.float_attr("threshold", 0.0);
    let s = xi.sc.clone();
    let x = l.operand(0)?;
    Ok(vec![l.map_op(&xi.shape, &s.ty.clone(), &[x], vec![AffineMap::identity(xi.rank() as u32)], move |e, a| {
        let t = e.scalar(th, &s);
        let gt = e.cmp(Cmp::Gt, a[0], t, &s);
        let (one, zero) = (e.scalar(1.0, &s), e.scalar(0.0, &s));
        e.select(gt, one, zero)
    })])
}

/// Z[..., k] = X[..., indices.flat[k]]: the indices (any shape, flattened) pick
/// along X's last axis, each in [0, n); a 1-D X gives [1, count].
fn array_feature_extractor(l: &mut Lower) -> Result<Vec<Value>, String> {
    let (xi, ii, out) = (l.in_info(0)?, l.in_info(1)?, l.out_info(0)?);
    let n = *xi.shape.last().ok_or("ArrayFeatureExtractor needs an input of rank 1 or more")?;
    super::checks::positions_in_range(l, 1, n, "the last axis")?;
    let (x, ind) = (l.operand(0)?, l.operand(1)?);
    let count = ii.numel();
    let flat = super::shape::reshape(l, ind, &[count]);
    let lead = xi.rank() - 1;
    let orank = out.rank();
    Ok(vec![l.map_op(&out.shape, &out.sc.ty.clone(), &[], vec![], move |e: &mut Emit, _| {
        let k = e.loop_index(orank - 1);
        let i = e.extract(flat, &[k]);
        let it = e.ctx.index();
        let idx = e.index_cast(i, &it, false);
        let mut at: Vec<Value> = (0..lead).map(|d| e.loop_index(d)).collect();
        at.push(idx);
        e.extract(x, &at)
    })])
}
