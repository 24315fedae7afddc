//! ONNX's node tests of the ops ACME claims, through `acme-run --target
//! acme,cpu` against ONNX's expected outputs: the framework's backend test kit
//! (`conformance::testkit`), one named test per case (`cargo test -- acme::test_relu`);
//! and the corner cases of ACME's capability table (`acme::case::...`): each
//! op runs on ACME or falls back with its reason code, matching the CPU path.

use libtest_mimic::{Arguments, Trial};
use conformance::testkit::{claimed_tests, NodeTestRun};

/// Each chosen test must run some op on ACME unless ACME refused it with a reason.
fn ran_on_acme(_test: &str, stdout: &str) -> Result<(), String> {
    let on_acme = stdout.lines().any(|l| l.contains("acme: ") && !l.contains("acme: 0 ops"));
    let refused = stdout.contains("[element-type]") || stdout.contains("[shape]") || stdout.contains("[dynamic-shape]");
    if on_acme || refused {
        Ok(())
    } else {
        Err(format!("nothing ran on ACME and no reason was given:\n{}", stdout))
    }
}

fn main() {
    let args = Arguments::from_args();
    acme::register();
    let tests = claimed_tests(&acme::Acme).unwrap_or_else(|e| panic!("{}", e));
    let mut trials = NodeTestRun::new(env!("CARGO_BIN_EXE_acme-run"), "acme,cpu").trials("acme", &tests, ran_on_acme);
    trials.extend(conformance::testkit::capability_trials(std::path::Path::new(env!("CARGO_BIN_EXE_acme-run")), &acme::Acme, "acme"));
    let n = tests.len();
    trials.push(Trial::test("acme::selection", move || if n >= 10 { Ok(()) } else { Err(format!("only {} node tests chosen", n).into()) }));
    let page = backend::capability::markdown(&acme::Acme);
    trials.push(Trial::test("acme::ops_page", move || {
        if page.contains("| `onnx.MatMul` | static f32 matrices (2-D by 2-D) |") { Ok(()) } else { Err(page.clone().into()) }
    }));
    libtest_mimic::run(&args, trials).exit();
}
