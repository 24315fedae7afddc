//! Typed pass options: declared with defaults in the registry, written as
//! `{name=value other=value}` in a pipeline or `--pass=name=value` on the
//! command line.

use std::collections::BTreeMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionKind {
    Int,
    Bool,
    String,
    /// A comma-separated list of strings.
    List,
}

#[derive(Clone, Debug)]
pub struct OptionSpec {
    pub name: &'static str,
    pub kind: OptionKind,
    pub default: &'static str,
    pub description: &'static str,
}

impl OptionSpec {
    /// An option as a pass's registration declares it.
    pub const fn new(name: &'static str, kind: OptionKind, default: &'static str, description: &'static str) -> Self {
        OptionSpec { name, kind, default, description }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum OptionValue {
    Int(i64),
    Bool(bool),
    String(String),
    List(Vec<String>),
}

impl OptionValue {
    pub fn parse(kind: OptionKind, text: &str) -> Result<OptionValue, String> {
        match kind {
            OptionKind::Int => text.parse().map(OptionValue::Int).map_err(|_| format!("expected an integer, got '{}'", text)),
            OptionKind::Bool => match text {
                "true" | "1" | "" => Ok(OptionValue::Bool(true)),
                "false" | "0" => Ok(OptionValue::Bool(false)),
                _ => Err(format!("expected true or false, got '{}'", text)),
            },
            OptionKind::String => Ok(OptionValue::String(text.to_string())),
            OptionKind::List => Ok(OptionValue::List(if text.is_empty() { vec![] } else { text.split(',').map(|s| s.to_string()).collect() })),
        }
    }
}

/// The options of one pass instance: every declared option has a value
/// (explicit or default); `explicit` keeps what was written, in order.
#[derive(Clone, Debug, Default)]
pub struct PassOptions {
    values: BTreeMap<&'static str, OptionValue>,
    explicit: Vec<(String, String)>,
}

impl PassOptions {
    /// Defaults overridden by `written` (name, value text) pairs.
    pub fn new(specs: &[OptionSpec], written: &[(String, String)]) -> Result<PassOptions, String> {
        let mut values = BTreeMap::new();
        for s in specs {
            values.insert(s.name, OptionValue::parse(s.kind, s.default).map_err(|e| format!("bad default of '{}': {}", s.name, e))?);
        }
        for (k, v) in written {
            let Some(s) = specs.iter().find(|s| s.name == k) else {
                let known: Vec<_> = specs.iter().map(|s| s.name).collect();
                return Err(format!(
                    "no such option '{}'{}",
                    k,
                    if known.is_empty() { String::new() } else { format!(" (options: {})", known.join(", ")) }
                ));
            };
            values.insert(s.name, OptionValue::parse(s.kind, v).map_err(|e| format!("option '{}': {}", k, e))?);
        }
        Ok(PassOptions { values, explicit: written.to_vec() })
    }
    pub fn int(&self, name: &str) -> i64 {
        match self.values.get(name) {
            Some(OptionValue::Int(i)) => *i,
            _ => 0,
        }
    }
    pub fn bool(&self, name: &str) -> bool {
        matches!(self.values.get(name), Some(OptionValue::Bool(true)))
    }
    pub fn string(&self, name: &str) -> String {
        match self.values.get(name) {
            Some(OptionValue::String(s)) => s.clone(),
            _ => String::new(),
        }
    }
    pub fn list(&self, name: &str) -> Vec<String> {
        match self.values.get(name) {
            Some(OptionValue::List(v)) => v.clone(),
            _ => vec![],
        }
    }
    /// `{a=1 b=2}` as written (empty when nothing was written).
    pub fn text(&self) -> String {
        if self.explicit.is_empty() {
            return String::new();
        }
        let parts: Vec<String> = self.explicit.iter().map(|(k, v)| if v.contains(' ') { format!("{}=\"{}\"", k, v) } else { format!("{}={}", k, v) }).collect();
        format!("{{{}}}", parts.join(" "))
    }
}
