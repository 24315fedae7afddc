//! Type syntax: builtin types, function types, aliases and opaque dialect types.

use super::{PResult, Parser};
use crate::lexer::Tok;
use crate::types::{FloatKind, Signedness, Type, TypeData};

impl<'a> Parser<'a> {
    pub fn parse_type(&mut self) -> PResult<Type> {
        match self.tok.kind {
            Tok::LParen => self.parse_function_type(),
            Tok::ExclId => self.parse_dialect_or_alias_type(),
            Tok::BareId => self.parse_builtin_type(),
            _ => self.error("expected non-function type"),
        }
    }

    pub fn parse_colon_type(&mut self) -> PResult<Type> {
        self.expect(Tok::Colon, "':'")?;
        self.parse_type()
    }

    /// `type (, type)*`.
    pub fn parse_type_list(&mut self) -> PResult<Vec<Type>> {
        self.parse_comma_list(|p| p.parse_type())
    }

    /// Function results: one type, or `(types)`.
    pub fn parse_function_result_types(&mut self) -> PResult<Vec<Type>> {
        if self.at(Tok::LParen) {
            let save = (self.tok, self.lex.pos());
            let _ = save;
            self.parse_paren_list("result types", |p| p.parse_type())
        } else {
            Ok(vec![self.parse_type()?])
        }
    }

    fn parse_function_type(&mut self) -> PResult<Type> {
        let inputs = self.parse_paren_list("function inputs", |p| p.parse_type())?;
        self.expect(Tok::Arrow, "'->' in function type")?;
        let results = self.parse_function_result_types()?;
        Ok(self.ctx.intern_type(TypeData::Function { inputs, results }))
    }

    fn parse_dialect_or_alias_type(&mut self) -> PResult<Type> {
        let loc = self.loc();
        let t = self.tok;
        let text = &self.lex.text(&t)[1..];
        if let Some(ty) = self.type_aliases.get(text) {
            let ty = ty.clone();
            self.bump();
            return Ok(ty);
        }
        let (dialect, rest) = match text.split_once('.') {
            Some((d, r)) => (d.to_string(), format!(".{}", r)),
            None => (text.to_string(), String::new()),
        };
        if rest.is_empty() && !self.lex_at_less_after(&t) {
            return self.error_at(loc, format!("undefined symbol alias id '{}'", text));
        }
        if !self.ctx.allow_unregistered && !self.ctx.is_dialect_registered(&dialect) {
            return self.error_at(
                loc,
                format!("dialect '{}' provides no type parser for '!{}'; use --allow-unregistered-dialect for opaque types", dialect, text),
            );
        }
        let body = self.parse_opaque_tail(rest)?;
        Ok(self.ctx.intern_type(TypeData::Opaque { dialect, body }))
    }

    /// True when the character right after token `t` is `<`.
    pub(crate) fn lex_at_less_after(&self, t: &crate::lexer::Token) -> bool {
        self.lex.src.get(t.end as usize) == Some(&b'<')
    }

    /// After a `!dialect.name` or `#dialect.name` token: an optional `<...>` body taken verbatim.
    pub(crate) fn parse_opaque_tail(&mut self, mut body: String) -> PResult<String> {
        let t = self.tok;
        if self.lex_at_less_after(&t) {
            let start = t.end as usize;
            self.lex.reset_to(start + 1);
            if let Err(e) = self.lex.lex_balanced_body() {
                return self.error_at(self.loc_of(&t), e);
            }
            let end = self.lex.pos();
            body.push_str(std::str::from_utf8(&self.lex.src[start..end]).unwrap_or(""));
            self.tok = self.lex.next_token();
        } else {
            self.bump();
        }
        Ok(body)
    }

    fn parse_builtin_type(&mut self) -> PResult<Type> {
        let text = self.text();
        let simple = match text {
            "index" => Some(TypeData::Index),
            "none" => Some(TypeData::None),
            _ => FloatKind::ALL.iter().find(|(_, k)| *k == text).map(|(k, _)| TypeData::Float(*k)),
        };
        if let Some(d) = simple {
            self.bump();
            return Ok(self.ctx.intern_type(d));
        }
        for (prefix, s) in [("si", Signedness::Signed), ("ui", Signedness::Unsigned), ("i", Signedness::Signless)] {
            if let Some(w) = text.strip_prefix(prefix) {
                if !w.is_empty() && w.bytes().all(|c| c.is_ascii_digit()) {
                    let width = match w.parse::<u32>() {
                        Ok(n) if n <= 16_777_215 => n,
                        _ => return self.error("invalid integer width"),
                    };
                    self.bump();
                    return Ok(self.ctx.int_type_signed(width, s));
                }
            }
        }
        match text {
            "tensor" => self.parse_tensor_type(),
            "memref" => self.parse_memref_type(),
            "vector" => self.parse_vector_type(),
            "complex" => {
                self.bump();
                self.expect(Tok::Less, "'<' in complex type")?;
                let e = self.parse_type()?;
                self.expect(Tok::Greater, "'>' in complex type")?;
                Ok(self.ctx.intern_type(TypeData::Complex(e)))
            }
            "tuple" => {
                self.bump();
                self.expect(Tok::Less, "'<' in tuple type")?;
                let ts = if self.at(Tok::Greater) { vec![] } else { self.parse_type_list()? };
                self.expect(Tok::Greater, "'>' in tuple type")?;
                Ok(self.ctx.intern_type(TypeData::Tuple(ts)))
            }
            _ => self.error(format!("expected type, got '{}'", text)),
        }
    }

    /// After `tensor<` etc.: re-lexes from the current token as a dimension list.
    fn parse_dims(&mut self, allow_scalable: bool) -> PResult<(Vec<i64>, Vec<bool>)> {
        let start = self.tok.start as usize;
        self.lex.reset_to(start);
        match self.lex.lex_dimension_list() {
            Ok((d, s)) => {
                if !allow_scalable && s.iter().any(|x| *x) {
                    return self.error("scalable dimensions are only allowed in vector types");
                }
                self.tok = self.lex.next_token();
                Ok((d, s))
            }
            Err(e) => {
                self.tok = self.lex.next_token();
                self.error(e)
            }
        }
    }

    fn parse_element_type(&mut self, what: &str) -> PResult<Type> {
        let loc = self.loc();
        let t = self.parse_type()?;
        if matches!(t.data(), TypeData::Function { .. } | TypeData::Tuple(_) | TypeData::None)
            || (what == "vector" && !(t.is_integer() || t.is_index() || t.is_float()))
        {
            return self.error_at(loc, format!("invalid {} element type '{}'", what, t));
        }
        Ok(t)
    }

    /// `*x` of an unranked type; true if present.
    fn parse_unranked_marker(&mut self) -> PResult<bool> {
        if !self.at(Tok::Star) {
            return Ok(false);
        }
        let t = self.tok;
        self.lex.reset_to(t.end as usize);
        if !self.lex.eat_x() {
            self.tok = self.lex.next_token();
            return self.error("expected 'x' in unranked dimension list");
        }
        self.tok = self.lex.next_token();
        Ok(true)
    }

    fn parse_tensor_type(&mut self) -> PResult<Type> {
        self.bump();
        self.expect(Tok::Less, "'<' in tensor type")?;
        if self.parse_unranked_marker()? {
            let elem = self.parse_element_type("tensor")?;
            self.expect(Tok::Greater, "'>' in tensor type")?;
            return Ok(self.ctx.intern_type(TypeData::UnrankedTensor { elem }));
        }
        let (shape, _) = self.parse_dims(false)?;
        let elem = self.parse_element_type("tensor")?;
        let encoding = if self.eat(Tok::Comma) { Some(self.parse_attribute(None)?) } else { None };
        self.expect(Tok::Greater, "'>' in tensor type")?;
        if shape.iter().any(|d| *d < 0 && *d != crate::types::DYNAMIC) {
            return self.error("invalid tensor dimension size");
        }
        Ok(self.ctx.intern_type(TypeData::RankedTensor { shape, elem, encoding }))
    }

    fn parse_memref_type(&mut self) -> PResult<Type> {
        self.bump();
        self.expect(Tok::Less, "'<' in memref type")?;
        if self.parse_unranked_marker()? {
            let elem = self.parse_element_type("memref")?;
            let memory_space = if self.eat(Tok::Comma) { Some(self.parse_attribute(None)?) } else { None };
            self.expect(Tok::Greater, "'>' in memref type")?;
            return Ok(self.ctx.intern_type(TypeData::UnrankedMemRef { elem, memory_space }));
        }
        let (shape, _) = self.parse_dims(false)?;
        let elem = self.parse_element_type("memref")?;
        let mut layout = None;
        let mut memory_space = None;
        while self.eat(Tok::Comma) {
            let loc = self.loc();
            let a = self.parse_attribute(None)?;
            let is_layout = matches!(a.data(), crate::AttrData::AffineMap(_) | crate::AttrData::Strided { .. });
            if is_layout && layout.is_none() && memory_space.is_none() {
                if let crate::AttrData::Strided { strides, .. } = a.data() {
                    if strides.len() != shape.len() {
                        return self.error_at(loc, "expected the number of strides to match the rank");
                    }
                }
                layout = Some(a);
            } else if memory_space.is_none() {
                memory_space = Some(a);
            } else {
                return self.error_at(loc, "multiple memory spaces specified in memref type");
            }
        }
        self.expect(Tok::Greater, "'>' in memref type")?;
        Ok(self.ctx.intern_type(TypeData::MemRef { shape, elem, layout, memory_space }))
    }

    fn parse_vector_type(&mut self) -> PResult<Type> {
        self.bump();
        self.expect(Tok::Less, "'<' in vector type")?;
        let (shape, scalable) = self.parse_dims(true)?;
        if shape.iter().any(|d| *d <= 0) {
            return self.error("vector types must have positive constant sizes");
        }
        let elem = self.parse_element_type("vector")?;
        self.expect(Tok::Greater, "'>' in vector type")?;
        Ok(self.ctx.intern_type(TypeData::Vector { shape, scalable, elem }))
    }
}
