//! Data movement: constants, reshapes (`tensor.collapse_shape` +
//! `tensor.expand_shape`, free after bufferization), and ops that read their
//! input at computed positions (Transpose, Slice, Concat, Split, Gather, Pad,
//! Expand, Tile), written as `tensor.generic`s whose maps or `tensor.extract`
//! indices say where each output element comes from.

use onnx::ops;
use super::{add, axis, c, d, dims_map, expr_map, mul, Cmp, Emit, Lower, LowerFn, Sc, TInfo};
use ir::affine::{AffineExpr, AffineMap};
use ir::attributes::{AttrData, Attribute};
use ir::{OperationState, Value};

pub const TABLE: &[(&str, LowerFn)] = &[
    (ops::Constant::NAME, constant),
    (ops::Shape::NAME, shape_of),
    (ops::Size::NAME, size_of),
    (ops::ConstantOfShape::NAME, constant_of_shape),
    (ops::Range::NAME, range),
    (ops::Reshape::NAME, reshape_like),
    (ops::Flatten::NAME, reshape_like),
    (ops::Squeeze::NAME, reshape_like),
    (ops::Unsqueeze::NAME, reshape_like),
    (ops::Transpose::NAME, transpose),
    (ops::Expand::NAME, expand),
    (ops::Tile::NAME, tile),
    (ops::Slice::NAME, slice),
    (ops::Split::NAME, split),
    (ops::Concat::NAME, concat),
    (ops::Gather::NAME, gather),
    (ops::GatherElements::NAME, gather_elements),
    (ops::Pad::NAME, pad),
    (ops::DepthToSpace::NAME, depth_space),
    (ops::SpaceToDepth::NAME, depth_space),
];

/// An `arith.constant` holding the same elements under the signless type.
fn constant(l: &mut Lower) -> Result<Vec<Value>, String> {
    let v = l.attr("value").cloned().ok_or("Constant without a value")?;
    let out = l.out_info(0)?;
    let ty = l.tensor_type(&out.shape, &out.sc.ty);
    let a = match v.data() {
        AttrData::Dense { data, .. } => Attribute::new(AttrData::Dense { ty, data: data.clone() }),
        AttrData::DenseResource { resource, .. } => Attribute::new(AttrData::DenseResource { ty, resource: resource.clone() }),
        _ => return Err("only dense tensor constants are supported".into()),
    };
    Ok(vec![l.emit().constant(a)])
}

fn ints_constant(l: &mut Lower, vals: &[i64], out: &TInfo) -> Value {
    let bytes: Vec<u8> = vals.iter().flat_map(|v| v.to_le_bytes()).collect();
    let ty = l.tensor_type(&out.shape, &out.sc.ty);
    let data = ir::attributes::DenseData::canonical(bytes, 8, vals.len());
    l.emit().constant(Attribute::new(AttrData::Dense { ty, data }))
}

fn shape_of(l: &mut Lower) -> Result<Vec<Value>, String> {
    let x = l.in_info(0)?;
    let r = x.rank() as i64;
    let clamp = |v: i64| if v < 0 { (v + r).max(0) } else { v.min(r) };
    let (s, e) = (clamp(l.int_attr("start", 0)), clamp(l.int_attr("end", r)));
    let dims: Vec<i64> = x.shape[s as usize..(e.max(s)) as usize].to_vec();
    let out = l.out_info(0)?;
    Ok(vec![ints_constant(l, &dims, &out)])
}

fn size_of(l: &mut Lower) -> Result<Vec<Value>, String> {
    let n = l.in_info(0)?.numel();
    let out = l.out_info(0)?;
    Ok(vec![ints_constant(l, &[n], &out)])
}

fn constant_of_shape(l: &mut Lower) -> Result<Vec<Value>, String> {
    let out = l.out_info(0)?;
    let value = match l.attr("value").map(|a| a.data().clone()) {
        Some(AttrData::Dense { data, ty }) => {
            let elem = ty.scalar().clone();
            let b = &data.bytes[..];
            if let Some(k) = elem.float_kind() {
                ir::float::bits_to_f64(ir::attributes::read_raw_element(b, 0, ir::attributes::element_bytes(&elem).unwrap_or(4)), k).unwrap_or(0.0)
            } else {
                ir::attributes::read_int_element(b, 0, &elem) as f64
            }
        }
        _ => 0.0,
    };
    let sc = out.sc.clone();
    Ok(vec![l.fill(&out.shape, &sc, value)])
}

fn range(l: &mut Lower) -> Result<Vec<Value>, String> {
    let out = l.out_info(0)?;
    let (start, delta) = (l.operand(0)?, l.operand(2)?);
    let sc = out.sc.clone();
    let ins = [start, delta];
    let maps = vec![expr_map(1, vec![]), expr_map(1, vec![])];
    let o = l.map_op(&out.shape, &sc.ty.clone(), &ins, maps, |e, a| {
        let i = e.op_with(tensor::ops::INDEX, &[], &e.ctx.index(), &[("dim", Attribute::integer(0, e.ctx.i64()))]);
        let i64t = e.ctx.i64();
        let ii = e.index_cast(i, &i64t, false);
        let isc = Sc { ty: i64t, kind: super::Kind::Signed };
        let fi = e.cast(ii, &isc, &sc);
        let step = e.mul(fi, a[1], &sc);
        e.add(a[0], step, &sc)
    });
    Ok(vec![o])
}

/// Reshapes `v` to `shape` keeping row-major order: collapse to one dim, then
/// expand (each a no-op view after bufferization).
pub fn reshape(l: &mut Lower, v: Value, shape: &[i64]) -> Value {
    let at = l.at();
    tensor::reshape(l.ctx, l.body, at, &l.loc, v, shape)
}

fn reshape_like(l: &mut Lower) -> Result<Vec<Value>, String> {
    let out = l.out_info(0)?;
    let x = l.operand(0)?;
    let xi = l.in_info(0)?;
    if xi.numel() != out.numel() {
        return Err(format!("the input's {} elements (shape {:?}) cannot take the shape {:?} ({} elements)", xi.numel(), xi.shape, out.shape, out.numel()));
    }
    Ok(vec![reshape(l, x, &out.shape)])
}

fn transpose(l: &mut Lower) -> Result<Vec<Value>, String> {
    let x = l.in_info(0)?;
    let out = l.out_info(0)?;
    let r = x.rank();
    let perm: Vec<usize> = l.ints_attr("perm").map(|p| p.iter().map(|&v| v as usize).collect()).unwrap_or_else(|| (0..r).rev().collect());
    // out[i0..] = in[j..] where in dim perm[k] is out dim k.
    let v = l.operand(0)?;
    let init = l.empty(&out.shape, &out.sc.ty.clone());
    let p: Vec<i64> = perm.iter().map(|&x| x as i64).collect();
    let attr = super::i64_array(l.ctx, &p);
    Ok(vec![l.named(tensor::ops::TRANSPOSE, &[v, init], &[("permutation", attr)])])
}

fn expand(l: &mut Lower) -> Result<Vec<Value>, String> {
    let x = l.in_info(0)?;
    let out = l.out_info(0)?;
    let v = l.operand(0)?;
    let m = super::broadcast_operand(0, &x.shape, &out.shape)?;
    Ok(vec![l.map_op(&out.shape, &out.sc.ty.clone(), &[v], vec![m], |_, a| a[0])])
}

fn tile(l: &mut Lower) -> Result<Vec<Value>, String> {
    let x = l.in_info(0)?;
    let out = l.out_info(0)?;
    let v = l.operand(0)?;
    let res = (0..x.rank()).map(|i| if x.shape[i] == out.shape[i] { d(i) } else { AffineExpr::Mod(Box::new(d(i)), Box::new(c(x.shape[i]))) }).collect();
    Ok(vec![l.map_op(&out.shape, &out.sc.ty.clone(), &[v], vec![expr_map(x.rank(), res)], |_, a| a[0])])
}

/// Normalized (start, step) per dim of a Slice, given the output shape.
fn slice(l: &mut Lower) -> Result<Vec<Value>, String> {
    let x = l.in_info(0)?;
    let out = l.out_info(0)?;
    let r = x.rank();
    let starts = l.const_ints(1)?.ok_or("Slice needs starts")?;
    let ends = l.const_ints(2)?.ok_or("Slice needs ends")?;
    let axes = l.const_ints(3)?.unwrap_or_else(|| (0..starts.len() as i64).collect());
    let steps = l.const_ints(4)?.unwrap_or_else(|| vec![1; starts.len()]);
    let mut res: Vec<AffineExpr> = (0..r).map(d).collect();
    for (k, &a) in axes.iter().enumerate() {
        let ax = axis(a, r)?;
        let dim = x.shape[ax];
        let step = steps[k];
        if step == 0 {
            return Err("Slice step must not be 0".into());
        }
        let s = starts[k];
        let s = if s < 0 { s + dim } else { s };
        let s = if step > 0 { s.clamp(0, dim) } else { s.clamp(0, dim - 1) };
        let _ = ends;
        res[ax] = add(mul(d(ax), step), c(s));
    }
    let v = l.operand(0)?;
    // With positive steps this is a strided window: tensor.extract_slice.
    let window: Option<(Vec<i64>, Vec<i64>)> = res
        .iter()
        .map(|e| match e {
            AffineExpr::Dim(_) => Some((0, 1)),
            AffineExpr::Add(a, b) => match (&**a, &**b) {
                (AffineExpr::Dim(_), AffineExpr::Const(o)) => Some((*o, 1)),
                (AffineExpr::Mul(_, k), AffineExpr::Const(o)) => match &**k {
                    AffineExpr::Const(k) if *k > 0 => Some((*o, *k)),
                    _ => None,
                },
                _ => None,
            },
            AffineExpr::Mul(_, k) => match &**k {
                AffineExpr::Const(k) if *k > 0 => Some((0, *k)),
                _ => None,
            },
            _ => None,
        })
        .collect::<Option<Vec<_>>>()
        .map(|v| v.into_iter().unzip());
    if let Some((offs, strides)) = window {
        let init = l.empty(&out.shape, &out.sc.ty.clone());
        let (o, s) = (super::i64_array(l.ctx, &offs), super::i64_array(l.ctx, &strides));
        return Ok(vec![l.named(tensor::ops::EXTRACT_SLICE, &[v, init], &[("static_offsets", o), ("static_strides", s)])]);
    }
    Ok(vec![l.map_op(&out.shape, &out.sc.ty.clone(), &[v], vec![expr_map(r, res)], |_, a| a[0])])
}

fn split(l: &mut Lower) -> Result<Vec<Value>, String> {
    let x = l.in_info(0)?;
    let ax = axis(l.int_attr("axis", 0), x.rank())?;
    let v = l.operand(0)?;
    let mut offset = 0;
    let mut outs = Vec::new();
    for i in 0..l.num_results() {
        let o = l.out_info(i)?;
        let mut res: Vec<AffineExpr> = (0..x.rank()).map(d).collect();
        res[ax] = add(d(ax), c(offset));
        offset += o.shape[ax];
        outs.push(l.map_op(&o.shape, &o.sc.ty.clone(), &[v], vec![expr_map(x.rank(), res)], |_, a| a[0]));
    }
    Ok(outs)
}


fn index_sc(e: &Emit) -> Sc {
    Sc { ty: e.ctx.index(), kind: super::Kind::Signed }
}

/// Concat: `tensor.concat` (inserts into one destination once generalized).
fn concat(l: &mut Lower) -> Result<Vec<Value>, String> {
    let out = l.out_info(0)?;
    let ax = axis(l.int_attr("axis", 0), out.rank())?;
    let mut parts = Vec::new();
    for i in 0..l.num_operands() {
        let v = l.operand(i)?;
        l.info(v)?;
        parts.push(v);
    }
    let ty = l.tensor_type(&out.shape, &out.sc.ty);
    let st = OperationState::new(l.ctx.op_name(tensor::ops::CONCAT), l.loc.clone())
        .operands(&parts)
        .results(&[ty])
        .property(l.ctx.ident("dim"), Attribute::integer(ax as i128, l.ctx.i64()));
    let op = l.body.build(st, l.at());
    Ok(vec![l.body.op(op).result(0)])
}

/// Converts an integer index element to `index`, wrapping negatives by `dim`
/// and clamping into range so a bad index never reads outside the buffer.
fn to_index(e: &mut Emit, v: Value, dim: i64) -> Value {
    let i = e.wrap_index(v, dim);
    e.clamp_index(i, dim)
}

fn gather(l: &mut Lower) -> Result<Vec<Value>, String> {
    let x = l.in_info(0)?;
    let ind = l.in_info(1)?;
    let out = l.out_info(0)?;
    let ax = axis(l.int_attr("axis", 0), x.rank())?;
    super::checks::indices_in_range(l, 1, x.shape[ax], &format!("axis {} of size {}", ax, x.shape[ax]))?;
    let (data, indices) = (l.operand(0)?, l.operand(1)?);
    let q = ind.rank();
    // out[pre, idx..., post] = data[pre, indices[idx...], post]
    let ind_map = dims_map(out.rank(), &(ax..ax + q).collect::<Vec<_>>());
    let r = out.rank();
    let xs = x.clone();
    let o = l.map_op(&out.shape, &out.sc.ty.clone(), &[indices], vec![ind_map], move |e, a| {
        let k = to_index(e, a[0], xs.shape[ax]);
        let mut at = Vec::new();
        for i in 0..ax {
            at.push(e.loop_index(i));
        }
        at.push(k);
        for i in ax + q..r {
            at.push(e.loop_index(i));
        }
        e.extract(data, &at)
    });
    Ok(vec![o])
}

fn gather_elements(l: &mut Lower) -> Result<Vec<Value>, String> {
    let x = l.in_info(0)?;
    l.in_info(1)?;
    let out = l.out_info(0)?;
    let ax = axis(l.int_attr("axis", 0), x.rank())?;
    super::checks::indices_in_range(l, 1, x.shape[ax], &format!("axis {} of size {}", ax, x.shape[ax]))?;
    let (data, indices) = (l.operand(0)?, l.operand(1)?);
    let r = out.rank();
    let o = l.map_op(&out.shape, &out.sc.ty.clone(), &[indices], vec![AffineMap::identity(r as u32)], move |e, a| {
        let k = to_index(e, a[0], x.shape[ax]);
        let mut at: Vec<Value> = (0..r).map(|i| e.loop_index(i)).collect();
        at[ax] = k;
        e.extract(data, &at)
    });
    Ok(vec![o])
}

/// Pad: constant, reflect, edge and wrap modes. Each output index maps back to
/// an input index per mode; constant mode selects the pad value outside.
fn pad(l: &mut Lower) -> Result<Vec<Value>, String> {
    let x = l.in_info(0)?;
    let out = l.out_info(0)?;
    let r = x.rank();
    let before = onnx::infer::pad_amounts(l.body, l.op).ok_or("Pad needs constant pads (and axes), two per padded axis")?[..r].to_vec();
    let mode = l.str_attr("mode").unwrap_or_else(|| "constant".into());
    let data = l.operand(0)?;
    let value = l.opt(2);
    let sc = out.sc.clone();
    let ins: Vec<Value> = value.into_iter().collect();
    // The pad value: a scalar, or a one-element tensor read at 0.
    let mut maps = Vec::new();
    for v in &ins {
        let rank = l.info(*v)?.rank();
        maps.push(expr_map(r, vec![c(0); rank]));
    }
    let o = l.map_op(&out.shape, &sc.ty.clone(), &ins, maps, move |e, a| {
        let isc = index_sc(e);
        let it = e.ctx.index();
        let i1 = e.ctx.i1();
        let mut at = Vec::new();
        let mut inside: Option<Value> = None;
        for i in 0..r {
            let o = e.loop_index(i);
            let b = e.index(before[i]);
            let n = x.shape[i];
            let p = e.op(arith::ops::SUBI, &[o, b], &it);
            let idx = match mode.as_str() {
                "edge" => {
                    let zero = e.index(0);
                    let m = e.index(n - 1);
                    let p = e.op(arith::ops::MAXSI, &[p, zero], &it);
                    e.op(arith::ops::MINSI, &[p, m], &it)
                }
                "wrap" => {
                    let nn = e.index(n);
                    let big = e.index(n * (1 + before[i] / n.max(1)));
                    let s = e.op(arith::ops::ADDI, &[p, big], &it);
                    e.op(arith::ops::REMSI, &[s, nn], &it)
                }
                "reflect" => {
                    // Reflect about the ends without repeating them: period 2(n-1).
                    if n == 1 {
                        e.index(0)
                    } else {
                        let per = 2 * (n - 1);
                        let big = e.index(per * (1 + before[i] / per));
                        let pv = e.index(per);
                        let s = e.op(arith::ops::ADDI, &[p, big], &it);
                        let m = e.op(arith::ops::REMSI, &[s, pv], &it);
                        let nm1 = e.index(n - 1);
                        let gt = e.cmp(Cmp::Gt, m, nm1, &isc);
                        let refl = e.op(arith::ops::SUBI, &[pv, m], &it);
                        e.select(gt, refl, m)
                    }
                }
                _ => {
                    let zero = e.index(0);
                    let nn = e.index(n);
                    let ge = e.cmp(Cmp::Ge, p, zero, &isc);
                    let lt = e.cmp(Cmp::Lt, p, nn, &isc);
                    let ok = e.op(arith::ops::ANDI, &[ge, lt], &i1);
                    inside = Some(match inside {
                        None => ok,
                        Some(prev) => e.op(arith::ops::ANDI, &[prev, ok], &i1),
                    });
                    let m = e.index((n - 1).max(0));
                    let p = e.op(arith::ops::MAXSI, &[p, zero], &it);
                    e.op(arith::ops::MINSI, &[p, m], &it)
                }
            };
            at.push(idx);
        }
        let v = e.extract(data, &at);
        match inside {
            Some(ok) => {
                let pv = if a.is_empty() { e.scalar(0.0, &sc) } else { a[0] };
                e.select(ok, v, pv)
            }
            None => v,
        }
    });
    Ok(vec![o])
}

/// DepthToSpace / SpaceToDepth as one gather-like generic.
fn depth_space(l: &mut Lower) -> Result<Vec<Value>, String> {
    let x = l.in_info(0)?;
    let out = l.out_info(0)?;
    let b = l.int_attr("blocksize", 1);
    let crd = l.str_attr("mode").as_deref() == Some("CRD");
    let to_space = l.name() == ops::DepthToSpace::NAME;
    let data = l.operand(0)?;
    let c_in = x.shape[1];
    let c_out = out.shape[1];
    let o = l.map_op(&out.shape, &out.sc.ty.clone(), &[], vec![], move |e, _| {
        let it = e.ctx.index();
        let (n, c, h, w) = (e.loop_index(0), e.loop_index(1), e.loop_index(2), e.loop_index(3));
        let bv = e.index(b);
        if to_space {
            // out[n, c, h, w] = in[n, ch, h / b, w / b], with the block offset in the channel.
            let hb = e.op(arith::ops::DIVSI, &[h, bv], &it);
            let wb = e.op(arith::ops::DIVSI, &[w, bv], &it);
            let hr = e.op(arith::ops::REMSI, &[h, bv], &it);
            let wr = e.op(arith::ops::REMSI, &[w, bv], &it);
            let off = e.op(arith::ops::MULI, &[hr, bv], &it);
            let off = e.op(arith::ops::ADDI, &[off, wr], &it);
            let ch = if crd {
                let bb = e.index(b * b);
                let cc = e.op(arith::ops::MULI, &[c, bb], &it);
                e.op(arith::ops::ADDI, &[cc, off], &it)
            } else {
                let co = e.index(c_out);
                let oo = e.op(arith::ops::MULI, &[off, co], &it);
                e.op(arith::ops::ADDI, &[oo, c], &it)
            };
            e.extract(data, &[n, ch, hb, wb])
        } else {
            // out[n, c, h, w] = in[n, c % C, h*b + off / b, w*b + off % b], off = c / C.
            let ci = e.index(c_in);
            let cc = e.op(arith::ops::REMSI, &[c, ci], &it);
            let off = e.op(arith::ops::DIVSI, &[c, ci], &it);
            let oh = e.op(arith::ops::DIVSI, &[off, bv], &it);
            let ow = e.op(arith::ops::REMSI, &[off, bv], &it);
            let hh = e.op(arith::ops::MULI, &[h, bv], &it);
            let hh = e.op(arith::ops::ADDI, &[hh, oh], &it);
            let ww = e.op(arith::ops::MULI, &[w, bv], &it);
            let ww = e.op(arith::ops::ADDI, &[ww, ow], &it);
            e.extract(data, &[n, cc, hh, ww])
        }
    });
    Ok(vec![o])
}

