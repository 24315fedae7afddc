//! A backend's capability table as a page of its docs, as Arm's Vela lists
//! its SUPPORTED_OPS: one row per op with its constraints, generated from the
//! table the partitioner asks, so the page cannot drift from the code.

use crate::Backend;

/// The markdown page of `b`'s capabilities (ops sorted by name).
pub fn markdown(b: &dyn Backend) -> String {
    let mut rows = b.capabilities();
    rows.sort_by_key(|r| r.op);
    let mut out = format!(
        "# Ops the `{}` backend runs\n\nGenerated from the backend's capability table (`Backend::capabilities`); every other op, and every op outside its constraints, runs on the next backend of the list (the CPU last) with the reason in the placement report.\n\n| op | constraints |\n|---|---|\n",
        b.name()
    );
    for r in rows {
        out.push_str(&format!("| `{}` | {} |\n", r.op, r.constraints.replace('|', "\\|")));
    }
    let keys = b.hw_keys();
    if !keys.is_empty() {
        out.push_str(&format!("\n## Hardware description\n\nSet with `--set {}.KEY=VALUE`; carried on the module as `{}`.\n\n| key | default | range | what |\n|---|---|---|---|\n", b.name(), crate::hw::attr_name(b.name())));
        for k in keys {
            let range = k.range.map(|(lo, hi)| format!("{} to {}", lo, hi)).unwrap_or_default();
            out.push_str(&format!("| `{}` | {} | {} | {} |\n", k.name, k.default, range, k.doc));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Capability, Unsupported};

    struct Two;
    impl Backend for Two {
        fn name(&self) -> &str {
            "two"
        }
        fn supports(&self, _: &ir::Body, _: ir::OpId) -> Result<(), Unsupported> {
            Ok(())
        }
        fn capabilities(&self) -> Vec<Capability> {
            vec![Capability { op: "onnx.Relu", constraints: "f32" }, Capability { op: "onnx.Add", constraints: "a | b" }]
        }
    }

    #[test]
    fn rows_sorted_and_escaped() {
        let m = markdown(&Two);
        let add = m.find("| `onnx.Add` | a \\| b |").expect(&m);
        let relu = m.find("| `onnx.Relu` | f32 |").expect(&m);
        assert!(add < relu, "{}", m);
    }
}
