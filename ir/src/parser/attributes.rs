//! Attribute syntax: scalars, containers, symbol references, elements
//! (`dense`, `dense_resource`, `array`), affine maps, layouts, aliases and
//! opaque dialect attributes.

use super::{decode_hex, PResult, Parser};
use crate::affine::{AffineExpr, AffineMap};
use crate::attributes::{element_bytes, normalize_int, ArrayData, AttrData, AttrDict, Attribute, DenseData};
use crate::float;
use crate::lexer::Tok;
use crate::location::Location;
use crate::types::{Signedness, Type, TypeData, DYNAMIC};
use std::sync::Arc;

/// One literal inside `dense<...>` before the type is known.
#[derive(Clone, Debug)]
enum Lit {
    Int { neg: bool, text: String },
    Float(String),
    Bool(bool),
}

impl<'a> Parser<'a> {
    /// `{a = 1, b}`.
    pub fn parse_attr_dict(&mut self) -> PResult<AttrDict> {
        self.expect(Tok::LBrace, "'{' in attribute dictionary")?;
        let mut d = AttrDict::new();
        if self.eat(Tok::RBrace) {
            return Ok(d);
        }
        loop {
            let loc = self.loc();
            let name = match self.tok.kind {
                Tok::BareId => {
                    let t = self.bump();
                    self.lex.text(&t).to_string()
                }
                Tok::String => {
                    let s = self.parse_utf8_string("attribute name")?;
                    if s.is_empty() {
                        return self.error_at(loc, "expected valid attribute name");
                    }
                    s
                }
                _ => return self.error("expected attribute name"),
            };
            let value = if self.eat(Tok::Equal) { self.parse_attribute(None)? } else { Attribute::unit() };
            if d.set(self.ctx.ident(&name), value).is_some() {
                return self.error_at(loc, format!("duplicate key '{}' in dictionary attribute", name));
            }
            if !self.eat(Tok::Comma) {
                break;
            }
        }
        self.expect(Tok::RBrace, "'}' in attribute dictionary")?;
        Ok(d)
    }

    /// Parses any attribute; `ty` is a type already known from context.
    pub fn parse_attribute(&mut self, ty: Option<&Type>) -> PResult<Attribute> {
        let loc = self.loc();
        match self.tok.kind {
            Tok::Integer | Tok::Float | Tok::Minus => self.parse_number_attr(ty),
            Tok::String => {
                let b = self.parse_string("string")?;
                let t = if self.eat(Tok::Colon) { Some(self.parse_type()?) } else { None };
                Ok(Attribute::new(AttrData::String { bytes: b.into(), ty: t }))
            }
            Tok::LSquare => {
                self.bump();
                let mut v = vec![];
                if !self.at(Tok::RSquare) {
                    v = self.parse_comma_list(|p| p.parse_attribute(None))?;
                }
                self.expect(Tok::RSquare, "']' in array attribute")?;
                Ok(Attribute::new(AttrData::Array(v)))
            }
            Tok::LBrace => Ok(Attribute::new(AttrData::Dict(self.parse_attr_dict()?))),
            Tok::AtId => {
                let mut parts = vec![];
                let t = self.bump();
                parts.push(self.symbol_text(&t));
                while self.at(Tok::Colon) && self.lex.src.get(self.tok.end as usize) == Some(&b':') {
                    // `::` is two colon tokens back to back.
                    self.bump();
                    self.bump();
                    if !self.at(Tok::AtId) {
                        return self.error("expected nested symbol reference identifier");
                    }
                    let t = self.bump();
                    parts.push(self.symbol_text(&t));
                }
                Ok(Attribute::new(AttrData::SymbolRef(parts)))
            }
            Tok::HashId => self.parse_hash_attr(),
            Tok::BareId => match self.text() {
                "true" | "false" => {
                    let v = self.text() == "true";
                    self.bump();
                    Ok(Attribute::integer(v as i128, self.ctx.i1()))
                }
                "unit" => {
                    self.bump();
                    Ok(Attribute::unit())
                }
                "dense" => self.parse_dense(),
                "dense_resource" => self.parse_dense_resource(),
                "array" => self.parse_dense_array(),
                "affine_map" => {
                    self.bump();
                    self.expect(Tok::Less, "'<' in affine map")?;
                    let m = self.parse_affine_map_body()?;
                    self.expect(Tok::Greater, "'>' to end affine map")?;
                    Ok(Attribute::new(AttrData::AffineMap(m)))
                }
                "strided" => self.parse_strided(),
                "loc" => self.error_at(loc, "location attributes are not supported here"),
                _ => Ok(Attribute::type_attr(self.parse_type()?)),
            },
            Tok::LParen | Tok::ExclId => Ok(Attribute::type_attr(self.parse_type()?)),
            _ => self.error("expected attribute value"),
        }
    }

    fn parse_hash_attr(&mut self) -> PResult<Attribute> {
        let loc = self.loc();
        let t = self.tok;
        let text = &self.lex.text(&t)[1..];
        if let Some(a) = self.attr_aliases.get(text) {
            let a = a.clone();
            self.bump();
            return Ok(a);
        }
        let (dialect, rest) = match text.split_once('.') {
            Some((d, r)) => (d.to_string(), format!(".{}", r)),
            None => (text.to_string(), String::new()),
        };
        if rest.is_empty() && !self.lex_at_less_after(&t) {
            return self.error_at(loc, format!("undefined symbol alias id '{}'", text));
        }
        if !self.ctx.allow_unregistered && !self.ctx.is_dialect_registered(&dialect) && !KNOWN_ATTR_DIALECTS.contains(&dialect.as_str()) {
            return self.error_at(
                loc,
                format!(
                    "dialect '{}' provides no attribute parser for '#{}'; use --allow-unregistered-dialect for opaque attributes",
                    dialect, text
                ),
            );
        }
        let body = self.parse_opaque_tail(rest)?;
        Ok(Attribute::new(AttrData::Opaque { dialect, body }))
    }

    fn parse_number_literal(&mut self) -> PResult<(bool, Tok, String, Location)> {
        let loc = self.loc();
        let neg = self.eat(Tok::Minus);
        match self.tok.kind {
            Tok::Integer | Tok::Float => {
                let t = self.bump();
                Ok((neg, t.kind, self.lex.text(&t).to_string(), loc))
            }
            _ => self.error("expected integer or floating point literal"),
        }
    }

    fn parse_number_attr(&mut self, ty: Option<&Type>) -> PResult<Attribute> {
        let (neg, kind, text, loc) = self.parse_number_literal()?;
        let ty = if self.eat(Tok::Colon) {
            self.parse_type()?
        } else if let Some(t) = ty {
            t.clone()
        } else if kind == Tok::Float {
            self.ctx.f64()
        } else {
            self.ctx.i64()
        };
        self.make_scalar(neg, kind, &text, &ty, &loc)
    }

    fn make_scalar(&self, neg: bool, kind: Tok, text: &str, ty: &Type, loc: &Location) -> PResult<Attribute> {
        if let Some(k) = ty.float_kind() {
            if kind == Tok::Integer {
                if let Some(hex) = text.strip_prefix("0x") {
                    let bits = u64::from_str_radix(hex, 16).ok().filter(|_| hex.len() * 4 <= 64);
                    let Some(bits) = bits.filter(|b| k.width() >= 64 || *b >> k.width() == 0) else {
                        return self.error_at(loc.clone(), format!("hexadecimal float constant out of range for type '{}'", ty));
                    };
                    if neg {
                        return self.error_at(loc.clone(), "hexadecimal float literal should not have a leading minus");
                    }
                    return Ok(Attribute::new(AttrData::Float { bits, ty: ty.clone() }));
                }
                return self.error_at(loc.clone(), "unexpected decimal integer literal for a floating point value; add '.0'");
            }
            let s = if neg { format!("-{}", text) } else { text.to_string() };
            let Some(bits) = float::parse_decimal(&s, k) else {
                return self.error_at(loc.clone(), format!("decimal float literals are not supported for type '{}'; use the hex form", ty));
            };
            return Ok(Attribute::new(AttrData::Float { bits, ty: ty.clone() }));
        }
        if kind == Tok::Float {
            return self.error_at(loc.clone(), format!("floating point value not valid for specified type '{}'", ty));
        }
        let v = self.int_value(neg, text, ty, loc)?;
        Ok(Attribute::new(AttrData::Integer { value: v, ty: ty.clone() }))
    }

    /// Parses an integer literal for `ty`, checking that it fits.
    fn int_value(&self, neg: bool, text: &str, ty: &Type, loc: &Location) -> PResult<i128> {
        let (width, sign) = match ty.data() {
            TypeData::Integer { width, signedness } => (*width, *signedness),
            TypeData::Index => (64, Signedness::Signless),
            _ => return self.error_at(loc.clone(), format!("integer literal not valid for type '{}'", ty)),
        };
        if width > 127 {
            return self.error_at(loc.clone(), "integer types wider than 127 bits are not supported");
        }
        let mag = if let Some(h) = text.strip_prefix("0x") { u128::from_str_radix(h, 16) } else { text.parse::<u128>() };
        let Ok(mag) = mag else { return self.error_at(loc.clone(), "integer constant out of range") };
        let out_of_range = || self.error_at(loc.clone(), format!("integer constant out of range for attribute of type '{}'", ty));
        if mag > (1u128 << 127) - 1 {
            return out_of_range();
        }
        let v = if neg { -(mag as i128) } else { mag as i128 };
        let w = width as i128;
        let ok = match sign {
            Signedness::Unsigned => !neg && v < (1i128 << w),
            Signedness::Signed => v >= -(1i128 << (w - 1).max(0)) && v < (1i128 << (w - 1).max(0)),
            Signedness::Signless if width == 1 => v == 0 || v == 1 || v == -1,
            Signedness::Signless => v >= -(1i128 << (w - 1)) && v < (1i128 << w),
        };
        if !ok || width == 0 {
            return out_of_range();
        }
        Ok(normalize_int(v, ty))
    }

    fn parse_dense(&mut self) -> PResult<Attribute> {
        let loc = self.loc();
        self.bump();
        self.expect(Tok::Less, "'<' after 'dense'")?;
        // Either a hex string, or a nested literal list / a splat scalar, or nothing.
        enum Body {
            Hex(Vec<u8>, Location),
            Lits { lits: Vec<(Lit, Location)>, shape: Option<Vec<i64>>, splat: bool },
        }
        let body = if self.at(Tok::String) {
            let l = self.loc();
            let s = self.parse_string("hex string")?;
            let s = String::from_utf8_lossy(&s).to_string();
            let Some(bytes) = s.strip_prefix("0x").and_then(decode_hex) else {
                return self.error_at(l, "elements hex string should start with '0x' and hold whole bytes");
            };
            Body::Hex(bytes, l)
        } else if self.at(Tok::Greater) {
            Body::Lits { lits: vec![], shape: Some(vec![0]), splat: false }
        } else if self.at(Tok::LSquare) {
            let mut lits = vec![];
            let shape = self.parse_lit_list(&mut lits)?;
            Body::Lits { lits, shape: Some(shape), splat: false }
        } else {
            let l = self.parse_lit()?;
            Body::Lits { lits: vec![l], shape: None, splat: true }
        };
        self.expect(Tok::Greater, "'>' to end elements literal")?;
        let tloc = self.loc();
        if !self.at(Tok::Colon) {
            return self.error("expected ':' and an elements type after 'dense<...>'");
        }
        let ty = self.parse_colon_type()?;
        let Some(shape) = ty.shape().map(|s| s.to_vec()) else {
            return self.error_at(tloc, format!("elements literal type must be a ranked tensor or vector, got '{}'", ty));
        };
        if matches!(ty.data(), TypeData::MemRef { .. }) || shape.iter().any(|d| *d == DYNAMIC) {
            return self.error_at(tloc, "elements literal type must have a static shape");
        }
        let elem = ty.scalar().clone();
        let Some(w) = element_bytes(&elem) else {
            return self.error_at(tloc, format!("unsupported element type '{}' in dense elements", elem));
        };
        let n = ty.num_elements().unwrap_or(0) as usize;
        match body {
            Body::Hex(bytes, l) => {
                let splat = bytes.len() == w && n != 1;
                if bytes.len() != n * w && !splat {
                    return self.error_at(l, format!("elements hex data size is invalid for provided type: {} bytes for {} elements of {} bytes", bytes.len(), n, w));
                }
                let data = if splat { DenseData { bytes: Arc::from(bytes), splat: true } } else { DenseData::canonical(bytes, w, n) };
                Ok(Attribute::new(AttrData::Dense { ty, data }))
            }
            Body::Lits { lits, shape: lshape, splat } => {
                if let Some(ls) = &lshape {
                    let same = if lits.is_empty() { n == 0 } else { *ls == shape };
                    if !same {
                        return self.error_at(loc, format!("inferred shape of elements literal ({}) does not match type ({})", fmt_shape(ls), fmt_shape(&shape)));
                    }
                }
                let mut bytes = Vec::with_capacity(lits.len() * w);
                for (lit, l) in &lits {
                    self.push_element(&mut bytes, lit, &elem, w, l)?;
                }
                let data = if splat { DenseData { bytes: Arc::from(bytes), splat: n != 0 } } else { DenseData::canonical(bytes, w, n) };
                Ok(Attribute::new(AttrData::Dense { ty, data }))
            }
        }
    }

    fn push_element(&self, out: &mut Vec<u8>, lit: &Lit, elem: &Type, w: usize, loc: &Location) -> PResult<()> {
        let bits: u128 = match (lit, elem.float_kind()) {
            (Lit::Bool(b), None) if elem.int_width() == Some(1) => *b as u128,
            (Lit::Bool(_), _) => return self.error_at(loc.clone(), format!("expected {} literal, got a boolean", elem)),
            (Lit::Int { neg, text }, Some(k)) => {
                if let Some(h) = text.strip_prefix("0x") {
                    u64::from_str_radix(h, 16).unwrap_or(0) as u128
                } else {
                    let s = format!("{}{}", if *neg { "-" } else { "" }, text);
                    float::parse_decimal(&s, k).ok_or_else(|| self.error_at::<()>(loc.clone(), "unsupported float literal").unwrap_err())? as u128
                }
            }
            (Lit::Float(s), Some(k)) => float::parse_decimal(s, k)
                .ok_or_else(|| self.error_at::<()>(loc.clone(), format!("decimal float literals are not supported for '{}'", elem)).unwrap_err())?
                as u128,
            (Lit::Float(_), None) => return self.error_at(loc.clone(), format!("expected integer elements, but parsed floating-point for '{}'", elem)),
            (Lit::Int { neg, text }, None) => self.int_value(*neg, text, elem, loc)? as u128,
        };
        out.extend_from_slice(&bits.to_le_bytes()[..w]);
        Ok(())
    }

    fn parse_lit(&mut self) -> PResult<(Lit, Location)> {
        let loc = self.loc();
        if self.at_keyword("true") || self.at_keyword("false") {
            let v = self.text() == "true";
            self.bump();
            return Ok((Lit::Bool(v), loc));
        }
        let (neg, kind, text, loc) = self.parse_number_literal()?;
        Ok((if kind == Tok::Float { Lit::Float(format!("{}{}", if neg { "-" } else { "" }, text)) } else { Lit::Int { neg, text } }, loc))
    }

    /// `[..]` nested; returns the shape and checks it is rectangular.
    fn parse_lit_list(&mut self, out: &mut Vec<(Lit, Location)>) -> PResult<Vec<i64>> {
        let loc = self.loc();
        self.expect(Tok::LSquare, "'['")?;
        if self.eat(Tok::RSquare) {
            return Ok(vec![0]);
        }
        let mut inner: Option<Vec<i64>> = None;
        let mut count = 0i64;
        loop {
            let sub = if self.at(Tok::LSquare) {
                self.parse_lit_list(out)?
            } else {
                out.push(self.parse_lit()?);
                vec![]
            };
            match &inner {
                None => inner = Some(sub),
                Some(s) if *s != sub => return self.error_at(loc, "tensor literal is invalid; ranks are not consistent between elements"),
                _ => {}
            }
            count += 1;
            if !self.eat(Tok::Comma) {
                break;
            }
        }
        self.expect(Tok::RSquare, "']'")?;
        let mut shape = vec![count];
        shape.extend(inner.unwrap_or_default());
        Ok(shape)
    }

    fn parse_dense_resource(&mut self) -> PResult<Attribute> {
        self.bump();
        self.expect(Tok::Less, "'<' after 'dense_resource'")?;
        let name = match self.tok.kind {
            Tok::BareId => {
                let t = self.bump();
                self.lex.text(&t).to_string()
            }
            Tok::String => self.parse_utf8_string("resource name")?,
            _ => return self.error("expected resource handle name"),
        };
        self.expect(Tok::Greater, "'>'")?;
        let tloc = self.loc();
        if !self.at(Tok::Colon) {
            return self.error("expected ':' and a type after 'dense_resource<...>'");
        }
        let ty = self.parse_colon_type()?;
        if ty.shape().is_none() {
            return self.error_at(tloc, "dense_resource type must be a shaped type");
        }
        let resource = self.resource(&name);
        Ok(Attribute::new(AttrData::DenseResource { ty, resource }))
    }

    /// `array<i64: 1, 2>` or `array<f32>`.
    fn parse_dense_array(&mut self) -> PResult<Attribute> {
        self.bump();
        self.expect(Tok::Less, "'<' after 'array'")?;
        let tloc = self.loc();
        let elem = self.parse_type()?;
        if !(elem.is_integer() || elem.is_float()) {
            return self.error_at(tloc, "expected integer or float type in dense array");
        }
        let mut ints = vec![];
        let mut floats = vec![];
        if self.eat(Tok::Colon) {
            let lits = self.parse_comma_list(|p| p.parse_lit())?;
            for (lit, l) in lits {
                let a = match lit {
                    Lit::Bool(b) => Attribute::integer(b as i128, elem.clone()),
                    Lit::Int { neg, text } => self.make_scalar(neg, Tok::Integer, &text, &elem, &l)?,
                    Lit::Float(s) => {
                        let (neg, t) = match s.strip_prefix('-') {
                            Some(t) => (true, t.to_string()),
                            None => (false, s.clone()),
                        };
                        self.make_scalar(neg, Tok::Float, &t, &elem, &l)?
                    }
                };
                match a.data() {
                    AttrData::Integer { value, .. } => {
                        if elem.int_width().unwrap_or(64) > 64 {
                            return self.error_at(l, "dense arrays hold at most 64-bit integers");
                        }
                        ints.push(*value as i64)
                    }
                    _ => floats.push(a.as_float().unwrap_or(0.0)),
                }
            }
        }
        self.expect(Tok::Greater, "'>' to end dense array")?;
        let data = if elem.is_float() { ArrayData::Float(floats) } else { ArrayData::Int(ints) };
        Ok(Attribute::new(AttrData::DenseArray { elem, data }))
    }

    fn parse_strided(&mut self) -> PResult<Attribute> {
        self.bump();
        self.expect(Tok::Less, "'<' after 'strided'")?;
        self.expect(Tok::LSquare, "'[' for strides")?;
        let mut strides = vec![];
        if !self.at(Tok::RSquare) {
            strides = self.parse_comma_list(|p| p.parse_i64_or_dynamic())?;
        }
        self.expect(Tok::RSquare, "']' after strides")?;
        let mut offset = 0;
        if self.eat(Tok::Comma) {
            self.expect_keyword("offset")?;
            self.expect(Tok::Colon, "':' after 'offset'")?;
            offset = self.parse_i64_or_dynamic()?;
        }
        self.expect(Tok::Greater, "'>' to end strided layout")?;
        Ok(Attribute::new(AttrData::Strided { strides, offset }))
    }

    fn parse_i64_or_dynamic(&mut self) -> PResult<i64> {
        if self.eat(Tok::Question) {
            return Ok(DYNAMIC);
        }
        let (neg, kind, text, loc) = self.parse_number_literal()?;
        if kind != Tok::Integer {
            return self.error_at(loc, "expected an integer");
        }
        let v: i64 = text.parse().or_else(|_| self.error_at(loc.clone(), "integer out of range"))?;
        Ok(if neg { -v } else { v })
    }

    // ---- affine maps ----------------------------------------------------------

    /// `(d0, d1)[s0] -> (exprs)` (without the `affine_map<>` wrapper).
    pub fn parse_affine_map_body(&mut self) -> PResult<AffineMap> {
        let dims = self.parse_paren_list("dimensions", |p| Ok(p.parse_keyword("dimension identifier")?.to_string()))?;
        let mut syms = vec![];
        if self.eat(Tok::LSquare) {
            if !self.at(Tok::RSquare) {
                syms = self.parse_comma_list(|p| Ok(p.parse_keyword("symbol identifier")?.to_string()))?;
            }
            self.expect(Tok::RSquare, "']'")?;
        }
        self.expect(Tok::Arrow, "'->' in affine map")?;
        let names = AffineNames { dims, syms };
        let results = self.parse_paren_list("affine expressions", |p| p.parse_affine_expr(&names))?;
        Ok(AffineMap { num_dims: names.dims.len() as u32, num_syms: names.syms.len() as u32, results })
    }

    fn parse_affine_expr(&mut self, n: &AffineNames) -> PResult<AffineExpr> {
        let mut lhs = self.parse_affine_term(n)?;
        loop {
            if self.eat(Tok::Plus) {
                let r = self.parse_affine_term(n)?;
                lhs = AffineExpr::Add(Box::new(lhs), Box::new(r));
            } else if self.eat(Tok::Minus) {
                let r = self.parse_affine_term(n)?;
                let neg = match r {
                    AffineExpr::Const(c) => AffineExpr::Const(-c),
                    r => AffineExpr::Mul(Box::new(r), Box::new(AffineExpr::Const(-1))),
                };
                lhs = AffineExpr::Add(Box::new(lhs), Box::new(neg));
            } else {
                return Ok(lhs);
            }
        }
    }

    fn parse_affine_term(&mut self, n: &AffineNames) -> PResult<AffineExpr> {
        let mut lhs = self.parse_affine_unary(n)?;
        loop {
            let op = if self.eat(Tok::Star) {
                0
            } else if self.eat_keyword("floordiv") {
                1
            } else if self.eat_keyword("ceildiv") {
                2
            } else if self.eat_keyword("mod") {
                3
            } else {
                return Ok(lhs);
            };
            let rloc = self.loc();
            let r = self.parse_affine_unary(n)?;
            let (l, r) = (Box::new(lhs), Box::new(r));
            lhs = match op {
                0 => {
                    if !matches!(*l, AffineExpr::Const(_)) && !matches!(*r, AffineExpr::Const(_)) && !contains_only_syms(&l) && !contains_only_syms(&r) {
                        return self.error_at(rloc, "non-affine expression: at least one of the multiply operands has to be either a constant or symbolic");
                    }
                    AffineExpr::Mul(l, r)
                }
                _ => {
                    if !contains_only_syms(&r) {
                        return self.error_at(rloc, "non-affine expression: right operand of floordiv, ceildiv and mod has to be either a constant or symbolic");
                    }
                    match op {
                        1 => AffineExpr::FloorDiv(l, r),
                        2 => AffineExpr::CeilDiv(l, r),
                        _ => AffineExpr::Mod(l, r),
                    }
                }
            };
        }
    }

    fn parse_affine_unary(&mut self, n: &AffineNames) -> PResult<AffineExpr> {
        if self.eat(Tok::Minus) {
            let e = self.parse_affine_unary(n)?;
            return Ok(match e {
                AffineExpr::Const(c) => AffineExpr::Const(-c),
                e => AffineExpr::Mul(Box::new(e), Box::new(AffineExpr::Const(-1))),
            });
        }
        match self.tok.kind {
            Tok::LParen => {
                self.bump();
                let e = self.parse_affine_expr(n)?;
                self.expect(Tok::RParen, "')'")?;
                Ok(e)
            }
            Tok::Integer => {
                let t = self.bump();
                let v: i64 = self.lex.text(&t).parse().or_else(|_| self.error_at(self.loc_of(&t), "constant too large for affine expression"))?;
                Ok(AffineExpr::Const(v))
            }
            Tok::BareId => {
                let name = self.text();
                if let Some(i) = n.dims.iter().position(|d| d == name) {
                    self.bump();
                    Ok(AffineExpr::Dim(i as u32))
                } else if let Some(i) = n.syms.iter().position(|d| d == name) {
                    self.bump();
                    Ok(AffineExpr::Sym(i as u32))
                } else {
                    self.error(format!("use of undeclared identifier '{}' in affine expression", name))
                }
            }
            _ => self.error("expected affine expression"),
        }
    }
}

struct AffineNames {
    dims: Vec<String>,
    syms: Vec<String>,
}

fn contains_only_syms(e: &AffineExpr) -> bool {
    match e {
        AffineExpr::Dim(_) => false,
        AffineExpr::Sym(_) | AffineExpr::Const(_) => true,
        AffineExpr::Add(a, b) | AffineExpr::Mul(a, b) | AffineExpr::Mod(a, b) | AffineExpr::FloorDiv(a, b) | AffineExpr::CeilDiv(a, b) => {
            contains_only_syms(a) && contains_only_syms(b)
        }
    }
}

fn fmt_shape(s: &[i64]) -> String {
    format!("[{}]", s.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(", "))
}

/// Dialects whose attributes upstream tools print in ops we model (kept opaque).
const KNOWN_ATTR_DIALECTS: &[&str] = &["arith", "func", "builtin"];
