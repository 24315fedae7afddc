//! `acme-opt`: every flag of `npu-opt`, with ACME's dialect and passes.

fn main() -> std::process::ExitCode {
    acme::register();
    tools::opt_main(tools::OptTool { name: "acme-opt", context: Box::new(acme::context), registry: acme::passes() })
}
