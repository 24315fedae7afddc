//! `acme-run`: `npu-run` with ACME among the backends (`--target acme,cpu`).

fn main() -> std::process::ExitCode {
    acme::register();
    tools::run_main("acme-run")
}
