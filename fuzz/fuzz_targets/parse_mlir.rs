//! Any text given to the IR parser gives an error inside the text or a module;
//! a module that verifies prints, in both forms, to text that parses and
//! verifies (`driver::robustness`).
#![no_main]
use libfuzzer_sys::fuzz_target;

/// One context for the process: contexts intern for the process's lifetime.
static CTX: std::sync::OnceLock<ir::Context> = std::sync::OnceLock::new();

fuzz_target!(|data: &[u8]| {
    let Ok(src) = std::str::from_utf8(data) else { return };
    let ctx = CTX.get_or_init(|| driver::default_context(false));
    if let Err(e) = driver::robustness::check_opt_input(ctx, None, src) {
        panic!("{}", e);
    }
});
