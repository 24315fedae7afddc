//! Placement overrides (`npu-partition{placement=FILE}`, `npu-run --placement
//! FILE`), as ONNX Runtime's provider assignment can be forced: each line
//! `NODE BACKEND` (or `/REGEX/ BACKEND`) puts the matching nodes on that backend,
//! or on the CPU if it refuses them; `#` starts a comment. The JSON written by
//! `npu-run --report-json` reads back too (its `placements` list), so a run's
//! placement can be edited and replayed.

use regex::Regex;

/// One rule: which nodes, which backend, and where it was written.
pub struct Rule {
    pattern: Pattern,
    pub backend: String,
    pub origin: String,
}

enum Pattern {
    Name(String),
    Regex(Regex),
}

impl Rule {
    pub fn matches(&self, node: &str) -> bool {
        match &self.pattern {
            Pattern::Name(n) => n == node,
            Pattern::Regex(r) => r.is_match(node),
        }
    }
}

/// Reads a placement file (text or the JSON report).
pub fn read(path: &str) -> Result<Vec<Rule>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("placement file '{}': {}", path, e))?;
    if text.trim_start().starts_with('{') {
        return from_json(path, &text);
    }
    let mut rules = vec![];
    for (i, line) in text.lines().enumerate() {
        let origin = format!("{}:{}", path, i + 1);
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let (what, backend) = line.rsplit_once(char::is_whitespace).ok_or_else(|| format!("{}: expected 'NODE BACKEND' or '/REGEX/ BACKEND', got '{}'", origin, line))?;
        let what = what.trim();
        let pattern = match what.strip_prefix('/').and_then(|w| w.strip_suffix('/')) {
            Some(re) => Pattern::Regex(Regex::new(&format!("^(?:{})$", re)).map_err(|e| format!("{}: bad regular expression: {}", origin, e))?),
            None => Pattern::Name(what.to_string()),
        };
        rules.push(Rule { pattern, backend: backend.to_string(), origin });
    }
    Ok(rules)
}

/// The `placements` of a `--report-json` file: `{"node": ..., "backend": ...}` entries.
fn from_json(path: &str, text: &str) -> Result<Vec<Rule>, String> {
    let v: serde_json::Value = serde_json::from_str(text).map_err(|e| format!("placement file '{}': {}", path, e))?;
    let list = v.get("placements").and_then(|p| p.as_array()).ok_or_else(|| format!("placement file '{}': no \"placements\" list", path))?;
    list.iter()
        .enumerate()
        .map(|(i, p)| {
            let origin = format!("{}: placements[{}]", path, i);
            let field = |k: &str| p.get(k).and_then(|x| x.as_str()).map(String::from).ok_or_else(|| format!("{}: no \"{}\"", origin, k));
            Ok(Rule { pattern: Pattern::Name(field("node")?), backend: field("backend")?, origin })
        })
        .collect()
}
