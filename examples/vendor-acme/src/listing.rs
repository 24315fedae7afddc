//! `acme-translate --mlir-to-acme`: each ACME partition of a converted module
//! (acme ops, as `acme-opt` leaves them) as the program ACME's executor runs,
//! one step a line.

use crate::executor::{Machine, Program};

/// The translation `acme-translate` registers with the framework's `translate_main`.
pub fn translation() -> driver::Translation {
    driver::Translation { flag: "mlir-to-acme", help: "Write the ACME program of each acme partition of the module (after convert-onnx-to-acme)", run: listing }
}

fn listing(_ctx: &ir::Context, body: &ir::Body, module: ir::OpId) -> Result<Vec<u8>, String> {
    let hw = backend::hw::HwDesc::of_module(body, module, crate::NAME, &crate::hw_keys())?;
    let machine = Machine { array: hw.int("array")? as u64, lanes: hw.int("lanes")? as u64, weight_bytes: hw.int("weight_kib")? as u64 * 1024 };
    let parts = backend::partition::partitions_of(body, module, crate::NAME);
    if parts.is_empty() {
        return Err("the module has no acme partition (run npu-partition{targets=acme,cpu} and convert-onnx-to-acme first)".into());
    }
    let mut out = String::new();
    for f in parts {
        let name = body.op(f).str_attr("sym_name").unwrap_or("");
        out.push_str(&format!("program @{} (array {}, lanes {})\n", name, machine.array, machine.lanes));
        out.push_str(&Program::build(body, f, machine)?.listing());
    }
    Ok(out.into_bytes())
}
