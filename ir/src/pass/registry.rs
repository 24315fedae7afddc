//! The pass registry: name, summary, options and constructor of every pass,
//! for pipelines, per-pass flags and `npu-opt --help`.

use super::options::{OptionSpec, PassOptions};
use super::Pass;

pub struct PassInfo {
    pub argument: &'static str,
    pub summary: &'static str,
    pub options: Vec<OptionSpec>,
    pub create: fn(&PassOptions) -> Result<Box<dyn Pass>, String>,
}

#[derive(Default)]
pub struct PassRegistry {
    passes: Vec<PassInfo>,
}

impl PassRegistry {
    pub fn new() -> PassRegistry {
        PassRegistry::default()
    }
    pub fn register(&mut self, info: PassInfo) {
        self.passes.retain(|p| p.argument != info.argument);
        self.passes.push(info);
        self.passes.sort_by_key(|p| p.argument);
    }
    pub fn get(&self, argument: &str) -> Option<&PassInfo> {
        self.passes.iter().find(|p| p.argument == argument)
    }
    pub fn iter(&self) -> impl Iterator<Item = &PassInfo> {
        self.passes.iter()
    }
    /// Instantiates `argument` with options written as (name, value) pairs.
    pub fn create(&self, argument: &str, written: &[(String, String)]) -> Result<Box<dyn Pass>, String> {
        self.create_with_text(argument, written).map(|x| x.0)
    }

    /// Like `create`, also returning the options as they print in a pipeline (`{a=1}`).
    pub fn create_with_text(&self, argument: &str, written: &[(String, String)]) -> Result<(Box<dyn Pass>, String), String> {
        let info = self.get(argument).ok_or_else(|| format!("'{}' does not refer to a registered pass", argument))?;
        let opts = PassOptions::new(&info.options, written)?;
        Ok(((info.create)(&opts)?, opts.text()))
    }
    /// `--help` text: every pass with its summary and options.
    pub fn help(&self) -> String {
        let mut s = String::new();
        for p in &self.passes {
            s.push_str(&format!("  --{:<28} {}\n", p.argument, p.summary));
            for o in &p.options {
                let flag = format!("{}=<{}>", o.name, format!("{:?}", o.kind).to_lowercase());
                s.push_str(&format!("      {:<30} {} (default: {})\n", flag, o.description, if o.default.is_empty() { "none" } else { o.default }));
            }
        }
        s
    }
}
