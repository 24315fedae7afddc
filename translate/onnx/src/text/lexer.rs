//! Tokens of ONNX's textual syntax. Identifiers may contain dots only through
//! the grammar's qualified ids; numbers carry their sign so `-1` is one token.

#[derive(Clone, Debug, PartialEq)]
pub enum Tok<'a> {
    Ident(&'a str),
    Int(i64),
    Float(f64),
    Str(String),
    LAngle,
    RAngle,
    LParen,
    RParen,
    LBracket,
    RBracket,
    LBrace,
    RBrace,
    Comma,
    Colon,
    Equals,
    Arrow,
    Question,
    At,
    Dot,
}

#[derive(Clone, Debug, PartialEq)]
pub struct LexError {
    pub pos: usize,
    pub message: String,
}

pub struct Lexer<'a> {
    src: &'a str,
    pos: usize,
}

impl<'a> Lexer<'a> {
    pub fn new(src: &'a str) -> Lexer<'a> {
        Lexer { src, pos: 0 }
    }

    fn number(&mut self, start: usize) -> Result<Tok<'a>, LexError> {
        let b = self.src.as_bytes();
        let mut float = false;
        if b[self.pos] == b'-' || b[self.pos] == b'+' {
            self.pos += 1;
        }
        while self.pos < b.len() {
            let c = b[self.pos];
            let exp_sign = (c == b'-' || c == b'+') && matches!(b[self.pos - 1], b'e' | b'E');
            if c.is_ascii_digit() || exp_sign {
                self.pos += 1;
            } else if c == b'.' || c == b'e' || c == b'E' {
                float = true;
                self.pos += 1;
            } else {
                break;
            }
        }
        let text = &self.src[start..self.pos];
        let bad = |what: &str| LexError { pos: start, message: format!("invalid {} '{}'", what, text) };
        if float {
            text.parse::<f64>().map(Tok::Float).map_err(|_| bad("number"))
        } else {
            text.parse::<i64>().map(Tok::Int).map_err(|_| bad("integer"))
        }
    }
}

impl<'a> Iterator for Lexer<'a> {
    type Item = Result<(usize, Tok<'a>, usize), LexError>;

    fn next(&mut self) -> Option<Self::Item> {
        let b = self.src.as_bytes();
        loop {
            while self.pos < b.len() && b[self.pos].is_ascii_whitespace() {
                self.pos += 1;
            }
            if self.pos < b.len() && b[self.pos] == b'#' {
                while self.pos < b.len() && b[self.pos] != b'\n' {
                    self.pos += 1;
                }
                continue;
            }
            break;
        }
        let start = self.pos;
        let c = *b.get(self.pos)?;
        let single = |t: Tok<'a>| Some(Ok((start, t, start + 1)));
        let tok = match c {
            b'<' => Tok::LAngle,
            b'>' => Tok::RAngle,
            b'(' => Tok::LParen,
            b')' => Tok::RParen,
            b'[' => Tok::LBracket,
            b']' => Tok::RBracket,
            b'{' => Tok::LBrace,
            b'}' => Tok::RBrace,
            b',' => Tok::Comma,
            b':' => Tok::Colon,
            b'?' => Tok::Question,
            b'@' => Tok::At,
            b'.' if !b.get(self.pos + 1).is_some_and(|d| d.is_ascii_digit()) => Tok::Dot,
            b'=' if b.get(self.pos + 1) == Some(&b'>') => {
                self.pos += 2;
                return Some(Ok((start, Tok::Arrow, start + 2)));
            }
            b'=' => Tok::Equals,
            b'"' => {
                let mut s = Vec::new();
                self.pos += 1;
                loop {
                    match b.get(self.pos) {
                        None => return Some(Err(LexError { pos: start, message: "unterminated string".into() })),
                        Some(b'"') => break,
                        Some(b'\\') if self.pos + 1 < b.len() => {
                            s.push(match b[self.pos + 1] {
                                b'n' => b'\n',
                                b't' => b'\t',
                                other => other,
                            });
                            self.pos += 2;
                        }
                        Some(ch) => {
                            s.push(*ch);
                            self.pos += 1;
                        }
                    }
                }
                self.pos += 1;
                return match String::from_utf8(s) {
                    Ok(s) => Some(Ok((start, Tok::Str(s), self.pos))),
                    Err(_) => Some(Err(LexError { pos: start, message: "string is not UTF-8".into() })),
                };
            }
            c if c.is_ascii_digit() || c == b'.' || ((c == b'-' || c == b'+') && b.get(self.pos + 1).is_some_and(|d| d.is_ascii_digit() || *d == b'.')) => {
                return Some(self.number(start).map(|t| (start, t, self.pos)));
            }
            c if c.is_ascii_alphabetic() || c == b'_' => {
                while self.pos < b.len() && (b[self.pos].is_ascii_alphanumeric() || b[self.pos] == b'_') {
                    self.pos += 1;
                }
                return Some(Ok((start, Tok::Ident(&self.src[start..self.pos]), self.pos)));
            }
            _ => {
                let ch = self.src[start..].chars().next().unwrap_or('?');
                self.pos += ch.len_utf8();
                return Some(Err(LexError { pos: start, message: format!("unexpected character '{}'", ch) }));
            }
        };
        self.pos += 1;
        single(tok)
    }
}
