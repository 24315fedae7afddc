//! The textual pipeline syntax:
//! `builtin.module(func.func(cse,canonicalize{max-iterations=10}))`.
//! Errors carry the column they refer to.

use super::manager::OpPassManager;
use super::registry::PassRegistry;

#[derive(Debug, Clone)]
pub struct PipelineError {
    /// 1-based column in the pipeline string.
    pub col: usize,
    pub message: String,
}

impl PipelineError {
    /// Renders as `<pass-pipeline>:1:COL: error: ...` with the text and a caret.
    pub fn render(&self, text: &str) -> String {
        format!("<pass-pipeline>:1:{}: error: {}\n{}\n{}^\n", self.col, self.message, text, " ".repeat(self.col.saturating_sub(1)))
    }
}

struct P<'a> {
    s: &'a [u8],
    pos: usize,
    reg: &'a PassRegistry,
}

fn err<T>(col: usize, message: impl Into<String>) -> Result<T, PipelineError> {
    Err(PipelineError { col: col + 1, message: message.into() })
}

impl<'a> P<'a> {
    fn ws(&mut self) {
        while self.pos < self.s.len() && self.s[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
    }
    fn peek(&self) -> u8 {
        *self.s.get(self.pos).unwrap_or(&0)
    }
    fn name(&mut self) -> Result<(usize, String), PipelineError> {
        self.ws();
        let start = self.pos;
        while self.pos < self.s.len() && (self.s[self.pos].is_ascii_alphanumeric() || b"_.-".contains(&self.s[self.pos])) {
            self.pos += 1;
        }
        if start == self.pos {
            return err(start, "expected a pass or operation name");
        }
        Ok((start, String::from_utf8_lossy(&self.s[start..self.pos]).into_owned()))
    }

    /// `{key=value key2 key3="a b"}` → pairs.
    fn options(&mut self) -> Result<Vec<(String, String)>, PipelineError> {
        let open = self.pos;
        self.pos += 1;
        let mut out = vec![];
        loop {
            self.ws();
            match self.peek() {
                b'}' => {
                    self.pos += 1;
                    return Ok(out);
                }
                0 => return err(open, "unbalanced '{' in pass options"),
                _ => {}
            }
            let (_, key) = self.name()?;
            let mut value = String::new();
            if self.peek() == b'=' {
                self.pos += 1;
                let vstart = self.pos;
                if self.peek() == b'"' {
                    self.pos += 1;
                    while self.pos < self.s.len() && self.s[self.pos] != b'"' {
                        self.pos += 1;
                    }
                    if self.pos >= self.s.len() {
                        return err(vstart, "unterminated quoted option value");
                    }
                    value = String::from_utf8_lossy(&self.s[vstart + 1..self.pos]).into_owned();
                    self.pos += 1;
                } else {
                    let mut depth = 0;
                    while self.pos < self.s.len() {
                        let c = self.s[self.pos];
                        if c == b'{' {
                            depth += 1;
                        } else if c == b'}' {
                            if depth == 0 {
                                break;
                            }
                            depth -= 1;
                        } else if c.is_ascii_whitespace() && depth == 0 {
                            break;
                        }
                        self.pos += 1;
                    }
                    value = String::from_utf8_lossy(&self.s[vstart..self.pos]).into_owned();
                }
            }
            out.push((key, value));
        }
    }

    /// Elements up to the closing `)` (not consumed), added to `pm`.
    fn elements(&mut self, pm: &mut OpPassManager) -> Result<(), PipelineError> {
        self.ws();
        if self.peek() == b')' {
            return Ok(());
        }
        loop {
            let (col, name) = self.name()?;
            self.ws();
            if self.peek() == b'(' {
                self.pos += 1;
                let mut nested = OpPassManager::new(&name);
                self.elements(&mut nested)?;
                self.ws();
                if self.peek() != b')' {
                    return err(self.pos, "expected ')' to close the nested pipeline");
                }
                self.pos += 1;
                pm.add_nested(nested);
            } else {
                let opts = if self.peek() == b'{' { self.options()? } else { vec![] };
                let (pass, text) = match self.reg.create_with_text(&name, &opts) {
                    Ok(p) => p,
                    Err(e) => return err(col, e),
                };
                if let Some(a) = pass.anchor() {
                    if pm.anchor() != a && pm.anchor() != "any" {
                        return err(
                            col,
                            format!(
                                "can't add pass '{}' restricted to '{}' on a pass manager intended to run on '{}', did you intend to nest?",
                                name,
                                a,
                                pm.anchor()
                            ),
                        );
                    }
                }
                pm.add_pass_here(pass, text);
            }
            self.ws();
            match self.peek() {
                b',' => {
                    self.pos += 1;
                }
                _ => return Ok(()),
            }
        }
    }
}

/// Parses `anchor(elements)`. A bare element list is anchored on `builtin.module`.
pub fn parse_pipeline(text: &str, reg: &PassRegistry) -> Result<OpPassManager, PipelineError> {
    let mut p = P { s: text.as_bytes(), pos: 0, reg };
    p.ws();
    // Look ahead: `name(` is an anchor.
    let save = p.pos;
    let anchored = p.name().is_ok() && {
        p.ws();
        p.peek() == b'('
    };
    p.pos = save;
    let mut pm;
    if anchored {
        let (_, anchor) = p.name()?;
        p.ws();
        p.pos += 1;
        pm = OpPassManager::new(&anchor);
        p.elements(&mut pm)?;
        p.ws();
        if p.peek() != b')' {
            return err(p.pos, "expected ')' to close the pipeline");
        }
        p.pos += 1;
    } else {
        pm = OpPassManager::new("builtin.module");
        p.elements(&mut pm)?;
    }
    p.ws();
    if p.pos < p.s.len() {
        return err(p.pos, format!("unexpected '{}' after the pipeline", p.peek() as char));
    }
    Ok(pm)
}

/// Parses `name=value other="a b"` (the options of a `--pass=...` flag).
pub fn parse_option_list(text: &str) -> Result<Vec<(String, String)>, PipelineError> {
    let wrapped = format!("{{{}}}", text);
    let reg = PassRegistry::new();
    let mut p = P { s: wrapped.as_bytes(), pos: 0, reg: &reg };
    p.options().map_err(|e| PipelineError { col: e.col.saturating_sub(1).max(1), message: e.message })
}
