//! The tokenizer of MLIR's textual IR. It tracks line and column as it goes
//! (byte columns, 1-based, as MLIR reports them) so that every token and every
//! operation gets an exact location at no extra cost.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tok {
    Eof,
    /// `foo`, `arith.addi`, `i32`, `x`.
    BareId,
    /// `%0`, `%arg1`.
    PercentId,
    /// `^bb0`.
    CaretId,
    /// `@foo` or `@"foo bar"`.
    AtId,
    /// `#map`, `#npu.x`, `#loc3`.
    HashId,
    /// `!npu.buf`, `!alias`.
    ExclId,
    String,
    Integer,
    Float,
    LParen,
    RParen,
    LSquare,
    RSquare,
    LBrace,
    RBrace,
    Less,
    Greater,
    Comma,
    Colon,
    Equal,
    Arrow,
    Question,
    Star,
    Plus,
    Minus,
    Ellipsis,
    /// `{-#`
    FileMetadataBegin,
    /// `#-}`
    FileMetadataEnd,
    /// A character that starts no token; the parser reports it.
    Error,
}

#[derive(Clone, Copy, Debug)]
pub struct Token {
    pub kind: Tok,
    pub start: u32,
    pub end: u32,
    pub line: u32,
    pub col: u32,
}

pub struct Lexer<'a> {
    pub src: &'a [u8],
    pos: usize,
    line: u32,
    line_start: usize,
    /// Message for an `Error` token.
    pub error: Option<String>,
}

fn is_id_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'$' || c == b'.'
}
fn is_suffix_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'$' || c == b'.' || c == b'-'
}

impl<'a> Lexer<'a> {
    /// `first_line` lets a split chunk keep the line numbers of the whole file.
    pub fn new(src: &'a str, first_line: u32) -> Lexer<'a> {
        Lexer { src: src.as_bytes(), pos: 0, line: first_line, line_start: 0, error: None }
    }

    pub fn text(&self, t: &Token) -> &'a str {
        // Tokens always start and end on character boundaries.
        std::str::from_utf8(&self.src[t.start as usize..t.end as usize]).unwrap_or("")
    }

    pub fn pos(&self) -> usize {
        self.pos
    }

    /// Line and column of a byte offset at or after the current line start.
    pub fn line_col_here(&self) -> (u32, u32) {
        (self.line, (self.pos - self.line_start) as u32 + 1)
    }

    fn peek(&self, k: usize) -> u8 {
        *self.src.get(self.pos + k).unwrap_or(&0)
    }

    fn newline(&mut self) {
        self.line += 1;
        self.line_start = self.pos;
    }

    /// Skips whitespace and `//` comments.
    pub fn skip_trivia(&mut self) {
        loop {
            match self.peek(0) {
                b'\n' => {
                    self.pos += 1;
                    self.newline();
                }
                b' ' | b'\t' | b'\r' => self.pos += 1,
                b'/' if self.peek(1) == b'/' => {
                    while self.pos < self.src.len() && self.src[self.pos] != b'\n' {
                        self.pos += 1;
                    }
                }
                _ => return,
            }
        }
    }

    pub fn next_token(&mut self) -> Token {
        self.skip_trivia();
        let start = self.pos;
        let (line, col) = self.line_col_here();
        let kind = self.lex_kind();
        Token { kind, start: start as u32, end: self.pos as u32, line, col }
    }

    fn lex_kind(&mut self) -> Tok {
        if self.pos >= self.src.len() {
            return Tok::Eof;
        }
        let c = self.src[self.pos];
        self.pos += 1;
        match c {
            b'(' => Tok::LParen,
            b')' => Tok::RParen,
            b'[' => Tok::LSquare,
            b']' => Tok::RSquare,
            b'{' => {
                if self.peek(0) == b'-' && self.peek(1) == b'#' {
                    self.pos += 2;
                    Tok::FileMetadataBegin
                } else {
                    Tok::LBrace
                }
            }
            b'}' => Tok::RBrace,
            b'<' => Tok::Less,
            b'>' => Tok::Greater,
            b',' => Tok::Comma,
            b':' => Tok::Colon,
            b'=' => Tok::Equal,
            b'?' => Tok::Question,
            b'*' => Tok::Star,
            b'+' => Tok::Plus,
            b'-' => {
                if self.peek(0) == b'>' {
                    self.pos += 1;
                    Tok::Arrow
                } else {
                    Tok::Minus
                }
            }
            b'.' if self.peek(0) == b'.' && self.peek(1) == b'.' => {
                self.pos += 2;
                Tok::Ellipsis
            }
            b'"' => self.lex_string(),
            b'%' => self.lex_suffix_id(Tok::PercentId),
            b'^' => self.lex_suffix_id(Tok::CaretId),
            b'!' => self.lex_prefixed_id(Tok::ExclId),
            b'#' => {
                if self.peek(0) == b'-' && self.peek(1) == b'}' {
                    self.pos += 2;
                    return Tok::FileMetadataEnd;
                }
                self.lex_prefixed_id(Tok::HashId)
            }
            b'@' => {
                if self.peek(0) == b'"' {
                    self.pos += 1;
                    if self.lex_string() == Tok::Error {
                        return Tok::Error;
                    }
                    return Tok::AtId;
                }
                self.lex_prefixed_id(Tok::AtId)
            }
            b'0'..=b'9' => self.lex_number(c),
            c if c.is_ascii_alphabetic() || c == b'_' => {
                while self.pos < self.src.len() && is_id_char(self.src[self.pos]) {
                    self.pos += 1;
                }
                Tok::BareId
            }
            _ => {
                // Step over a whole UTF-8 character so spans stay on boundaries.
                while self.pos < self.src.len() && (self.src[self.pos] & 0xC0) == 0x80 {
                    self.pos += 1;
                }
                self.error = Some(format!("unexpected character '{}'", String::from_utf8_lossy(&self.src[self.pos - 1..self.pos]).escape_default()));
                if c >= 0x80 {
                    self.error = Some("unexpected character".into());
                }
                Tok::Error
            }
        }
    }

    fn lex_suffix_id(&mut self, kind: Tok) -> Tok {
        let s = self.pos;
        while self.pos < self.src.len() && is_suffix_char(self.src[self.pos]) {
            self.pos += 1;
        }
        if self.pos == s {
            self.error = Some(format!("invalid {} name", if kind == Tok::PercentId { "SSA value" } else { "block" }));
            return Tok::Error;
        }
        kind
    }

    fn lex_prefixed_id(&mut self, kind: Tok) -> Tok {
        let s = self.pos;
        while self.pos < self.src.len() && is_id_char(self.src[self.pos]) {
            self.pos += 1;
        }
        if self.pos == s {
            self.error = Some("expected an identifier after the sigil".into());
            return Tok::Error;
        }
        kind
    }

    fn lex_number(&mut self, first: u8) -> Tok {
        if first == b'0' && self.peek(0) == b'x' && self.peek(1).is_ascii_hexdigit() {
            self.pos += 1;
            while self.peek(0).is_ascii_hexdigit() {
                self.pos += 1;
            }
            return Tok::Integer;
        }
        while self.peek(0).is_ascii_digit() {
            self.pos += 1;
        }
        if self.peek(0) != b'.' {
            return Tok::Integer;
        }
        self.pos += 1;
        while self.peek(0).is_ascii_digit() {
            self.pos += 1;
        }
        if matches!(self.peek(0), b'e' | b'E')
            && (self.peek(1).is_ascii_digit() || (matches!(self.peek(1), b'+' | b'-') && self.peek(2).is_ascii_digit()))
        {
            self.pos += 2;
            while self.peek(0).is_ascii_digit() {
                self.pos += 1;
            }
        }
        Tok::Float
    }

    fn lex_string(&mut self) -> Tok {
        loop {
            if self.pos >= self.src.len() {
                self.error = Some("expected '\"' in string literal".into());
                return Tok::Error;
            }
            let c = self.src[self.pos];
            self.pos += 1;
            match c {
                b'"' => return Tok::String,
                b'\n' => {
                    self.pos -= 1;
                    self.error = Some("expected '\"' in string literal".into());
                    return Tok::Error;
                }
                b'\\' => {
                    let n = self.peek(0);
                    if matches!(n, b'"' | b'\\' | b'n' | b't') {
                        self.pos += 1;
                    } else if n.is_ascii_hexdigit() && self.peek(1).is_ascii_hexdigit() {
                        self.pos += 2;
                    } else {
                        self.error = Some("unknown escape in string literal".into());
                        return Tok::Error;
                    }
                }
                _ => {}
            }
        }
    }

    /// Scans a dimension list `2x?x[4]x` up to the element type (tensor, memref,
    /// vector bodies). Returns the dims and their scalable flags; `Err` with a
    /// message at the current position on a malformed list.
    pub fn lex_dimension_list(&mut self) -> Result<(Vec<i64>, Vec<bool>), String> {
        self.skip_trivia();
        let mut dims = Vec::new();
        let mut scal = Vec::new();
        loop {
            let save = self.pos;
            let scalable = self.peek(0) == b'[';
            let mut p = self.pos + scalable as usize;
            let get = |p: usize| *self.src.get(p).unwrap_or(&0);
            let d = if get(p) == b'?' {
                p += 1;
                crate::types::DYNAMIC
            } else if get(p).is_ascii_digit() {
                let s = p;
                while get(p).is_ascii_digit() {
                    p += 1;
                }
                let txt = std::str::from_utf8(&self.src[s..p]).unwrap_or("");
                match txt.parse::<i64>() {
                    Ok(v) => v,
                    Err(_) => return Err("dimension too large".into()),
                }
            } else {
                self.pos = save;
                return Ok((dims, scal));
            };
            if scalable {
                if get(p) != b']' {
                    return Err("missing ']' closing scalable dimension".into());
                }
                p += 1;
            }
            if get(p) != b'x' {
                // A bare integer here is not a dimension (e.g. `vector<4>` lacks its element type).
                self.pos = p;
                return Err("expected 'x' in dimension list".into());
            }
            dims.push(d);
            scal.push(scalable);
            self.pos = p + 1;
        }
    }

    /// Consumes `x` after `*` in `tensor<*xf32>`.
    pub fn eat_x(&mut self) -> bool {
        if self.peek(0) == b'x' {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    /// Reads raw text up to the `>` that balances an already-consumed `<`
    /// (opaque dialect types and attributes), honouring nested brackets and strings.
    pub fn lex_balanced_body(&mut self) -> Result<(), String> {
        let mut stack: Vec<u8> = vec![b'>'];
        while let Some(&c) = self.src.get(self.pos) {
            self.pos += 1;
            match c {
                b'\n' => self.newline(),
                b'"' => {
                    if self.lex_string() == Tok::Error {
                        return Err("unterminated string in dialect body".into());
                    }
                }
                b'<' => stack.push(b'>'),
                b'(' => stack.push(b')'),
                b'[' => stack.push(b']'),
                b'{' => stack.push(b'}'),
                b'>' | b')' | b']' | b'}' => {
                    if c == b'>' && self.src.get(self.pos.wrapping_sub(2)) == Some(&b'-') && stack.last() != Some(&b'>') {
                        continue; // an arrow inside the body
                    }
                    if c == b'>' && self.src.get(self.pos.wrapping_sub(2)) == Some(&b'-') {
                        continue;
                    }
                    if stack.pop() != Some(c) {
                        return Err(format!("unbalanced '{}' in dialect body", c as char));
                    }
                    if stack.is_empty() {
                        return Ok(());
                    }
                }
                _ => {}
            }
        }
        Err("unbalanced '<' in dialect body".into())
    }

    /// Moves back to an earlier token start (same line bookkeeping applies
    /// because the parser only rewinds within the current token).
    pub fn reset_to(&mut self, pos: usize) {
        self.pos = pos;
    }
}

/// Decodes a string literal's body (between the quotes) into bytes.
pub fn unescape(body: &str) -> Vec<u8> {
    let b = body.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' && i + 1 < b.len() {
            match b[i + 1] {
                b'"' => out.push(b'"'),
                b'\\' => out.push(b'\\'),
                b'n' => out.push(b'\n'),
                b't' => out.push(b'\t'),
                _ => {
                    let h = std::str::from_utf8(&b[i + 1..(i + 3).min(b.len())]).unwrap_or("0");
                    out.push(u8::from_str_radix(h, 16).unwrap_or(0));
                    i += 3;
                    continue;
                }
            }
            i += 2;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    out
}
