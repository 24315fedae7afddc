//! Text features over integer tokens: TfIdfVectorizer. The pool of n-grams is
//! known at compile time, so it becomes constant tables (tokens, lengths,
//! output columns) and the counting one reduction over (n-gram, skip, start).

use onnx::ops;
use super::{d, dims_map, expr_map, Cmp, Kind, Lower, LowerFn, Sc};
use ir::affine::AffineMap;
use ir::attributes::{AttrData, Attribute, DenseData};
use ir::Value;
use tensor::Iterator;

pub const TABLE: &[(&str, LowerFn)] = &[(ops::TfIdfVectorizer::NAME, tfidf)];

/// The n-grams of the pool that count (their size within
/// [min_gram_length, max_gram_length]), each with its output column: the
/// pool holds `ngram_counts[i]..ngram_counts[i+1]` items of size i + 1, and
/// n-grams are numbered in pool order across all sizes.
fn ngrams(pool: &[i64], counts: &[i64], indexes: &[i64], min: i64, max: i64) -> Result<Vec<(Vec<i64>, i64)>, String> {
    let mut out = Vec::new();
    let mut id = 0usize;
    for (i, &start) in counts.iter().enumerate() {
        let size = i as i64 + 1;
        let end = counts.get(i + 1).copied().unwrap_or(pool.len() as i64);
        if start < 0 || end < start || end as usize > pool.len() {
            return Err(format!("TfIdfVectorizer's ngram_counts {:?} do not fit a pool of {}", counts, pool.len()));
        }
        for g in pool[start as usize..end as usize].chunks(size as usize) {
            if g.len() as i64 == size && size >= min && size <= max {
                let col = *indexes.get(id).ok_or_else(|| format!("TfIdfVectorizer has {} ngram_indexes for more n-grams", indexes.len()))?;
                out.push((g.to_vec(), col));
            }
            id += 1;
        }
    }
    Ok(out)
}

fn i64_table(l: &mut Lower, shape: &[i64], vals: &[i64]) -> Value {
    let ty = l.tensor_type(shape, &l.ctx.i64());
    let bytes = vals.iter().flat_map(|v| v.to_le_bytes()).collect();
    l.emit().constant(Attribute::new(AttrData::Dense { ty, data: DenseData::canonical(bytes, 8, vals.len()) }))
}

/// Counts of each pool n-gram in each row — with skips: the items of an
/// n-gram may stand `skip + 1` apart for every skip up to max_skip_count,
/// unigrams counted once — summed per output column, then weighted (TF: the
/// count; IDF: the weight, or 1, where the count is not zero; TFIDF: weight × count).
fn tfidf(l: &mut Lower) -> Result<Vec<Value>, String> {
    let xi = l.in_info(0)?;
    let out = l.out_info(0)?;
    if l.attr("pool_strings").is_some() {
        return Err("TfIdfVectorizer over strings is not supported yet".into());
    }
    let (rows, cols) = match xi.shape.as_slice() {
        [c] => (1, *c),
        [b, c] => (*b, *c),
        _ => return Err(format!("TfIdfVectorizer takes [C] or [B, C] tokens, got {:?}", xi.shape)),
    };
    let (min, max, skip) = (l.int_attr("min_gram_length", 1), l.int_attr("max_gram_length", 1), l.int_attr("max_skip_count", 0));
    let pool = l.ints_attr("pool_int64s").unwrap_or_default();
    let counts = l.ints_attr("ngram_counts").unwrap_or_default();
    let indexes = l.ints_attr("ngram_indexes").unwrap_or_default();
    let grams = ngrams(&pool, &counts, &indexes, min, max)?;
    let width = out.shape.last().copied().unwrap_or(0);
    if grams.is_empty() || min < 1 || max < min || skip < 0 || grams.iter().any(|(_, c)| *c < 0 || *c >= width) {
        return Err(format!("TfIdfVectorizer: n-grams of {}..{} items over a pool of {}, into {} columns, do not fit", min, max, pool.len(), width));
    }
    let mode = l.str_attr("mode").unwrap_or_else(|| "TF".into());
    let weights = l.floats_attr("weights");
    let g = grams.len() as i64;
    let longest = grams.iter().map(|(t, _)| t.len()).max().unwrap_or(1);
    let mut tok = vec![0i64; grams.len() * longest];
    for (k, (t, _)) in grams.iter().enumerate() {
        tok[k * longest..k * longest + t.len()].copy_from_slice(t);
    }
    let tokens = i64_table(l, &[g, longest as i64], &tok);
    let lens = i64_table(l, &[g], &grams.iter().map(|(t, _)| t.len() as i64).collect::<Vec<_>>());
    let columns = i64_table(l, &[g], &grams.iter().map(|(_, c)| *c).collect::<Vec<_>>());
    let x = l.operand(0)?;
    let xsc = xi.sc.clone();
    let f = Sc { ty: l.ctx.f32(), kind: Kind::Float };
    // counts[b, g] over (b, g, skip, start).
    let init = l.fill(&[rows, g], &f, 0.0);
    let iters = [Iterator::Parallel, Iterator::Parallel, Iterator::Reduction, Iterator::Reduction];
    let f1 = f.clone();
    let two_d = xi.shape.len() == 2;
    let counted = l.generic_ranged(&[], &[init], vec![expr_map(4, vec![d(0), d(1)])], &iters, Some(vec![rows, g, skip + 1, cols]), move |e, a| {
        let it = e.ctx.index();
        let isc = Sc { ty: it.clone(), kind: Kind::Signed };
        let i64s = Sc { ty: e.ctx.i64(), kind: Kind::Signed };
        let (b, gi, sk, s) = (e.loop_index(0), e.loop_index(1), e.loop_index(2), e.loop_index(3));
        let n = e.extract(lens, &[gi]);
        let n = e.index_cast(n, &it, false);
        let one = e.index(1);
        let stride = e.op(arith::ops::ADDI, &[sk, one], &it);
        // Unigrams only at the first skip.
        let zero = e.index(0);
        let first = e.cmp(Cmp::Eq, sk, zero, &isc);
        let uni = e.cmp(Cmp::Eq, n, one, &isc);
        let yes = e_true(e);
        let not_uni = e.op(arith::ops::XORI, &[uni, yes], &e.ctx.i1());
        let mut all = e.op(arith::ops::ORI, &[first, not_uni], &e.ctx.i1());
        let cv = e.index(cols);
        for k in 0..longest as i64 {
            let kv = e.index(k);
            let beyond = e.cmp(Cmp::Ge, kv, n, &isc);
            let off = e.op(arith::ops::MULI, &[stride, kv], &it);
            let pos = e.op(arith::ops::ADDI, &[s, off], &it);
            let inside = e.cmp(Cmp::Lt, pos, cv, &isc);
            let pc = e.clamp_index(pos, cols);
            let xv = if two_d { e.extract(x, &[b, pc]) } else { e.extract(x, &[pc]) };
            let xv = e.cast(xv, &xsc, &i64s);
            let t = e.extract(tokens, &[gi, kv]);
            let same = e.cmp(Cmp::Eq, xv, t, &i64s);
            let hit = e.op(arith::ops::ANDI, &[inside, same], &e.ctx.i1());
            let ok = e.op(arith::ops::ORI, &[beyond, hit], &e.ctx.i1());
            all = e.op(arith::ops::ANDI, &[all, ok], &e.ctx.i1());
        }
        let onef = e.scalar(1.0, &f1);
        let zf = e.scalar(0.0, &f1);
        let v = e.select(all, onef, zf);
        vec![e.add(a[0], v, &f1)]
    })[0];
    // Per output column: the counts of its n-grams, then the weighting.
    let init = l.fill(&[rows, width], &f, 0.0);
    let f2 = f.clone();
    let freq = l.generic(&[counted, columns], &[init], vec![dims_map(3, &[0, 2]), dims_map(3, &[2]), dims_map(3, &[0, 1])], &[Iterator::Parallel, Iterator::Parallel, Iterator::Reduction], move |e, a| {
        let i64s = Sc { ty: e.ctx.i64(), kind: Kind::Signed };
        let c = e.loop_index(1);
        let c = e.index_cast(c, &e.ctx.i64(), false);
        let mine = e.cmp(Cmp::Eq, a[1], c, &i64s);
        let zf = e.scalar(0.0, &f2);
        let v = e.select(mine, a[0], zf);
        vec![e.add(a[2], v, &f2)]
    })[0];
    let w = weights.filter(|w| !w.is_empty());
    if let Some(w) = &w {
        if w.len() as i64 != width {
            return Err(format!("TfIdfVectorizer has {} weights for {} columns", w.len(), width));
        }
    }
    let wt = w.map(|w| {
        let ty = l.tensor_type(&[width], &l.ctx.f32());
        let bytes = w.iter().flat_map(|v| (*v as f32).to_le_bytes()).collect();
        l.emit().constant(Attribute::new(AttrData::Dense { ty, data: DenseData::canonical(bytes, 4, width as usize) }))
    });
    let mut ins = vec![freq];
    let mut maps = vec![AffineMap::identity(2)];
    if let Some(t) = wt {
        ins.push(t);
        maps.push(dims_map(2, &[1]));
    }
    let (osc, f3) = (out.sc.clone(), f.clone());
    let y = l.map_op(&[rows, width], &osc.ty.clone(), &ins, maps, move |e, a| {
        let zf = e.scalar(0.0, &f3);
        let onef = e.scalar(1.0, &f3);
        let weight = if a.len() > 1 { a[1] } else { onef };
        let v = match mode.as_str() {
            "IDF" => {
                let some = e.cmp(Cmp::Gt, a[0], zf, &f3);
                e.select(some, weight, zf)
            }
            "TFIDF" => e.mul(weight, a[0], &f3),
            _ => a[0],
        };
        e.cast(v, &f3, &osc)
    });
    Ok(vec![super::shape::reshape(l, y, &out.shape)])
}

fn e_true(e: &mut super::Emit) -> Value {
    let i1 = e.ctx.i1();
    e.int(1, &i1)
}
