//! `npu-quantize`: post-training int8 quantization of an ONNX model
//! (`tools::quantize_main`).

fn main() -> std::process::ExitCode {
    tools::quantize_main("npu-quantize")
}
