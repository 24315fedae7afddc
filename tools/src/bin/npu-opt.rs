//! `npu-opt`: the project's dialects and passes behind `mlir-opt`'s flags
//! (`tools::opt_main`; a vendor's `acme-opt` is the same call with its own).

fn main() -> std::process::ExitCode {
    tools::opt_main(tools::OptTool::npu_opt())
}
