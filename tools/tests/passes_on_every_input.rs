//! Every core pass, alone and in a pipeline, on every valid lit input: no pass
//! may panic, and the IR it leaves must verify and survive a print/parse round trip.

use ir::pass::{PassManager, PassManagerConfig};

mod common;

#[test]
fn core_passes_keep_every_valid_input_valid() {
    let reg = driver::registry();
    let pipelines = [
        "builtin.module(canonicalize)",
        "builtin.module(cse)",
        "builtin.module(dce)",
        "builtin.module(symbol-dce)",
        "builtin.module(inline)",
        "builtin.module(sccp)",
        "builtin.module(canonicalize{top-down=false})",
        "builtin.module(inline,symbol-dce,sccp,canonicalize,cse,dce)",
    ];
    let ctx = driver::default_context(true);
    let mut runs = 0;
    for (i, src) in common::lit_inputs().iter().enumerate() {
        let Ok(m) = ir::parser::parse_module(&ctx, src, "in.mlir", 1) else { continue };
        if ir::verifier::verify(&ctx, &m.body, m.module).is_err() || m.reproducer_pipeline.is_some() {
            continue;
        }
        for p in pipelines {
            let mut m = ir::parser::parse_module(&ctx, src, "in.mlir", 1).unwrap();
            let mut pm = PassManager::new(ir::pass::parse_pipeline(p, &reg).unwrap(), PassManagerConfig::default());
            // verify-each is on: a pass that breaks the IR fails the run.
            if let Err(e) = pm.run(&ctx, &mut m.body, m.module) {
                panic!("input {} with {}: {:?}\n{}", i, p, e.diagnostics.iter().map(|d| &d.message).collect::<Vec<_>>(), src);
            }
            let text = ir::printer::print_op(&ctx, &m.body, m.module, Default::default());
            let again = ir::parser::parse_module(&ctx, &text, "out.mlir", 1).unwrap_or_else(|d| panic!("input {} with {}: {}\n{}", i, p, d.message, text));
            ir::verifier::verify(&ctx, &again.body, again.module).unwrap_or_else(|e| panic!("input {} with {}: {}", i, p, e[0].message));
            runs += 1;
        }
    }
    assert!(runs >= 200, "only {} runs: the lit inputs were not found", runs);
}
