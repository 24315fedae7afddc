//! Any text through `npu-opt`'s pipelines (canonicalize, cse, inline, sccp,
//! ONNX shape inference and a chain of them): no pass crashes, and what a
//! pipeline leaves verifies and prints back (`driver::robustness`).
#![no_main]
use libfuzzer_sys::fuzz_target;

static CTX: std::sync::OnceLock<ir::Context> = std::sync::OnceLock::new();
static REG: std::sync::OnceLock<ir::pass::PassRegistry> = std::sync::OnceLock::new();

fuzz_target!(|data: &[u8]| {
    let Ok(src) = std::str::from_utf8(data) else { return };
    let ctx = CTX.get_or_init(|| driver::default_context(false));
    let reg = REG.get_or_init(driver::registry);
    if let Err(e) = driver::robustness::check_opt_input(ctx, Some(reg), src) {
        panic!("{}", e);
    }
});
