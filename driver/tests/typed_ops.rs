//! Every dialect's typed ops (`<dialect>::ops`) are exactly its ops, with the
//! op table's operand, result and region counts, so a pass that names, reads
//! or builds an op through them does so as the dialect defines it.

#[test]
fn typed_ops_are_the_dialects_ops() {
    let ctx = driver::context();
    let all: &[(&str, &[ir::typed_ops::Signature])] = &[
        ("arith", arith::ops::SIGNATURES),
        ("func", func::ops::SIGNATURES),
        ("llvm", llvm::ops::SIGNATURES),
        ("math", math::ops::SIGNATURES),
        ("memref", memref::ops::SIGNATURES),
        ("npu", npu::ops::SIGNATURES),
        ("scf", scf::ops::SIGNATURES),
        ("tensor", tensor::ops::SIGNATURES),
        ("vector", vector::ops::SIGNATURES),
    ];
    let mut errors = Vec::new();
    for (name, sigs) in all {
        let dialect = ctx.dialect(name).unwrap_or_else(|| panic!("dialect '{}' is not registered", name));
        // The NPU's instruction ops come from the ISA table (`npu::schedule::op_name`), not from constants.
        let named = |op: &str| npu::schedule::lookup(op).is_none();
        if let Err(e) = ir::typed_ops::check(dialect, sigs, named) {
            errors.push(e);
        }
    }
    // onnx's operators are generated from their schemas (`onnx::ops::X`); its two other ops are typed here.
    let onnx = ctx.dialect("onnx").expect("onnx is registered");
    let structural = |op: &str| !op.starts_with("onnx.") || onnx::op_table::OPS.iter().all(|o| format!("onnx.{}", o.name) != op);
    if let Err(e) = ir::typed_ops::check(onnx, onnx::ops::structural::SIGNATURES, structural) {
        errors.push(e);
    }
    // Every registered dialect but onnx is listed above.
    for d in ctx.registered_dialects() {
        if d != "onnx" && d != "builtin" && !all.iter().any(|(n, _)| *n == d) {
            errors.push(format!("dialect '{}' has no typed ops", d));
        }
    }
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

/// A typed op reads a parsed op's operands, results, regions and attributes
/// by name, and its builder makes ops the verifier accepts and the printer
/// writes as upstream MLIR would.
#[test]
fn typed_ops_read_and_build() {
    use ir::{InsertPoint, OpBuilder};
    let ctx = driver::context();
    let src = r#"
func.func @f(%a: f32, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = "scf.for"(%c0, %n, %c1, %a) ({
  ^bb0(%i: index, %acc: f32):
    %s = arith.addf %acc, %a : f32
    "scf.yield"(%s) : (f32) -> ()
  }) : (index, index, index, f32) -> f32
  return %r : f32
}
"#;
    let mut m = ir::parser::parse_module(&ctx, src, "typed.mlir", 1).expect("parses");
    let body = &mut m.body;
    let all = body.walk_preorder(m.module);
    let for_op = all.iter().find_map(|o| scf::ops::For::of(body, *o)).expect("a scf.for");
    let add = all.iter().find_map(|o| arith::ops::AddF::of(body, *o)).expect("an arith.addf");
    let func = all.iter().find_map(|o| func::ops::Func::of(body, *o)).expect("a func.func");
    assert!(scf::ops::For::of(body, add.op()).is_none(), "an addf is no scf.for");
    assert_eq!(func.sym_name(body), Some("f"));
    let args = body.block_args(body.region_blocks(func.body(body))[0]).to_vec();
    let iter_args = body.block_args(body.region_blocks(for_op.region(body))[0]).to_vec();
    assert_eq!(for_op.upper_bound(body), args[1]);
    assert_eq!(for_op.init_args(body), &args[..1]);
    assert_eq!(for_op.results(body).len(), 1);
    assert_eq!((add.lhs(body), add.rhs(body)), (iter_args[1], args[0]));
    let c1 = arith::ops::Constant::of(body, body.defining_op(for_op.step(body)).unwrap()).unwrap();
    assert_eq!(c1.value(body).and_then(|v| v.as_int()), Some(1));

    // r2 = r * a, built after the loop and returned instead of r.
    let r = for_op.results(body)[0];
    let loc = body.op(for_op.op()).loc.clone();
    let mut b = OpBuilder::new(&ctx, body, InsertPoint::After(for_op.op()), loc);
    let mul = arith::ops::MulF::build(&mut b, r, args[0], &[ctx.f32()], &[]);
    let ret = all.iter().find_map(|o| func::ops::Return::of(body, *o)).unwrap();
    body.set_operands(ret.op(), &[mul.result(body)]);
    ir::verifier::verify(&ctx, body, m.module).unwrap_or_else(|d| panic!("built IR does not verify: {:?}", d));
    let text = ir::printer::print_op(&ctx, body, m.module, Default::default());
    let mul_line = text.lines().find(|l| l.contains("arith.mulf")).unwrap_or_else(|| panic!("no mulf:\n{}", text));
    let product = mul_line.trim().split(' ').next().unwrap();
    assert!(mul_line.ends_with(", %arg0 : f32"), "{}", mul_line);
    assert!(text.contains(&format!("return {} : f32", product)), "the return reads the product {}:\n{}", product, text);
}

/// The CPU lowering of an onnx op is found by the op: the conversion's one
/// table is keyed by operator names of the `onnx` dialect (`ops::X::NAME`),
/// each once.
#[test]
fn cpu_lowerings_are_found_by_op() {
    let ctx = driver::context();
    let dialect = ctx.dialect("onnx").expect("onnx is registered");
    let table = onnx_to_tensor::table();
    let mut errors = Vec::new();
    for (i, (name, _)) in table.iter().enumerate() {
        if !dialect.ops.iter().any(|d| d.name == *name) {
            errors.push(format!("lowering of '{}', which is no onnx op", name));
        }
        if table[..i].iter().any(|(n, _)| n == name) {
            errors.push(format!("'{}' has two lowerings", name));
        }
    }
    assert!(errors.is_empty(), "{}", errors.join("\n"));
    assert!(table.len() > 150, "the table lowers {} ops", table.len());
}
