//! Recurrent layers (RNN, GRU, LSTM).

use super::*;

pub(super) const FAMILY: Family = Family::rules("recurrent", &["GRU", "LSTM", "RNN", "ms.DynamicQuantizeLSTM"], infer);

#[allow(unused_variables)]
fn infer(ctx: &Context, body: &Body, op: OpId) -> Option<Vec<Type>> {
    rule_locals!(ctx, body, op => const_ints, d, name, ops, ins, attr, in0, t, one, given, ints_operand);
    match name {
        "RNN" | "GRU" | "LSTM" | "ms.DynamicQuantizeLSTM" => {
            // Y: (seq, dirs, batch, hidden), Y_h / Y_c: (dirs, batch, hidden); layout = 1 puts batch first.
            let xs = in0()?.shape?;
            if xs.len() != 3 {
                return None;
            }
            let hidden = int_attr(attr("hidden_size"))?;
            let dirs = if attr("direction").and_then(|a| a.as_str()) == Some("bidirectional") { 2 } else { 1 };
            let batch_first = int_attr(attr("layout")).unwrap_or(0) != 0;
            let (seq, batch) = if batch_first { (xs[1], xs[0]) } else { (xs[0], xs[1]) };
            let y = if batch_first { vec![batch, seq, dirs, hidden] } else { vec![seq, dirs, batch, hidden] };
            let yh = if batch_first { vec![batch, dirs, hidden] } else { vec![dirs, batch, hidden] };
            let e = in0()?.elem;
            let mut v = vec![t(&e, Some(y))];
            while v.len() < d.results().len() {
                v.push(t(&e, Some(yh.clone())));
            }
            Some(v)
        }
        _ => None,
    }
}
