//! Any bytes given to the NPU binary reader: refused, or a program whose
//! disassembly assembles to it and which runs within a small budget
//! (`npu_sim::robustness`).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = npu_sim::robustness::check_binary(data) {
        panic!("{}", e);
    }
});
