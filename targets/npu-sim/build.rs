//! Generates the assembly parser from src/asm/grammar.lalrpop into OUT_DIR.
fn main() {
    lalrpop::Configuration::new().use_cargo_dir_conventions().process().unwrap();
    println!("cargo:rerun-if-changed=src/asm/grammar.lalrpop");
}
