//! `npu-opt` and `npu-sim` (and so a vendor's `*-opt` built on `driver`) link
//! no LLVM or MLIR: their binaries hold none of MLIR's C API symbols, which
//! `npu-run` (the CPU code generator's user) does hold, so the check can fail.

fn holds(exe: &str, symbol: &str) -> bool {
    let bytes = std::fs::read(exe).unwrap_or_else(|e| panic!("{}: {}", exe, e));
    memchr::memmem::find(&bytes, symbol.as_bytes()).is_some()
}

/// MLIR's translation to LLVM IR, which the CPU code generator calls.
const SYMBOL: &str = "mlirTranslateModuleToLLVMIR";

#[test]
fn npu_opt_and_npu_sim_link_no_llvm() {
    assert!(holds(env!("CARGO_BIN_EXE_npu-run"), SYMBOL), "npu-run should hold {} (the check would prove nothing)", SYMBOL);
    for exe in [env!("CARGO_BIN_EXE_npu-opt"), env!("CARGO_BIN_EXE_npu-sim")] {
        assert!(!holds(exe, SYMBOL), "{} links MLIR's translation to LLVM IR", exe);
    }
}
