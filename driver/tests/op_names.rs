//! Every dialect's name constants (`<dialect>::ops`) are exactly its ops, so
//! a pass that names an op through them names one the dialect defines.

#[test]
fn name_constants_are_the_dialects_ops() {
    let ctx = driver::context();
    let all: &[(&str, &[&str])] = &[
        ("arith", arith::ops::ALL),
        ("func", func::ops::ALL),
        ("llvm", llvm::ops::ALL),
        ("math", math::ops::ALL),
        ("memref", memref::ops::ALL),
        ("npu", npu::ops::ALL),
        ("scf", scf::ops::ALL),
        ("tensor", tensor::ops::ALL),
        ("vector", vector::ops::ALL),
    ];
    let mut errors = Vec::new();
    for (name, names) in all {
        let dialect = ctx.dialect(name).unwrap_or_else(|| panic!("dialect '{}' is not registered", name));
        // The NPU's instruction ops come from the ISA table (`npu::schedule::op_name`), not from constants.
        let named = |op: &str| npu::schedule::lookup(op).is_none();
        if let Err(e) = ir::op_names::check(dialect, names, named) {
            errors.push(e);
        }
    }
    // Every registered dialect but onnx (whose names are generated: `onnx::ops::X::NAME`) is listed above.
    for d in ctx.registered_dialects() {
        if d != "onnx" && d != "builtin" && !all.iter().any(|(n, _)| *n == d) {
            errors.push(format!("dialect '{}' has no name constants", d));
        }
    }
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}
