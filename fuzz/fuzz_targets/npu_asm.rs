//! Any text given to the NPU assembler: an error at a line of the text, or a
//! program whose binary reads back, whose disassembly assembles to it, and
//! which runs within a small budget (`npu_sim::robustness`).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(src) = std::str::from_utf8(data) else { return };
    if let Err(e) = npu_sim::robustness::check_asm(src) {
        panic!("{}", e);
    }
});
