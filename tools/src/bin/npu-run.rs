//! `npu-run`: compile and run an ONNX model on the CPU or over a list of
//! backends, or run ONNX's node tests (`tools::run_main`; a vendor's
//! `acme-run` registers its backend and makes the same call).

fn main() -> std::process::ExitCode {
    tools::run_main("npu-run")
}
