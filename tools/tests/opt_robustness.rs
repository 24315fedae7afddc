//! Mutated lit inputs through the parser, the verifier and `npu-opt`'s
//! pipelines (`driver::robustness`): no panic, no pass crash, no IR that
//! fails to verify after a pass or does not print back, no parse error
//! outside the text, and no input that takes seconds. The cargo fuzz target
//! `opt_pipelines` explores the same checks without end.

mod common;
use common::Rng;
use std::time::{Duration, Instant};

#[test]
fn mutated_mlir_never_breaks_the_parser_verifier_or_pipelines() {
    let inputs: Vec<String> = common::lit_inputs().into_iter().filter(|s| s.len() < 6000).collect();
    assert!(inputs.len() > 300, "only {} lit inputs", inputs.len());
    let ctx = driver::default_context(false);
    let reg = driver::registry();
    let mut r = Rng(0x5eed_0f_0b7);
    let (mut valid, mut pipelines_ok, mut refused) = (0, 0, 0);
    let cases = 20000;
    for case in 0..cases {
        let src = &inputs[r.below(inputs.len())];
        let other = &inputs[r.below(inputs.len())];
        let mut m = src.clone();
        for _ in 0..1 + r.below(3) {
            m = common::mutate_text(&mut r, &m, other);
        }
        let t0 = Instant::now();
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| driver::robustness::check_opt_input(&ctx, Some(&reg), &m)));
        match outcome {
            Ok(Ok(o)) if o.valid => {
                valid += 1;
                pipelines_ok += o.pipelines_ok;
            }
            Ok(Ok(_)) => refused += 1,
            Ok(Err(e)) => panic!("case {}: {}\n--- input ---\n{}", case, e, m),
            Err(_) => panic!("case {} panicked\n--- input ---\n{}", case, m),
        }
        assert!(t0.elapsed() < Duration::from_secs(10), "case {} took {:?}\n--- input ---\n{}", case, t0.elapsed(), m);
    }
    eprintln!("{} mutated inputs: {} valid ({} pipeline runs finished), {} refused", cases, valid, pipelines_ok, refused);
    assert!(valid > 150 && refused > 300, "{} valid, {} refused: the mutations are not exercising both paths", valid, refused);
}
