//! `npu-translate`: between external formats and IR (`tools::translate_main`;
//! a vendor's `acme-translate` is the same call with its own translations).

fn main() -> std::process::ExitCode {
    tools::translate_main(tools::TranslateTool::npu_translate())
}
