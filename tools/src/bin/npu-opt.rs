//! `npu-opt`: the project's dialects and passes behind `mlir-opt`'s flags
//! (`driver::opt_main`; a vendor's `acme-opt` is the same call with its own).

fn main() -> std::process::ExitCode {
    driver::opt_main(driver::OptTool::npu_opt())
}
