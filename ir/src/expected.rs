//! `--verify-diagnostics`: matches emitted diagnostics against
//! `// expected-error {{...}}` comments (also `warning`, `remark`, `note`;
//! `@+N`, `@-N`, `@above`, `@below`, `@unknown`; `-re` with `{{regex}}` parts).
//! Reports both unexpected diagnostics and expected ones never produced.

use crate::diagnostics::{Diagnostic, Severity};
use crate::location::Location;
use regex::Regex;
use std::sync::Arc;

enum Pattern {
    Substring(String),
    Regex(Regex),
}

struct Expected {
    severity: Severity,
    /// Line the diagnostic must be on; `None` for `@unknown`.
    line: Option<u32>,
    pattern: Pattern,
    text: String,
    comment_loc: Location,
    matched: bool,
}

pub struct ExpectedDiagnostics {
    file: Arc<str>,
    list: Vec<Expected>,
}

fn severity_of(s: &str) -> Severity {
    match s {
        "error" => Severity::Error,
        "warning" => Severity::Warning,
        "remark" => Severity::Remark,
        _ => Severity::Note,
    }
}

/// Turns `text {{re}} text` into one regex: literal parts escaped.
fn build_regex(text: &str) -> Result<Regex, String> {
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find("{{") {
        out.push_str(&regex::escape(&rest[..i]));
        let after = &rest[i + 2..];
        let Some(j) = after.find("}}") else { return Err("unterminated '{{' in expected-*-re pattern".into()) };
        out.push('(');
        out.push_str(&after[..j]);
        out.push(')');
        rest = &after[j + 2..];
    }
    out.push_str(&regex::escape(rest));
    Regex::new(&out).map_err(|e| format!("invalid regex in expected-*-re: {}", e))
}

impl ExpectedDiagnostics {
    /// Reads the expectations of one buffer (or split chunk starting at `first_line`).
    pub fn parse(src: &str, file: &str, first_line: u32) -> Result<ExpectedDiagnostics, Vec<Diagnostic>> {
        let re = Regex::new(r"expected-(error|warning|remark|note)(-re)? *(@([+-][0-9]+|above|below|unknown))? *\{\{(.*)\}\}").unwrap();
        let file: Arc<str> = Arc::from(file);
        let lines: Vec<&str> = src.lines().collect();
        let is_designator = |l: &str| re.is_match(l);
        let mut list = vec![];
        let mut errors = vec![];
        for (i, l) in lines.iter().enumerate() {
            for c in re.captures_iter(l) {
                let m = c.get(0).unwrap();
                let line_no = first_line + i as u32;
                let comment_loc = Location::file(file.clone(), line_no, m.start() as u32 + 1);
                let line = match c.get(4).map(|m| m.as_str()) {
                    None => Some(line_no),
                    Some("unknown") => None,
                    Some("above") => (0..i).rev().find(|&k| !is_designator(lines[k])).map(|k| first_line + k as u32),
                    Some("below") => (i + 1..lines.len()).find(|&k| !is_designator(lines[k])).map(|k| first_line + k as u32),
                    Some(off) => {
                        let n: i64 = off.parse().unwrap_or(0);
                        let t = line_no as i64 + n;
                        if t < 1 {
                            errors.push(Diagnostic::error(comment_loc.clone(), "expected diagnostic line offset points before the file"));
                            continue;
                        }
                        Some(t as u32)
                    }
                };
                let text = c.get(5).unwrap().as_str().to_string();
                let pattern = if c.get(2).is_some() {
                    match build_regex(&text) {
                        Ok(r) => Pattern::Regex(r),
                        Err(e) => {
                            errors.push(Diagnostic::error(comment_loc.clone(), e));
                            continue;
                        }
                    }
                } else {
                    Pattern::Substring(text.clone())
                };
                list.push(Expected { severity: severity_of(c.get(1).unwrap().as_str()), line, pattern, text, comment_loc, matched: false });
            }
        }
        if errors.is_empty() {
            Ok(ExpectedDiagnostics { file, list })
        } else {
            Err(errors)
        }
    }

    /// Consumes one emitted diagnostic (and its notes). Returns the ones nobody expected.
    pub fn check(&mut self, d: &Diagnostic) -> Vec<Diagnostic> {
        let mut unexpected = vec![];
        for x in d.flatten() {
            let line = match x.loc.file_line_col() {
                Some((f, l, _)) if *f == *self.file => Some(l),
                Some(_) => Some(0),
                None => None,
            };
            let found = self.list.iter_mut().find(|e| {
                !e.matched
                    && e.severity == x.severity
                    && e.line == line
                    && match &e.pattern {
                        Pattern::Substring(s) => x.message.contains(s.as_str()),
                        Pattern::Regex(r) => r.is_match(&x.message),
                    }
            });
            match found {
                Some(e) => e.matched = true,
                None => unexpected.push(Diagnostic::error(x.loc.clone(), format!("unexpected {}: {}", x.severity.as_str(), x.message))),
            }
        }
        unexpected
    }

    /// Expectations that no diagnostic matched.
    pub fn unmatched(&self) -> Vec<Diagnostic> {
        self.list
            .iter()
            .filter(|e| !e.matched)
            .map(|e| Diagnostic::error(e.comment_loc.clone(), format!("expected {} \"{}\" was not produced", e.severity.as_str(), e.text)))
            .collect()
    }
}
