//! `acme-translate`: every `npu-translate` translation, and `--mlir-to-acme`.

fn main() -> std::process::ExitCode {
    tools::translate_main(tools::TranslateTool { name: "acme-translate", context: acme::context, translations: vec![acme::listing::translation()] })
}
