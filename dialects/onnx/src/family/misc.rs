//! Generators, string, classical-ML and training ops, Det, RoiAlign, MaxUnpool.

use super::*;

pub(super) const FAMILY: Family = Family::rules(
    "misc",
    &["Bernoulli", "Det", "EyeLike", "MaxUnpool", "RandomNormalLike", "RandomUniformLike", "RegexFullMatch", "RoiAlign", "TfIdfVectorizer", "ml.ArrayFeatureExtractor", "training.Adagrad", "training.Adam", "training.Momentum"],
    infer,
)
.shape_operands(&[
    ("MaxUnpool", &[2]),
]);

#[allow(unused_variables)]
fn infer(ctx: &Context, body: &Body, op: OpId) -> Option<Vec<Type>> {
    rule_locals!(ctx, body, op => const_ints, d, name, ops, ins, attr, in0, t, one, given, ints_operand);
    match name {
        "EyeLike" | "RandomUniformLike" | "RandomNormalLike" | "Bernoulli" => {
            let x = in0()?;
            let elem = match int_attr(attr("dtype")) {
                Some(dt) => crate::types::elem_type(ctx, dt as i32).ok()?,
                None => x.elem,
            };
            one(t(&elem, x.shape))
        }
        "RegexFullMatch" => one(t(&ctx.i1(), in0()?.shape)),
        "Det" => {
            let xs = in0()?.shape?;
            one(t(&in0()?.elem, Some(xs[..xs.len().checked_sub(2)?].to_vec())))
        }
        "RoiAlign" => {
            let (xs, rs) = (in0()?.shape?, ins.get(1)?.clone()?.shape?);
            let (h, w) = (int_attr(attr("output_height")).unwrap_or(1), int_attr(attr("output_width")).unwrap_or(1));
            one(t(&in0()?.elem, Some(vec![*rs.first()?, *xs.get(1)?, h, w])))
        }
        "MaxUnpool" => {
            let xs = in0()?.shape?;
            if let Some(v) = given(2) {
                return one(t(&in0()?.elem, Some(const_ints(body, v)?)));
            }
            let kernel = ints_attr(attr("kernel_shape"))?;
            let sp = kernel.len();
            if xs.len() != sp + 2 {
                return None;
            }
            let strides = ints_attr(attr("strides")).unwrap_or(vec![1; sp]);
            let pads = ints_attr(attr("pads")).unwrap_or(vec![0; 2 * sp]);
            let mut out = xs[..2].to_vec();
            for i in 0..sp {
                out.push(if xs[2 + i] == DYNAMIC { DYNAMIC } else { (xs[2 + i] - 1) * strides[i] + kernel[i] - pads[i] - pads[i + sp] });
            }
            one(t(&in0()?.elem, Some(out)))
        }
        "TfIdfVectorizer" => {
            let xs = in0()?.shape?;
            let m = ints_attr(attr("ngram_indexes"))?.into_iter().max()? + 1;
            let out = match xs.len() {
                1 => vec![m],
                2 => vec![xs[0], m],
                _ => return None,
            };
            one(t(&ctx.f32(), Some(out)))
        }
        "ml.ArrayFeatureExtractor" => {
            // X[..., indices]: the indices flattened along the last axis; a 1-D X gives [1, count].
            let x = in0()?;
            let xs = x.shape?;
            let is = ins.get(1)?.clone()?.shape?;
            let count = if is.contains(&DYNAMIC) { DYNAMIC } else { is.iter().product() };
            let shape = if xs.len() <= 1 { vec![1, count] } else { [&xs[..xs.len() - 1], &[count][..]].concat() };
            one(t(&x.elem, Some(shape)))
        }
        "training.Adagrad" | "training.Adam" | "training.Momentum" => {
            // After R and T, groups of n tensors (X, G, states...); the results are the
            // new X's and then each state's, typed like the inputs they replace.
            let k = if name == "training.Adam" { 4 } else { 3 };
            let n = ops.len().checked_sub(2)? / k;
            let states: &[usize] = if name == "training.Adam" { &[0, 2, 3] } else { &[0, 2] };
            Some(states.iter().flat_map(|s| (0..n).map(move |i| 2 + s * n + i)).map(|i| body.value_type(ops[i]).clone()).collect())
        }
        _ => None,
    }
}
