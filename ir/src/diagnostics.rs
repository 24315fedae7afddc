//! Diagnostics: severity, location, message and attached notes, rendered as
//! MLIR renders them: `file:line:col: error: message`, then the source line and
//! a caret under the column.

use crate::location::Location;
use std::collections::HashMap;
use std::fmt::Write;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    Error,
    Warning,
    Remark,
    Note,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Remark => "remark",
            Severity::Note => "note",
        }
    }
}

#[derive(Clone, Debug)]
pub struct Diagnostic {
    pub severity: Severity,
    pub loc: Location,
    pub message: String,
    pub notes: Vec<Diagnostic>,
}

impl Diagnostic {
    pub fn new(severity: Severity, loc: Location, message: impl Into<String>) -> Diagnostic {
        Diagnostic { severity, loc, message: message.into(), notes: vec![] }
    }
    pub fn error(loc: Location, message: impl Into<String>) -> Diagnostic {
        Self::new(Severity::Error, loc, message)
    }
    pub fn warning(loc: Location, message: impl Into<String>) -> Diagnostic {
        Self::new(Severity::Warning, loc, message)
    }
    pub fn remark(loc: Location, message: impl Into<String>) -> Diagnostic {
        Self::new(Severity::Remark, loc, message)
    }
    pub fn with_note(mut self, loc: Location, message: impl Into<String>) -> Diagnostic {
        self.notes.push(Diagnostic::new(Severity::Note, loc, message));
        self
    }
    /// This diagnostic and its notes, flattened in order.
    pub fn flatten(&self) -> Vec<&Diagnostic> {
        let mut v = vec![self];
        for n in &self.notes {
            v.extend(n.flatten());
        }
        v
    }
}

/// Source texts by file name, to show the offending line under a diagnostic.
#[derive(Default)]
pub struct SourceMgr {
    files: HashMap<String, String>,
}

impl SourceMgr {
    pub fn new() -> SourceMgr {
        SourceMgr::default()
    }
    pub fn add(&mut self, name: &str, text: &str) {
        self.files.insert(name.to_string(), text.to_string());
    }
    fn line(&self, file: &str, line: u32) -> Option<&str> {
        self.files.get(file)?.lines().nth(line.checked_sub(1)? as usize)
    }

    /// Renders a diagnostic with its notes.
    pub fn render(&self, d: &Diagnostic) -> String {
        let mut out = String::new();
        for x in d.flatten() {
            self.render_one(&mut out, x);
        }
        out
    }

    fn render_one(&self, out: &mut String, d: &Diagnostic) {
        match d.loc.file_line_col() {
            Some((file, line, col)) => {
                let _ = writeln!(out, "{}:{}:{}: {}: {}", file, line, col, d.severity.as_str(), d.message);
                if let Some(src) = self.line(file, line) {
                    let _ = writeln!(out, "{}", src);
                    let pad: String = src.chars().take(col.saturating_sub(1) as usize).map(|c| if c == '\t' { '\t' } else { ' ' }).collect();
                    let _ = writeln!(out, "{}^", pad);
                }
            }
            None => {
                let where_ = if d.loc.is_unknown() { "<unknown>:0".to_string() } else { d.loc.to_string() };
                let _ = writeln!(out, "{}: {}: {}", where_, d.severity.as_str(), d.message);
            }
        }
    }
}
