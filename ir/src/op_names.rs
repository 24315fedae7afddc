//! Op-name constants for the dialects whose ops are not generated from a
//! schema (ONNX's are: `onnx::ops::X::NAME`). Passes build and match ops
//! through them, so a misspelt name fails to compile rather than to match;
//! `check` holds a dialect's list to its op table.

/// Declares one `pub const` per op name and `ALL`, the list of them:
/// `ir::op_names! { ADDF = "arith.addf", ADDI = "arith.addi" }`.
#[macro_export]
macro_rules! op_names {
    ($($id:ident = $name:literal),* $(,)?) => {
        $(#[doc = concat!("`", $name, "`")] pub const $id: &str = $name;)*
        /// Every name above, in order.
        pub const ALL: &[&str] = &[$($id),*];
    };
}

/// Checks that `names` are exactly the ops of `dialect` that `named` says a
/// constant should exist for (every op but those a dialect makes from another
/// table, like the NPU's instructions), each once.
pub fn check(dialect: &crate::dialect::DialectDef, names: &[&str], named: impl Fn(&str) -> bool) -> Result<(), String> {
    let mut errors = Vec::new();
    let in_table: Vec<&str> = dialect.ops.iter().map(|d| d.name).filter(|n| named(n)).collect();
    for n in &in_table {
        if !names.contains(n) {
            errors.push(format!("'{}' has no name constant", n));
        }
    }
    for (i, n) in names.iter().enumerate() {
        if !in_table.contains(n) {
            errors.push(format!("constant '{}' names no op of dialect '{}'", n, dialect.name));
        }
        if names[..i].contains(n) {
            errors.push(format!("'{}' is named twice", n));
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors.join("\n"))
    }
}
