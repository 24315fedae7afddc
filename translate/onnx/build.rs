//! Generates the `.onnxtext` parser from src/text/grammar.lalrpop into OUT_DIR.
fn main() {
    lalrpop::Configuration::new().use_cargo_dir_conventions().process().unwrap();
    println!("cargo:rerun-if-changed=src/text/grammar.lalrpop");
}
