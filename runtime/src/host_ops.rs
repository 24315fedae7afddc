//! The ops whose output sizes depend on their input values (NonZero, Unique,
//! NonMaxSuppression), evaluated on the host between the stages of a model
//! (`crate::staged`): the compiled code needs every shape before it runs, and
//! these ops only know theirs once their inputs are computed.

use crate::tensor::{dtype_size, HostTensor};
use onnx_translate::proto::{data_type as dt, NodeProto};
use std::cmp::Ordering;

/// The ONNX op types evaluated here.
pub const OPS: &[&str] = &["NonZero", "Unique", "NonMaxSuppression"];

/// The node's results from its input values (`None` for an absent optional input).
pub fn eval(node: &NodeProto, inputs: &[Option<HostTensor>]) -> Result<Vec<HostTensor>, String> {
    let op = node.op_type.as_deref().unwrap_or("");
    let input = |i: usize| inputs.get(i).and_then(|t| t.as_ref());
    let required = |i: usize| input(i).ok_or_else(|| format!("input {} is required", i));
    let r = match op {
        "NonZero" => non_zero(required(0)?).map(|t| vec![t]),
        "Unique" => unique(required(0)?, int_attr(node, "axis"), int_attr(node, "sorted").unwrap_or(1) != 0),
        "NonMaxSuppression" => non_max_suppression(required(0)?, required(1)?, input(2), input(3), input(4), int_attr(node, "center_point_box").unwrap_or(0) != 0),
        _ => Err(format!("{} is not evaluated on the host", op)),
    };
    r.map_err(|e| format!("{} '{}': {}", op, node.name.as_deref().unwrap_or(""), e))
}

fn int_attr(node: &NodeProto, name: &str) -> Option<i64> {
    node.attribute.iter().find(|a| a.name.as_deref() == Some(name)).and_then(|a| a.i)
}

fn i64_tensor(shape: &[i64], values: &[i64]) -> Result<HostTensor, String> {
    let mut t = HostTensor::zeros(dt::INT64, shape)?;
    for (chunk, v) in t.data.as_mut().chunks_exact_mut(8).zip(values) {
        chunk.copy_from_slice(&v.to_le_bytes());
    }
    Ok(t)
}

/// One number of a scalar (or one-element) input.
fn scalar(t: &HostTensor, what: &str) -> Result<f64, String> {
    let v = t.to_f64()?;
    match v.as_slice() {
        [x] => Ok(*x),
        _ => Err(format!("{} must hold one value, not {}", what, v.len())),
    }
}

/// The positions of the non-zero elements, one row per axis (NaN counts as non-zero).
fn non_zero(x: &HostTensor) -> Result<HostTensor, String> {
    let v = x.to_f64()?;
    let hits: Vec<usize> = v.iter().enumerate().filter(|(_, x)| **x != 0.0).map(|(i, _)| i).collect();
    // A scalar counts as a 1-D tensor of one element (as ONNX Runtime answers).
    let shape = if x.shape.is_empty() { vec![1] } else { x.shape.clone() };
    let rank = shape.len();
    let mut out = vec![0i64; rank * hits.len()];
    for (k, &flat) in hits.iter().enumerate() {
        let mut rest = flat as i64;
        for d in (0..rank).rev() {
            out[d * hits.len() + k] = rest % shape[d];
            rest /= shape[d];
        }
    }
    i64_tensor(&[rank as i64, hits.len() as i64], &out)
}

/// Orders two values as numpy's sort does (NaN last, all NaNs equal).
fn cmp_value(a: f64, b: f64) -> Ordering {
    a.partial_cmp(&b).unwrap_or_else(|| a.is_nan().cmp(&b.is_nan()))
}

/// The distinct elements (or slices along `axis`), sorted or in order of
/// first occurrence, with the first index of each, each input unit's
/// position among them, and how often each occurs.
fn unique(x: &HostTensor, axis: Option<i64>, sorted: bool) -> Result<Vec<HostTensor>, String> {
    let rank = x.shape.len() as i64;
    let axis = match axis {
        None => None,
        Some(a) if (-rank..rank).contains(&a) => Some(if a < 0 { a + rank } else { a } as usize),
        Some(a) => return Err(format!("axis {} is out of range for rank {}", a, rank)),
    };
    let w = dtype_size(x.dtype).ok_or("an element type the runtime cannot read")?;
    let (outer, dim, inner) = match axis {
        None => (1usize, x.numel(), 1usize),
        Some(a) => (x.shape[..a].iter().product::<i64>() as usize, x.shape[a] as usize, x.shape[a + 1..].iter().product::<i64>() as usize),
    };
    // Integers compare exactly (int64 beyond 2^53 too), floats as numpy sorts them.
    let keys: Vec<(i128, f64)> = match x.to_i128() {
        Some(ints) => ints.into_iter().map(|v| (v, 0.0)).collect(),
        None => x.to_f64()?.into_iter().map(|v| (0, v)).collect(),
    };
    // Unit j: the elements of slice j along the axis, outer-major.
    let unit = |j: usize| -> Vec<(i128, f64)> { (0..outer).flat_map(|o| (0..inner).map(move |i| (o * dim + j) * inner + i)).map(|k| keys[k]).collect() };
    let units: Vec<Vec<(i128, f64)>> = (0..dim).map(unit).collect();
    let cmp_units = |a: &Vec<(i128, f64)>, b: &Vec<(i128, f64)>| a.iter().zip(b).map(|(x, y)| x.0.cmp(&y.0).then(cmp_value(x.1, y.1))).find(|o| *o != Ordering::Equal).unwrap_or(Ordering::Equal);
    // Sorted once (stably, so each run of equal units starts at its first occurrence).
    let mut by_value: Vec<usize> = (0..dim).collect();
    by_value.sort_by(|a, b| cmp_units(&units[*a], &units[*b]));
    let mut firsts: Vec<usize> = vec![];
    let mut group_of = vec![0usize; dim];
    for (k, &j) in by_value.iter().enumerate() {
        if k == 0 || cmp_units(&units[by_value[k - 1]], &units[j]) != Ordering::Equal {
            firsts.push(j);
        }
        group_of[j] = firsts.len() - 1;
    }
    // Groups are in value order; unsorted output lists them by first occurrence.
    let mut order: Vec<usize> = (0..firsts.len()).collect();
    if !sorted {
        order.sort_by_key(|&g| firsts[g]);
    }
    let inverse = group_of;
    let mut rank_of = vec![0usize; firsts.len()];
    for (r, &k) in order.iter().enumerate() {
        rank_of[k] = r;
    }
    let n = order.len();
    let mut y_shape = x.shape.clone();
    match axis {
        None => y_shape = vec![n as i64],
        Some(a) => y_shape[a] = n as i64,
    }
    let mut y = HostTensor::zeros(x.dtype, &y_shape)?;
    let src = x.data.as_ref();
    let dst = y.data.as_mut();
    for (r, &k) in order.iter().enumerate() {
        let j = firsts[k];
        for o in 0..outer {
            let from = (o * dim + j) * inner * w;
            let to = (o * n + r) * inner * w;
            dst[to..to + inner * w].copy_from_slice(&src[from..from + inner * w]);
        }
    }
    let indices: Vec<i64> = order.iter().map(|&k| firsts[k] as i64).collect();
    let inverse: Vec<i64> = inverse.iter().map(|&k| rank_of[k] as i64).collect();
    let mut counts = vec![0i64; n];
    for &i in &inverse {
        counts[i as usize] += 1;
    }
    Ok(vec![y, i64_tensor(&[n as i64], &indices)?, i64_tensor(&[dim as i64], &inverse)?, i64_tensor(&[n as i64], &counts)?])
}

/// Greedy non-maximum suppression per batch and class, as ONNX Runtime:
/// candidates above the score threshold in falling score order (the lower
/// box index first among equal scores), each kept unless its IoU with a box
/// already kept exceeds the threshold, at most `max_output_boxes_per_class`.
fn non_max_suppression(boxes: &HostTensor, scores: &HostTensor, max_out: Option<&HostTensor>, iou: Option<&HostTensor>, score_th: Option<&HostTensor>, center: bool) -> Result<Vec<HostTensor>, String> {
    let (bs, ss) = (&boxes.shape, &scores.shape);
    if bs.len() != 3 || bs[2] != 4 {
        return Err(format!("boxes must be [batches, boxes, 4], not {:?}", bs));
    }
    if ss.len() != 3 || ss[0] != bs[0] || ss[2] != bs[1] {
        return Err(format!("scores must be [batches, classes, boxes] = [{}, C, {}], not {:?}", bs[0], bs[1], ss));
    }
    let max_out = match max_out {
        Some(t) => scalar(t, "max_output_boxes_per_class")?.max(0.0) as usize,
        None => 0,
    };
    let iou_th = iou.map(|t| scalar(t, "iou_threshold")).transpose()?.unwrap_or(0.0) as f32;
    if !(0.0..=1.0).contains(&iou_th) {
        return Err(format!("iou_threshold must be in [0, 1], not {}", iou_th));
    }
    let score_th = score_th.map(|t| scalar(t, "score_threshold")).transpose()?.map(|v| v as f32);
    let (nb, nc, n) = (bs[0] as usize, ss[1] as usize, bs[1] as usize);
    let b: Vec<f32> = boxes.to_f64()?.into_iter().map(|v| v as f32).collect();
    let s: Vec<f32> = scores.to_f64()?.into_iter().map(|v| v as f32).collect();
    // Corners (y1, x1, y2, x2) with y1 <= y2, x1 <= x2.
    let corners = |batch: usize, i: usize| -> [f32; 4] {
        let c = &b[(batch * n + i) * 4..(batch * n + i) * 4 + 4];
        if center {
            let (xc, yc, w, h) = (c[0], c[1], c[2], c[3]);
            [yc - h / 2.0, xc - w / 2.0, yc + h / 2.0, xc + w / 2.0]
        } else {
            [c[0].min(c[2]), c[1].min(c[3]), c[0].max(c[2]), c[1].max(c[3])]
        }
    };
    let suppresses = |p: [f32; 4], q: [f32; 4]| -> bool {
        let (ih, iw) = (p[2].min(q[2]) - p[0].max(q[0]), p[3].min(q[3]) - p[1].max(q[1]));
        if ih <= 0.0 || iw <= 0.0 {
            return false;
        }
        let inter = ih * iw;
        let (ap, aq) = ((p[2] - p[0]) * (p[3] - p[1]), (q[2] - q[0]) * (q[3] - q[1]));
        let union = ap + aq - inter;
        if ap <= 0.0 || aq <= 0.0 || union <= 0.0 {
            return false;
        }
        inter / union > iou_th
    };
    let mut rows: Vec<i64> = vec![];
    for batch in 0..nb {
        for class in 0..nc {
            let sc = &s[(batch * nc + class) * n..(batch * nc + class + 1) * n];
            let mut cand: Vec<usize> = (0..n).filter(|&i| score_th.is_none_or(|t| sc[i] > t)).collect();
            // Falling scores, NaN last (a total order), the lower index first among equals.
            cand.sort_by(|&x, &y| match (sc[x].is_nan(), sc[y].is_nan()) {
                (false, false) => sc[y].partial_cmp(&sc[x]).unwrap_or(Ordering::Equal).then(x.cmp(&y)),
                (a, b) => a.cmp(&b).then(x.cmp(&y)),
            });
            let mut kept: Vec<usize> = vec![];
            for i in cand {
                if kept.len() >= max_out {
                    break;
                }
                let ci = corners(batch, i);
                if kept.iter().all(|&k| !suppresses(corners(batch, k), ci)) {
                    kept.push(i);
                }
            }
            for k in kept {
                rows.extend([batch as i64, class as i64, k as i64]);
            }
        }
    }
    Ok(vec![i64_tensor(&[(rows.len() / 3) as i64, 3], &rows)?])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f32s(shape: &[i64], v: &[f32]) -> HostTensor {
        let mut t = HostTensor::zeros(dt::FLOAT, shape).unwrap();
        for (c, x) in t.data.as_mut().chunks_exact_mut(4).zip(v) {
            c.copy_from_slice(&x.to_le_bytes());
        }
        t
    }
    fn ints(t: &HostTensor) -> Vec<i128> {
        t.to_i128().unwrap()
    }

    #[test]
    fn non_zero_of_a_scalar_is_one_row() {
        let r = non_zero(&f32s(&[], &[3.0])).unwrap();
        assert_eq!((r.shape.clone(), ints(&r)), (vec![1, 1], vec![0]));
    }

    #[test]
    fn unique_keeps_int64_beyond_2_to_the_53_apart() {
        let big = 1i64 << 53;
        let x = i64_tensor(&[3], &[big, big + 1, big]).unwrap();
        let r = unique(&x, None, true).unwrap();
        assert_eq!(ints(&r[0]), vec![big as i128, big as i128 + 1]);
        assert_eq!(ints(&r[3]), vec![2, 1]);
    }

    #[test]
    fn unique_unsorted_lists_first_occurrences_in_order() {
        let r = unique(&f32s(&[6], &[2.0, 1.0, 2.0, 3.0, 1.0, -0.0]), None, false).unwrap();
        assert_eq!(r[0].to_f64().unwrap(), vec![2.0, 1.0, 3.0, 0.0]);
        assert_eq!(ints(&r[1]), vec![0, 1, 3, 5]);
        assert_eq!(ints(&r[2]), vec![0, 1, 0, 2, 1, 3]);
        assert_eq!(ints(&r[3]), vec![2, 2, 1, 1]);
    }

    #[test]
    fn nms_ranks_nan_scores_last_and_checks_the_iou_threshold() {
        let boxes = f32s(&[1, 3, 4], &[0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0, 1.0, 5.0, 5.0, 6.0, 6.0]);
        let scores = f32s(&[1, 1, 3], &[f32::NAN, 1.0, 2.0]);
        let max = i64_tensor(&[1], &[3]).unwrap();
        let iou = f32s(&[1], &[0.5]);
        let r = non_max_suppression(&boxes, &scores, Some(&max), Some(&iou), None, false).unwrap();
        // Box 2 (score 2), then box 1 (score 1); box 0 (NaN) comes last and box 1 suppresses it.
        assert_eq!(ints(&r[0]), vec![0, 0, 2, 0, 0, 1]);
        let bad = f32s(&[1], &[-0.5]);
        assert!(non_max_suppression(&boxes, &scores, Some(&max), Some(&bad), None, false).unwrap_err().contains("iou_threshold must be in [0, 1]"));
    }
}
