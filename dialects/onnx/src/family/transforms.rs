//! Einsum, BitCast and DFT.

use super::*;

pub(super) const FAMILY: Family = Family::rules(
    "transforms",
    &["BitCast", "DFT", "Einsum"],
    infer,
)
.shape_operands(&[
    ("DFT", &[1, 2]),
]);

#[allow(unused_variables)]
fn infer(ctx: &Context, body: &Body, op: OpId) -> Option<Vec<Type>> {
    rule_locals!(ctx, body, op => const_ints, d, name, ops, ins, attr, in0, t, one, given, ints_operand);
    match name {
        "Einsum" => {
            let eq: String = attr("equation")?.as_str()?.chars().filter(|c| !c.is_whitespace()).collect();
            // Without "->" the output is every letter used once, in alphabetical order.
            let implicit: String;
            let (lhs, rhs) = match eq.split_once("->") {
                Some(p) => p,
                None => {
                    let mut letters: Vec<char> = eq.chars().filter(|c| c.is_ascii_alphabetic()).collect();
                    letters.sort();
                    implicit = letters.iter().filter(|c| letters.iter().filter(|d| d == c).count() == 1).collect();
                    (eq.as_str(), implicit.as_str())
                }
            };
            let terms: Vec<&str> = lhs.split(',').collect();
            if terms.len() != ins.len() {
                return None;
            }
            // Letters name dims; "..." stands for the dims no letter names, broadcast across terms.
            let mut dims: BTreeMap<char, i64> = BTreeMap::new();
            let mut ellipsis: Vec<Option<Vec<i64>>> = vec![];
            for (term, i) in terms.iter().zip(&ins) {
                let s = i.clone()?.shape?;
                let letters: Vec<char> = term.chars().filter(|c| c.is_ascii_alphabetic()).collect();
                let (before, after) = match term.split_once("...") {
                    Some((b, a)) => (b.chars().count(), a.chars().count()),
                    None if letters.len() == s.len() => (letters.len(), 0),
                    None => return None,
                };
                let ell = s.len().checked_sub(before + after)?;
                ellipsis.push(Some(s[before..before + ell].to_vec()));
                let named = s[..before].iter().chain(&s[before + ell..]);
                for (c, dim) in letters.iter().zip(named) {
                    let e = dims.entry(*c).or_insert(*dim);
                    if *e == DYNAMIC || *e == 1 {
                        *e = *dim;
                    }
                }
            }
            let ell = broadcast(&ellipsis)?;
            let mut out = vec![];
            // In implicit mode the broadcast dims come first.
            if !rhs.contains("...") && !eq.contains("->") {
                out.extend(&ell);
            }
            let (rb, ra) = rhs.split_once("...").unwrap_or((rhs, ""));
            for c in rb.chars() {
                out.push(*dims.get(&c)?);
            }
            if rhs.contains("...") {
                out.extend(&ell);
            }
            for c in ra.chars() {
                out.push(*dims.get(&c)?);
            }
            one(t(&in0()?.elem, Some(out)))
        }
        "BitCast" => {
            // Same width: same shape; narrower: a new last dim of the ratio; wider: the last dim absorbed.
            let x = in0()?;
            let to = crate::types::elem_type(ctx, int_attr(attr("to"))? as i32).ok()?;
            let (wi, wo) = (bit_width(&x.elem)?, bit_width(&to)?);
            let mut xs = x.shape?;
            if wi > wo {
                xs.push((wi / wo) as i64);
            } else if wi < wo {
                if xs.last() != Some(&((wo / wi) as i64)) {
                    return None;
                }
                xs.pop();
            }
            one(t(&to, Some(xs)))
        }
        "DFT" => {
            // The last dim becomes (re, im), or 1 for a real inverse of a one-sided spectrum;
            // the signal axis changes only with dft_length or onesided, so only then must it be known.
            let x = in0()?;
            let mut xs = x.shape?;
            let inverse = int_attr(attr("inverse")).unwrap_or(0) != 0;
            let onesided = int_attr(attr("onesided")).unwrap_or(0) != 0;
            let length = match given(1) {
                Some(v) => Some(*const_ints(body, v)?.first()?),
                None => None,
            };
            if length.is_some() || onesided {
                let axis = match given(2) {
                    Some(v) => *const_ints(body, v)?.first()?,
                    None => int_attr(attr("axis")).unwrap_or(if ops.len() > 2 { -2 } else { 1 }),
                };
                let a = norm_axis(axis, xs.len())?;
                if a + 1 == xs.len() {
                    return None;
                }
                let n = xs[a];
                xs[a] = match (length, onesided, inverse) {
                    (Some(l), true, false) => l / 2 + 1,
                    (Some(l), _, _) => l,
                    (None, true, false) if n != DYNAMIC => n / 2 + 1,
                    (None, true, true) if n != DYNAMIC => 2 * (n - 1),
                    _ => DYNAMIC,
                };
            }
            *xs.last_mut()? = if inverse && onesided { 1 } else { 2 };
            one(t(&x.elem, Some(xs)))
        }
        _ => None,
    }
}
