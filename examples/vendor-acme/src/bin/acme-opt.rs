//! `acme-opt`: every flag of `npu-opt`, with ACME's dialect and passes.

fn main() -> std::process::ExitCode {
    acme::register();
    driver::opt_main(driver::OptTool { name: "acme-opt", context: Box::new(acme::context), registry: acme::passes() })
}
