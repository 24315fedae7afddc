//! Tokens of NPU assembly. Newlines are tokens (one statement per line);
//! comments start with `;`, `#` or `//`. Positions are byte offsets, turned
//! into line:column by [`line_col`].

#[derive(Clone, Debug, PartialEq)]
pub enum Tok<'a> {
    Newline,
    Ident(&'a str),
    Directive(&'a str),
    ArgRef(&'a str),
    Int(i64),
    /// `0x…`: an integer, or the raw bits of an f32 immediate.
    Hex(i64),
    Float(f64),
    Str(String),
    Comma,
    LBracket,
    RBracket,
    Plus,
    Minus,
    Equals,
    Colon,
}

#[derive(Clone, Debug, PartialEq)]
pub struct LexError {
    pub pos: usize,
    pub message: String,
}

/// 1-based line and column of a byte offset.
pub fn line_col(src: &str, pos: usize) -> (usize, usize) {
    let before = &src.as_bytes()[..pos.min(src.len())];
    let line = before.iter().filter(|&&c| c == b'\n').count() + 1;
    let col = pos - before.iter().rposition(|&c| c == b'\n').map(|p| p + 1).unwrap_or(0) + 1;
    (line, col)
}

pub struct Lexer<'a> {
    src: &'a str,
    pos: usize,
    done: bool,
}

impl<'a> Lexer<'a> {
    pub fn new(src: &'a str) -> Lexer<'a> {
        Lexer { src, pos: 0, done: false }
    }
}

fn ident_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'.'
}

impl<'a> Iterator for Lexer<'a> {
    type Item = Result<(usize, Tok<'a>, usize), LexError>;

    fn next(&mut self) -> Option<Self::Item> {
        let b = self.src.as_bytes();
        loop {
            while self.pos < b.len() && (b[self.pos] == b' ' || b[self.pos] == b'\t' || b[self.pos] == b'\r') {
                self.pos += 1;
            }
            let at_comment = self.pos < b.len() && (b[self.pos] == b';' || b[self.pos] == b'#' || (b[self.pos] == b'/' && b.get(self.pos + 1) == Some(&b'/')));
            if at_comment {
                while self.pos < b.len() && b[self.pos] != b'\n' {
                    self.pos += 1;
                }
                continue;
            }
            break;
        }
        let start = self.pos;
        if self.pos >= b.len() {
            // A final newline so the last statement needs none in the text.
            if self.done {
                return None;
            }
            self.done = true;
            return Some(Ok((start, Tok::Newline, start)));
        }
        let c = b[self.pos];
        self.pos += 1;
        let single = match c {
            b'\n' => Some(Tok::Newline),
            b',' => Some(Tok::Comma),
            b'[' => Some(Tok::LBracket),
            b']' => Some(Tok::RBracket),
            b'+' => Some(Tok::Plus),
            b'-' => Some(Tok::Minus),
            b'=' => Some(Tok::Equals),
            b':' => Some(Tok::Colon),
            _ => None,
        };
        if let Some(t) = single {
            return Some(Ok((start, t, self.pos)));
        }
        let err = |pos: usize, m: String| Some(Err(LexError { pos, message: m }));
        match c {
            b'"' => {
                let mut s = String::new();
                loop {
                    match b.get(self.pos) {
                        None | Some(b'\n') => return err(start, "unterminated string".into()),
                        Some(b'"') => {
                            self.pos += 1;
                            break;
                        }
                        Some(b'\\') if matches!(b.get(self.pos + 1), Some(b'"') | Some(b'\\')) => {
                            s.push(b[self.pos + 1] as char);
                            self.pos += 2;
                        }
                        Some(_) => {
                            let ch = self.src[self.pos..].chars().next().unwrap();
                            s.push(ch);
                            self.pos += ch.len_utf8();
                        }
                    }
                }
                Some(Ok((start, Tok::Str(s), self.pos)))
            }
            b'%' | b'.' => {
                let s = self.pos;
                while self.pos < b.len() && ident_char(b[self.pos]) {
                    self.pos += 1;
                }
                if self.pos == s {
                    return err(start, format!("expected a name after '{}'", c as char));
                }
                let text = &self.src[s..self.pos];
                Some(Ok((start, if c == b'%' { Tok::ArgRef(text) } else { Tok::Directive(text) }, self.pos)))
            }
            b'0'..=b'9' => {
                let hex = c == b'0' && matches!(b.get(self.pos), Some(b'x') | Some(b'X'));
                if hex {
                    self.pos += 1;
                    let s = self.pos;
                    while self.pos < b.len() && b[self.pos].is_ascii_hexdigit() {
                        self.pos += 1;
                    }
                    return match i64::from_str_radix(&self.src[s..self.pos], 16) {
                        Ok(v) => Some(Ok((start, Tok::Hex(v), self.pos))),
                        Err(_) => err(start, "invalid hexadecimal number".into()),
                    };
                }
                while self.pos < b.len() && b[self.pos].is_ascii_digit() {
                    self.pos += 1;
                }
                let mut float = false;
                if b.get(self.pos) == Some(&b'.') && b.get(self.pos + 1).is_some_and(|d| d.is_ascii_digit()) {
                    float = true;
                    self.pos += 1;
                    while self.pos < b.len() && b[self.pos].is_ascii_digit() {
                        self.pos += 1;
                    }
                }
                if matches!(b.get(self.pos), Some(b'e') | Some(b'E')) {
                    let mut p = self.pos + 1;
                    if matches!(b.get(p), Some(b'+') | Some(b'-')) {
                        p += 1;
                    }
                    if b.get(p).is_some_and(|d| d.is_ascii_digit()) {
                        float = true;
                        self.pos = p;
                        while self.pos < b.len() && b[self.pos].is_ascii_digit() {
                            self.pos += 1;
                        }
                    }
                }
                let text = &self.src[start..self.pos];
                if float {
                    match text.parse::<f64>() {
                        Ok(v) => Some(Ok((start, Tok::Float(v), self.pos))),
                        Err(_) => err(start, "invalid number".into()),
                    }
                } else {
                    match text.parse::<i64>() {
                        Ok(v) => Some(Ok((start, Tok::Int(v), self.pos))),
                        Err(_) => err(start, "number too large".into()),
                    }
                }
            }
            c if c.is_ascii_alphabetic() || c == b'_' => {
                while self.pos < b.len() && ident_char(b[self.pos]) {
                    self.pos += 1;
                }
                Some(Ok((start, Tok::Ident(&self.src[start..self.pos]), self.pos)))
            }
            _ => {
                let ch = self.src[start..].chars().next().unwrap_or('?');
                self.pos = start + ch.len_utf8();
                err(start, format!("unexpected character '{}'", ch.escape_default()))
            }
        }
    }
}
