//! Contractions: MatMul, Gemm and Einsum become one reduction
//! `tensor.generic` each, every index letter a loop (output letters parallel,
//! the rest reductions), accumulating `acc + a * b` into an initialized output.

use onnx::ops;
use super::{add, broadcast_map, c, d, expr_map, mul, Cmp, Lower, LowerFn, Sc};
use ir::affine::{AffineExpr, AffineMap};
use ir::Value;
use tensor::Iterator;

pub const TABLE: &[(&str, LowerFn)] = &[(ops::MatMul::NAME, matmul), (ops::Gemm::NAME, gemm), (ops::Einsum::NAME, einsum), (ops::MatMulInteger::NAME, matmul), (ops::Det::NAME, det)];

/// `out[out_map] = init + sum over reductions of cast(a) * cast(b)` (scaled by alpha).
#[allow(clippy::too_many_arguments)]
pub fn contract(l: &mut Lower, a: Value, a_map: AffineMap, b: Value, b_map: AffineMap, init: Value, iters: &[Iterator], alpha: f64, zero_points: (Option<Value>, Option<Value>)) -> Value {
    // Half-precision products accumulate in f32 (as ONNX Runtime and numpy
    // do), rounded to the output type once at the end.
    let so = Sc::of(l.ctx, l.body.value_type(init).element_type().unwrap()).unwrap();
    if so.is_float() && so.width() < 32 {
        let f32s = Sc { ty: l.ctx.f32(), kind: super::Kind::Float };
        let shape = l.body.value_type(init).shape().unwrap().to_vec();
        let id = AffineMap::identity(shape.len() as u32);
        let (s1, s2) = ((so.clone(), f32s.clone()), (f32s.clone(), so.clone()));
        let wide = l.map_op(&shape, &l.ctx.f32(), &[init], vec![id.clone()], move |e, x| e.cast(x[0], &s1.0, &s1.1));
        let acc = contract(l, a, a_map, b, b_map, wide, iters, alpha, zero_points);
        return l.map_op(&shape, &so.ty.clone(), &[acc], vec![id], move |e, x| e.cast(x[0], &s2.0, &s2.1));
    }
    let sa = Sc::of(l.ctx, l.body.value_type(a).element_type().unwrap()).unwrap();
    let sb = Sc::of(l.ctx, l.body.value_type(b).element_type().unwrap()).unwrap();
    let so = Sc::of(l.ctx, l.body.value_type(init).element_type().unwrap()).unwrap();
    let n = iters.len();
    let out_dims: Vec<usize> = (0..n).filter(|&i| iters[i] == Iterator::Parallel).collect();
    let mut ins = vec![a, b];
    let mut maps = vec![a_map, b_map];
    for z in [zero_points.0, zero_points.1].into_iter().flatten() {
        ins.push(z);
        maps.push(expr_map(n, vec![]));
    }
    let has_zp = (zero_points.0.is_some(), zero_points.1.is_some());
    maps.push(super::dims_map(n, &out_dims));
    l.generic(&ins, &[init], maps, iters, |e, args| {
        let mut x = e.cast(args[0], &sa, &so);
        let mut y = e.cast(args[1], &sb, &so);
        let mut k = 2;
        if has_zp.0 {
            let z = e.cast(args[k], &sa, &so);
            x = e.sub(x, z, &so);
            k += 1;
        }
        if has_zp.1 {
            let z = e.cast(args[k], &sb, &so);
            y = e.sub(y, z, &so);
            k += 1;
        }
        let mut p = e.mul(x, y, &so);
        if alpha != 1.0 {
            let al = e.scalar(alpha, &so);
            p = e.mul(p, al, &so);
        }
        vec![e.add(args[k], p, &so)]
    })[0]
}

fn matmul(l: &mut Lower) -> Result<Vec<Value>, String> {
    let a = l.in_info(0)?;
    let b = l.in_info(1)?;
    let out = l.out_info(0)?;
    let (ra, rb, r) = (a.rank(), b.rank(), out.rank());
    if ra == 0 || rb == 0 {
        return Err("MatMul operands must have rank 1 or more".into());
    }
    // Loops: the output dims, then k.
    let k = r;
    let n_loops = r + 1;
    let batch = r - (if ra >= 2 { 1 } else { 0 }) - (if rb >= 2 { 1 } else { 0 });
    let batch_out: Vec<i64> = out.shape[..batch].to_vec();
    let operand_map = |shape: &[i64], matrix: Vec<AffineExpr>| -> AffineMap {
        let nb = shape.len() - matrix.len();
        let bm = broadcast_map(&shape[..nb], &batch_out);
        let mut res: Vec<AffineExpr> = bm.results;
        res.extend(matrix);
        expr_map(n_loops, res)
    };
    let (m_loop, n_loop) = match (ra >= 2, rb >= 2) {
        (true, true) => (Some(r - 2), Some(r - 1)),
        (true, false) => (Some(r - 1), None),
        (false, true) => (None, Some(r - 1)),
        (false, false) => (None, None),
    };
    let a_map = operand_map(&a.shape, if let Some(m) = m_loop { vec![d(m), d(k)] } else { vec![d(k)] });
    let b_map = operand_map(&b.shape, if let Some(n) = n_loop { vec![d(k), d(n)] } else { vec![d(k)] });
    let mut iters = vec![Iterator::Parallel; r];
    iters.push(Iterator::Reduction);
    let (va, vb) = (l.operand(0)?, l.operand(1)?);
    let zps = if l.name() == ops::MatMulInteger::NAME { (l.opt(2), l.opt(3)) } else { (None, None) };
    if l.name() == ops::MatMulInteger::NAME {
        if let Some(y) = super::int8::matmul(l, va, vb, zps.0, zps.1, None, false, super::int8::Tail::Int32)? {
            return Ok(vec![y]);
        }
    }
    // Per-row (A) or per-column (B) zero points are taken off beforehand, in i32.
    let per_axis = |l: &Lower, z: Option<Value>| z.is_some_and(|z| l.info(z).map(|i| i.numel() != 1).unwrap_or(true));
    let (va, vb, zps) = if per_axis(l, zps.0) || per_axis(l, zps.1) {
        let va = super::conv::minus_zero_point(l, va, zps.0, ra.saturating_sub(2))?;
        let vb = super::conv::minus_zero_point(l, vb, zps.1, rb - 1)?;
        (va, vb, (None, None))
    } else {
        (va, vb, zps)
    };
    let (a, b) = (l.info(va)?, l.info(vb)?);
    let zps = (zps.0.map(|z| super::shape::reshape(l, z, &[])), zps.1.map(|z| super::shape::reshape(l, z, &[])));
    let sc = out.sc.clone();
    let init = l.fill(&out.shape, &sc, 0.0);
    // Plain (batched) matrix products of one element type: the named ops.
    let same = a.sc == b.sc && a.sc == sc && zps.0.is_none() && zps.1.is_none() && !(sc.is_float() && sc.width() < 32);
    if same && ra == 2 && rb == 2 {
        if let Some(y) = packed_product(l, va, false, vb, init) {
            return Ok(vec![y]);
        }
        return Ok(vec![l.named(tensor::ops::MATMUL, &[va, vb, init], &[])]);
    }
    if same && ra == 3 && rb == 3 && a.shape[0] == b.shape[0] {
        return Ok(vec![l.named(tensor::ops::BATCH_MATMUL, &[va, vb, init], &[])]);
    }
    Ok(vec![contract(l, va, a_map, vb, b_map, init, &iters, 1.0, zps)])
}

/// Most bytes of a constant B a product reads as it is (packing its panels
/// at run time, block by block): a larger one, which does not stay in L2, is
/// packed at compile time.
const PACK_AT_RUN_TIME_MAX_BYTES: i64 = 1 << 20;
/// Columns per compile-time panel: one tile of the contraction kernel (4
/// vectors of 16 on AVX-512, 1 on AVX2: `crate::cpu_target`).
pub(super) fn panel_columns() -> i64 {
    16 * crate::cpu_target().tile().vectors as i64
}
/// Columns per panel for a product of one row: the kernel's GEMV tile (8
/// vectors on AVX-512, 4 on AVX2).
pub(super) fn gemv_panel_columns() -> i64 {
    16 * crate::cpu_target().tile().vectors_one_row as i64
}

/// The first `n` columns of B (`[.., K, N]` read at `prefix` then k, j) as
/// panels `[n/t, K, t]`: panel p holds columns p·t .. p·t + t, row after
/// row, the order the contraction kernel streams a tile's B in.
pub(super) fn column_panels(l: &mut Lower, b: Value, prefix: &[AffineExpr], k: i64, n: i64, t: i64) -> Value {
    let ty = l.body.value_type(b).element_type().unwrap().clone();
    let mut index = prefix.to_vec();
    index.extend([d(1), add(mul(d(0), t), d(2))]);
    l.map_op(&[n / t, k, t], &ty, &[b], vec![expr_map(3, index)], |_, x| x[0])
}

/// `A[M, K] · B[K, N]` (A transposed when `ta`) into `init` [M, N] with a
/// constant f32 B of more than [`PACK_AT_RUN_TIME_MAX_BYTES`] packed at
/// compile time into panels `Bp[N/t, K, t]` that the contraction kernel
/// streams in place, as ONNX Runtime packs a Gemm's weights once at load:
/// the product written as [M, N/t, t], the same bytes as [M, N]; t is the
/// kernel's tile, 64 columns, or 128 for one row (a GEMV: 8 vectors; AVX2: 16 and 64). Columns
/// past the last whole panel (a classifier's 1,000 = 7 × 128 + 104) are a
/// product of their own, concatenated. None where B is not such a constant.
fn packed_product(l: &mut Lower, a: Value, ta: bool, b: Value, init: Value) -> Option<Value> {
    let (ai, bi) = (l.info(a).ok()?, l.info(b).ok()?);
    if !l.is_constant(b) || ai.rank() != 2 || bi.rank() != 2 || !ai.sc.is_float() || ai.sc.width() != 32 || bi.sc != ai.sc {
        return None;
    }
    let (m, k, n) = (if ta { ai.shape[1] } else { ai.shape[0] }, bi.shape[0], bi.shape[1]);
    let t = if m == 1 { gemv_panel_columns() } else { panel_columns() };
    let whole = n / t * t;
    if whole == 0 || k * n * 4 <= PACK_AT_RUN_TIME_MAX_BYTES {
        return None;
    }
    let ty = ai.sc.ty.clone();
    let a_map = |loops: usize| expr_map(loops, if ta { vec![d(loops - 1), d(0)] } else { vec![d(0), d(loops - 1)] });
    // Columns [from, from + width) of a [rows, N] tensor.
    let columns = |l: &mut Lower, v: Value, rows: i64, from: i64, width: i64| l.map_op(&[rows, width], &ty.clone(), &[v], vec![expr_map(2, vec![d(0), add(d(1), c(from))])], |_, x| x[0]);
    let bp = column_panels(l, b, &[], k, whole, t);
    let init_whole = if whole == n { init } else { columns(l, init, m, 0, whole) };
    let init3 = super::shape::reshape(l, init_whole, &[m, whole / t, t]);
    // Loops: m, n/t, t | k.
    let iters = [Iterator::Parallel, Iterator::Parallel, Iterator::Parallel, Iterator::Reduction];
    let y3 = contract(l, a, a_map(4), bp, expr_map(4, vec![d(1), d(3), d(2)]), init3, &iters, 1.0, (None, None));
    let y = super::shape::reshape(l, y3, &[m, whole]);
    if whole == n {
        return Some(y);
    }
    // Loops: m, n | k.
    let (b_rest, init_rest) = (columns(l, b, k, whole, n - whole), columns(l, init, m, whole, n - whole));
    let iters = [Iterator::Parallel, Iterator::Parallel, Iterator::Reduction];
    let rest = contract(l, a, a_map(3), b_rest, expr_map(3, vec![d(2), d(1)]), init_rest, &iters, 1.0, (None, None));
    Some(super::attention::concat(l, &[y, rest], 1))
}

fn gemm(l: &mut Lower) -> Result<Vec<Value>, String> {
    let out = l.out_info(0)?;
    let (ta, tb) = (l.int_attr("transA", 0) != 0, l.int_attr("transB", 0) != 0);
    let (alpha, beta) = (l.float_attr("alpha", 1.0), l.float_attr("beta", 1.0));
    // Loops: m, n, k.
    let a_map = expr_map(3, if ta { vec![d(2), d(0)] } else { vec![d(0), d(2)] });
    let b_map = expr_map(3, vec![d(2), d(1)]);
    let sc = out.sc.clone();
    let init = match l.opt(2) {
        Some(cv) if beta != 0.0 => {
            let ci = l.info(cv)?;
            let m = super::broadcast_operand(2, &ci.shape, &out.shape)?;
            let csc = ci.sc.clone();
            let osc = sc.clone();
            l.map_op(&out.shape, &sc.ty.clone(), &[cv], vec![m], move |e, a| {
                let x = e.cast(a[0], &csc, &osc);
                if beta == 1.0 {
                    x
                } else {
                    let b = e.scalar(beta, &osc);
                    e.mul(x, b, &osc)
                }
            })
        }
        _ => l.fill(&out.shape, &sc, 0.0),
    };
    let (va, mut vb) = (l.operand(0)?, l.operand(1)?);
    if tb {
        // B transposed to [K, N] first, so the product reads its rows contiguously
        // (vectorized); a constant f32 B was transposed by canonicalize already.
        let bi = l.in_info(1)?;
        let t = [bi.shape[1], bi.shape[0]];
        vb = l.map_op(&t, &bi.sc.ty.clone(), &[vb], vec![expr_map(2, vec![d(1), d(0)])], |_, a| a[0]);
    }
    if alpha == 1.0 {
        if let Some(y) = packed_product(l, va, ta, vb, init) {
            return Ok(vec![y]);
        }
    }
    Ok(vec![contract(l, va, a_map, vb, b_map, init, &[Iterator::Parallel, Iterator::Parallel, Iterator::Reduction], alpha, (None, None))])
}

/// Replaces `...` by capital letters for the dims it stands for (aligned from
/// the right across terms, as numpy does); an implicit output lists them first.
fn expand_ellipsis(l: &Lower, eq: &str) -> Result<String, String> {
    if !eq.contains("...") {
        return Ok(eq.to_string());
    }
    let (lhs, rhs) = match eq.split_once("->") {
        Some((a, b)) => (a.to_string(), Some(b.to_string())),
        None => (eq.to_string(), None),
    };
    let terms: Vec<&str> = lhs.split(',').collect();
    let mut widths = Vec::new();
    for (i, t) in terms.iter().enumerate() {
        let rank = l.in_info(i)?.rank();
        let explicit = t.replace("...", "").len();
        widths.push(if t.contains("...") { rank.checked_sub(explicit).ok_or("Einsum term has more letters than its operand's rank")? } else { 0 });
    }
    let e = widths.iter().copied().max().unwrap_or(0);
    let letters: Vec<char> = "ABCDEFGHIJKLMNOPQRSTUVWXYZ".chars().collect();
    if e > letters.len() || eq.chars().any(|c| c.is_ascii_uppercase()) {
        return Err("Einsum with '...' and capital letters is not supported".into());
    }
    let fill = |w: usize| -> String { letters[e - w..e].iter().collect() };
    let new_terms: Vec<String> = terms.iter().zip(&widths).map(|(t, w)| t.replace("...", &fill(*w))).collect();
    let out = match rhs {
        Some(r) => r.replace("...", &fill(e)),
        None => {
            let mut once: Vec<char> = lhs.chars().filter(|c| c.is_ascii_lowercase()).filter(|c| lhs.matches(*c).count() == 1).collect();
            once.sort();
            fill(e) + &once.into_iter().collect::<String>()
        }
    };
    Ok(format!("{}->{}", new_terms.join(","), out))
}

/// Einsum with one or two operands and an explicit or implicit output; each
/// letter is a loop; an ellipsis becomes capital letters first.
fn einsum(l: &mut Lower) -> Result<Vec<Value>, String> {
    let eq = l.str_attr("equation").ok_or("Einsum needs an equation")?.replace(' ', "");
    let eq = expand_ellipsis(l, &eq)?;
    let (lhs, rhs) = match eq.split_once("->") {
        Some((a, b)) => (a.to_string(), Some(b.to_string())),
        None => (eq.clone(), None),
    };
    let terms: Vec<&str> = lhs.split(',').collect();
    if terms.len() != l.num_operands() || terms.is_empty() || terms.len() > 2 {
        return Err("Einsum supports one or two operands".into());
    }
    let rhs = rhs.unwrap_or_else(|| {
        // Implicit output: letters that appear once, in alphabetical order.
        let mut letters: Vec<char> = lhs.chars().filter(|c| c.is_alphabetic()).collect();
        letters.sort();
        let once: Vec<char> = letters.iter().copied().filter(|c| lhs.matches(*c).count() == 1).collect();
        let mut o: Vec<char> = once;
        o.dedup();
        o.into_iter().collect()
    });
    let mut letters: Vec<char> = rhs.chars().collect();
    for ch in lhs.chars().filter(|c| c.is_alphabetic()) {
        if !letters.contains(&ch) {
            letters.push(ch);
        }
    }
    let n = letters.len();
    let pos = |ch: char| letters.iter().position(|&x| x == ch).unwrap();
    let out = l.out_info(0)?;
    let sc = out.sc.clone();
    let mut iters = vec![Iterator::Parallel; rhs.len()];
    iters.extend(vec![Iterator::Reduction; n - rhs.len()]);
    let maps: Vec<AffineMap> = terms.iter().map(|t| expr_map(n, t.chars().map(|c| d(pos(c))).collect())).collect();
    for (i, t) in terms.iter().enumerate() {
        if l.in_info(i)?.rank() != t.len() {
            return Err(format!("Einsum term '{}' does not match operand #{}'s rank", t, i));
        }
    }
    let init = l.fill(&out.shape, &sc, 0.0);
    if terms.len() == 2 {
        let (va, vb) = (l.operand(0)?, l.operand(1)?);
        let mut it = maps.into_iter();
        let (am, bm) = (it.next().unwrap(), it.next().unwrap());
        return Ok(vec![contract(l, va, am, vb, bm, init, &iters, 1.0, (None, None))]);
    }
    let va = l.operand(0)?;
    let sa = l.in_info(0)?.sc;
    let mut all = maps;
    all.push(super::dims_map(n, &(0..rhs.len()).collect::<Vec<_>>()));
    let r = l.generic(&[va], &[init], all, &iters, |e, a| {
        let x = e.cast(a[0], &sa, &sc);
        vec![e.add(a[1], x, &sc)]
    });
    Ok(r)
}

/// Matrices Det takes (the elimination is unrolled: about n³ scalar ops each).
const DET_MAX_N: i64 = 16;

/// Det of each [n, n] matrix of the last two dims: Gaussian elimination with
/// partial pivoting, unrolled (a pivot swap is a select), in f64.
fn det(l: &mut Lower) -> Result<Vec<Value>, String> {
    let xi = l.in_info(0)?;
    let out = l.out_info(0)?;
    let r = xi.rank();
    if r < 2 || xi.shape[r - 1] != xi.shape[r - 2] || !xi.sc.is_float() {
        return Err(format!("Det needs float square matrices in the last two dims, got {:?}", xi.shape));
    }
    let n = xi.shape[r - 1] as usize;
    if n as i64 > DET_MAX_N {
        return Err(format!("Det of {}x{} matrices: at most {}x{} are supported", n, n, DET_MAX_N, DET_MAX_N));
    }
    let x = l.operand(0)?;
    let sc = xi.sc.clone();
    let batch = out.shape.len();
    Ok(vec![l.fill_with(&out.shape, &sc.ty.clone(), move |e| {
        let f = Sc { ty: e.ctx.f64(), kind: super::Kind::Float };
        let idx: Vec<Value> = (0..batch).map(|i| e.loop_index(i)).collect();
        let mut a: Vec<Vec<Value>> = (0..n)
            .map(|i| {
                (0..n)
                    .map(|j| {
                        let mut at = idx.clone();
                        at.push(e.index(i as i64));
                        at.push(e.index(j as i64));
                        let v = e.extract(x, &at);
                        e.cast(v, &sc, &f)
                    })
                    .collect()
            })
            .collect();
        let mut det = e.scalar(1.0, &f);
        let zero = e.scalar(0.0, &f);
        for col in 0..n {
            for row in col + 1..n {
                let (p, q) = (e.op(math::ops::ABSF, &[a[col][col]], &f.ty), e.op(math::ops::ABSF, &[a[row][col]], &f.ty));
                let swap = e.cmp(Cmp::Gt, q, p, &f);
                for j in col..n {
                    let (top, bottom) = (a[col][j], a[row][j]);
                    a[col][j] = e.select(swap, bottom, top);
                    a[row][j] = e.select(swap, top, bottom);
                }
                let neg = e.sub(zero, det, &f);
                det = e.select(swap, neg, det);
            }
            let p = a[col][col];
            det = e.mul(det, p, &f);
            // A zero pivot leaves det 0; the rows below are left as they are.
            let singular = e.cmp(Cmp::Eq, p, zero, &f);
            let one = e.scalar(1.0, &f);
            let safe = e.select(singular, one, p);
            for row in col + 1..n {
                let q = e.div(a[row][col], safe, &f);
                for j in col + 1..n {
                    let t = e.mul(q, a[col][j], &f);
                    a[row][j] = e.sub(a[row][j], t, &f);
                }
            }
        }
        e.cast(det, &f, &sc)
    })])
}
