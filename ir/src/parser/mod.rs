//! Parser of MLIR's textual IR: the generic form exactly, custom forms through
//! each op's [`Assembly`](crate::dialect::Assembly). Recursive descent over the
//! [`Lexer`]'s tokens; the first error stops parsing and is reported at the
//! exact line and column (as `mlir-opt` does).

mod attributes;
mod locations;
mod top_level;
mod types;

use crate::attributes::{AttrDict, Attribute, Resource};
use crate::body::{Block, Body, InsertPoint, OpId, OperationState, Region, Value};
use crate::context::Context;
use crate::diagnostics::Diagnostic;
use crate::dialect::Trait;
use crate::lexer::{Lexer, Tok, Token};
use crate::location::Location;
use crate::types::Type;
use std::collections::HashMap;
use std::sync::Arc;

pub type PResult<T> = Result<T, Box<Diagnostic>>;

/// A parsed module: the arena and its top-level `builtin.module`.
pub struct ParsedModule {
    pub body: Body,
    pub module: OpId,
    /// The pipeline of a crash reproducer (`external_resources: { mlir_reproducer: { pipeline: "..." } }`).
    pub reproducer_pipeline: Option<String>,
}

/// Parses a whole file (or a split chunk starting at `first_line`).
pub fn parse_module(ctx: &Context, src: &str, file: &str, first_line: u32) -> PResult<ParsedModule> {
    let mut p = Parser::new(ctx, src, file, first_line);
    let module = p.parse_top_level()?;
    Ok(ParsedModule { body: p.body, module, reproducer_pipeline: p.reproducer_pipeline })
}

/// An operand named in the text, not yet bound to a value (its type comes later).
#[derive(Clone, Debug)]
pub struct UnresolvedOperand {
    pub name: String,
    pub number: u32,
    pub loc: Location,
}

/// A block or region argument as written: `%arg0: i32 loc(...)`.
#[derive(Clone, Debug)]
pub struct Argument {
    pub name: UnresolvedOperand,
    pub ty: Type,
    pub attrs: AttrDict,
    pub loc: Option<Location>,
}

#[derive(Default)]
struct Scope {
    values: HashMap<String, Vec<Value>>,
    /// Isolated scopes stop name lookup and own forward references.
    isolated: bool,
    forward: HashMap<(String, u32), (Value, Location)>,
}

struct BlockScope {
    blocks: HashMap<String, (Block, bool, Location)>,
}

enum LocFixup {
    Op(OpId),
    Arg(Value),
}

pub struct Parser<'a> {
    pub ctx: &'a Context,
    pub lex: Lexer<'a>,
    pub tok: Token,
    pub body: Body,
    file: Arc<str>,
    type_aliases: HashMap<String, Type>,
    attr_aliases: HashMap<String, Attribute>,
    loc_aliases: HashMap<String, Location>,
    loc_fixups: Vec<(LocFixup, String, Location)>,
    resources: HashMap<String, Arc<Resource>>,
    scopes: Vec<Scope>,
    block_scopes: Vec<BlockScope>,
    /// Dialects to try for unprefixed custom op names, innermost last.
    default_dialects: Vec<&'static str>,
    /// A detached block that owns placeholder values for forward references.
    placeholder_block: Option<Block>,
    reproducer_pipeline: Option<String>,
}

impl<'a> Parser<'a> {
    pub fn new(ctx: &'a Context, src: &'a str, file: &str, first_line: u32) -> Parser<'a> {
        let mut lex = Lexer::new(src, first_line);
        let tok = lex.next_token();
        Parser {
            ctx,
            lex,
            tok,
            // About one op per 40 bytes of text; reserved pages never touched cost nothing.
            body: Body::with_capacity(src.len() / 40 + 16),
            file: Arc::from(file),
            type_aliases: HashMap::new(),
            attr_aliases: HashMap::new(),
            loc_aliases: HashMap::new(),
            loc_fixups: Vec::new(),
            resources: HashMap::new(),
            scopes: vec![],
            block_scopes: vec![],
            default_dialects: vec!["builtin"],
            placeholder_block: None,
            reproducer_pipeline: None,
        }
    }

    // ---- token helpers -------------------------------------------------

    pub fn bump(&mut self) -> Token {
        let t = self.tok;
        self.tok = self.lex.next_token();
        t
    }
    pub fn at(&self, k: Tok) -> bool {
        self.tok.kind == k
    }
    pub fn text(&self) -> &'a str {
        self.lex.text(&self.tok)
    }
    pub fn at_keyword(&self, kw: &str) -> bool {
        self.tok.kind == Tok::BareId && self.text() == kw
    }
    /// The location of the current token.
    pub fn loc(&self) -> Location {
        Location::file(self.file.clone(), self.tok.line, self.tok.col)
    }
    pub fn loc_of(&self, t: &Token) -> Location {
        Location::file(self.file.clone(), t.line, t.col)
    }
    pub fn error<T>(&self, msg: impl Into<String>) -> PResult<T> {
        Err(self.error_here(msg))
    }
    pub fn error_here(&self, msg: impl Into<String>) -> Box<Diagnostic> {
        if self.tok.kind == Tok::Error {
            if let Some(e) = &self.lex.error {
                return Box::new(Diagnostic::error(self.loc(), e.clone()));
            }
        }
        Box::new(Diagnostic::error(self.loc(), msg))
    }
    pub fn error_at<T>(&self, loc: Location, msg: impl Into<String>) -> PResult<T> {
        Err(Box::new(Diagnostic::error(loc, msg)))
    }
    pub fn eat(&mut self, k: Tok) -> bool {
        if self.tok.kind == k {
            self.bump();
            true
        } else {
            false
        }
    }
    pub fn expect(&mut self, k: Tok, what: &str) -> PResult<Token> {
        if self.tok.kind == k {
            Ok(self.bump())
        } else {
            self.error(format!("expected {}", what))
        }
    }
    pub fn eat_keyword(&mut self, kw: &str) -> bool {
        if self.at_keyword(kw) {
            self.bump();
            true
        } else {
            false
        }
    }
    pub fn expect_keyword(&mut self, kw: &str) -> PResult<()> {
        if self.eat_keyword(kw) {
            Ok(())
        } else {
            self.error(format!("expected '{}'", kw))
        }
    }
    /// A bare identifier or keyword.
    pub fn parse_keyword(&mut self, what: &str) -> PResult<&'a str> {
        if self.tok.kind == Tok::BareId {
            let t = self.bump();
            Ok(self.lex.text(&t))
        } else {
            self.error(format!("expected {}", what))
        }
    }
    /// Parses `elem (, elem)*` (the caller handles the brackets).
    pub fn parse_comma_list<T>(&mut self, mut f: impl FnMut(&mut Self) -> PResult<T>) -> PResult<Vec<T>> {
        let mut v = vec![f(self)?];
        while self.eat(Tok::Comma) {
            v.push(f(self)?);
        }
        Ok(v)
    }
    /// `( elems )` or `()`.
    pub fn parse_paren_list<T>(&mut self, what: &str, f: impl FnMut(&mut Self) -> PResult<T>) -> PResult<Vec<T>> {
        self.expect(Tok::LParen, "'('")?;
        if self.eat(Tok::RParen) {
            return Ok(vec![]);
        }
        let v = self.parse_comma_list(f)?;
        self.expect(Tok::RParen, &format!("')' after {}", what))?;
        Ok(v)
    }
    /// The text of a string token, unescaped.
    pub fn parse_string(&mut self, what: &str) -> PResult<Vec<u8>> {
        let t = self.expect(Tok::String, what)?;
        let s = self.lex.text(&t);
        Ok(crate::lexer::unescape(&s[1..s.len() - 1]))
    }
    pub fn parse_utf8_string(&mut self, what: &str) -> PResult<String> {
        let loc = self.loc();
        let b = self.parse_string(what)?;
        String::from_utf8(b).or_else(|_| self.error_at(loc, "string is not valid UTF-8"))
    }

    // ---- SSA values ------------------------------------------------------

    pub fn push_scope(&mut self, isolated: bool) {
        self.scopes.push(Scope { isolated, ..Default::default() });
    }

    /// Leaves a scope; an isolated scope must have no unresolved forward references.
    pub fn pop_scope(&mut self) -> PResult<()> {
        let s = self.scopes.pop().expect("scope underflow");
        if s.isolated || self.scopes.is_empty() {
            if let Some(((name, _), (_, loc))) = s.forward.into_iter().min_by_key(|(_, (_, l))| l.file_line_col().map(|(_, a, b)| (a, b))) {
                return self.error_at(loc, format!("use of undeclared SSA value name '%{}'", name));
            }
        } else if !s.forward.is_empty() {
            // Hand forward references to the enclosing scope: they may be defined later there.
            let outer = self.scopes.last_mut().unwrap();
            outer.forward.extend(s.forward);
        }
        Ok(())
    }

    /// `%name` or `%name#3`.
    pub fn parse_operand(&mut self) -> PResult<UnresolvedOperand> {
        let loc = self.loc();
        if self.tok.kind != Tok::PercentId {
            return self.error("expected SSA operand");
        }
        let t = self.bump();
        let name = self.lex.text(&t)[1..].to_string();
        let mut number = 0;
        if self.tok.kind == Tok::HashId && self.tok.start == t.end {
            let txt = &self.text()[1..];
            number = match txt.parse::<u32>() {
                Ok(n) => n,
                Err(_) => return self.error("invalid SSA value result number"),
            };
            self.bump();
        }
        Ok(UnresolvedOperand { name, number, loc })
    }

    pub fn parse_optional_operand(&mut self) -> PResult<Option<UnresolvedOperand>> {
        if self.at(Tok::PercentId) {
            self.parse_operand().map(Some)
        } else {
            Ok(None)
        }
    }

    /// Finds or forward-declares the value an operand names, checking its type.
    pub fn resolve_operand(&mut self, u: &UnresolvedOperand, ty: &Type) -> PResult<Value> {
        let mut found = None;
        for s in self.scopes.iter().rev() {
            if let Some(vs) = s.values.get(&u.name) {
                found = Some(vs.get(u.number as usize).copied().ok_or(vs.len()));
                break;
            }
            if s.isolated {
                break;
            }
        }
        match found {
            Some(Ok(v)) => {
                let vt = self.body.value_type(v);
                if vt != ty {
                    return self.error_at(
                        u.loc.clone(),
                        format!("use of value '%{}' expects different type than prior uses: '{}' vs '{}'", u.name, ty, vt),
                    );
                }
                Ok(v)
            }
            Some(Err(n)) => self.error_at(
                u.loc.clone(),
                format!("reference to invalid result number {} of '%{}' ({} results)", u.number, u.name, n),
            ),
            None => {
                // Forward reference: a placeholder, replaced when the definition is seen.
                let key = (u.name.clone(), u.number);
                let idx = self.scopes.iter().rposition(|s| s.isolated).unwrap_or(0);
                if let Some((v, _)) = self.scopes.iter().rev().find_map(|s| s.forward.get(&key)) {
                    let v = *v;
                    let vt = self.body.value_type(v);
                    if vt != ty {
                        return self.error_at(
                            u.loc.clone(),
                            format!("use of value '%{}' expects different type than prior uses: '{}' vs '{}'", u.name, ty, vt),
                        );
                    }
                    return Ok(v);
                }
                let pb = match self.placeholder_block {
                    Some(b) => b,
                    None => {
                        let b = self.body.new_block(&[]);
                        self.placeholder_block = Some(b);
                        b
                    }
                };
                let v = self.body.add_block_arg(pb, ty.clone(), None);
                let _ = idx;
                self.scopes.last_mut().expect("no scope").forward.insert(key, (v, u.loc.clone()));
                Ok(v)
            }
        }
    }

    /// Binds names to newly defined values (results or block arguments).
    pub fn define_values(&mut self, name: &str, loc: &Location, vals: &[Value]) -> PResult<()> {
        let scope = self.scopes.last_mut().expect("no scope");
        if scope.values.contains_key(name) {
            return self.error_at(loc.clone(), format!("redefinition of SSA value '%{}'", name));
        }
        scope.values.insert(name.to_string(), vals.to_vec());
        // A forward use of a result number this definition does not have.
        let bad = self
            .scopes
            .iter()
            .flat_map(|s| s.forward.iter())
            .filter(|((n, k), _)| n == name && *k as usize >= vals.len())
            .map(|((_, k), (_, l))| (*k, l.clone()))
            .next();
        if let Some((k, l)) = bad {
            return self.error_at(l, format!("reference to invalid result number {} of '%{}' ({} results)", k, name, vals.len()));
        }
        for (i, v) in vals.iter().enumerate() {
            let key = (name.to_string(), i as u32);
            let fwd = self.scopes.iter_mut().rev().find_map(|s| s.forward.remove(&key));
            if let Some((ph, uloc)) = fwd {
                let (pt, vt) = (self.body.value_type(ph).clone(), self.body.value_type(*v).clone());
                if pt != vt {
                    return self.error_at(
                        uloc,
                        format!("use of value '%{}' expects different type than prior uses: '{}' vs '{}'", name, pt, vt),
                    );
                }
                self.body.replace_all_uses(ph, *v);
            }
        }
        Ok(())
    }

    // ---- operations ------------------------------------------------------

    /// Parses one operation and appends it to `block`.
    pub fn parse_operation(&mut self, block: Block) -> PResult<OpId> {
        let start = self.tok;
        let mut result_names: Vec<(String, u32, Location)> = Vec::new();
        if self.at(Tok::PercentId) {
            loop {
                let loc = self.loc();
                let t = self.bump();
                let name = self.lex.text(&t)[1..].to_string();
                let mut count = 1;
                if self.eat(Tok::Colon) {
                    let ct = self.expect(Tok::Integer, "integer number of results")?;
                    count = match self.lex.text(&ct).parse::<u32>() {
                        Ok(n) if n > 0 => n,
                        _ => return self.error_at(self.loc_of(&ct), "expected a positive number of results"),
                    };
                }
                result_names.push((name, count, loc));
                if !self.eat(Tok::Comma) {
                    break;
                }
                if !self.at(Tok::PercentId) {
                    return self.error("expected SSA value name");
                }
            }
            self.expect(Tok::Equal, "'=' after SSA names")?;
        }
        let op_loc = self.loc_of(&start);
        let op = match self.tok.kind {
            Tok::String => self.parse_generic_operation(op_loc)?,
            Tok::BareId => self.parse_custom_operation(op_loc)?,
            _ => return self.error("expected operation name in quotes"),
        };
        self.body.insert(op, InsertPoint::AtEnd(block));
        self.parse_trailing_loc_for(|_| LocFixupTarget::Op(op))?;
        // Bind result names.
        let results: Vec<Value> = self.body.op(op).results().to_vec();
        let expected: u32 = result_names.iter().map(|r| r.1).sum();
        if !result_names.is_empty() && expected as usize != results.len() {
            return self.error_at(
                self.loc_of(&start),
                format!("operation defines {} results but was provided {} to bind", results.len(), expected),
            );
        }
        let mut i = 0;
        for (name, count, loc) in result_names {
            let vals = results[i..i + count as usize].to_vec();
            i += count as usize;
            self.define_values(&name, &loc, &vals)?;
        }
        Ok(op)
    }

    fn check_op_name_allowed(&self, name: &str, loc: &Location) -> PResult<()> {
        if self.ctx.lookup_op(name).is_some() {
            return Ok(());
        }
        let dialect = name.split('.').next().unwrap_or("");
        if !name.contains('.') {
            return self.error_at(loc.clone(), format!("operation name '{}' has no dialect prefix", name));
        }
        if self.ctx.allow_unregistered {
            return Ok(());
        }
        if self.ctx.is_dialect_registered(dialect) {
            return self.error_at(
                loc.clone(),
                format!("unregistered operation '{}' found in dialect ('{}') that does not allow unknown operations", name, dialect),
            );
        }
        self.error_at(
            loc.clone(),
            format!("operation being parsed with an unregistered dialect ('{}'); use --allow-unregistered-dialect to allow it", name),
        )
    }

    fn parse_generic_operation(&mut self, loc: Location) -> PResult<OpId> {
        let name_loc = self.loc();
        let raw = self.parse_string("operation name")?;
        let name = String::from_utf8(raw).or_else(|_| self.error_at(name_loc.clone(), "invalid operation name"))?;
        if name.is_empty() {
            return self.error_at(name_loc, "empty operation name is invalid");
        }
        self.check_op_name_allowed(&name, &name_loc)?;
        let op_name = self.ctx.op_name(&name);
        let operands = self.parse_paren_list("operands", |p| p.parse_operand())?;
        let mut st = OperationState::new(op_name, loc);
        if self.eat(Tok::LSquare) {
            st.successors = self.parse_comma_list(|p| p.parse_successor())?;
            self.expect(Tok::RSquare, "']' after successors")?;
        }
        if self.at(Tok::Less) {
            self.bump();
            if !self.at(Tok::LBrace) {
                return self.error("expected '{' to start properties");
            }
            st.properties = self.parse_attr_dict()?;
            self.expect(Tok::Greater, "'>' to close properties")?;
        }
        let isolated = op_name.def().is_some_and(|d| d.has_trait(Trait::IsolatedFromAbove));
        let default_dialect = op_name.def().and_then(|d| d.default_dialect);
        if self.at(Tok::LParen) {
            self.bump();
            loop {
                let r = self.parse_region_with_dialect(&[], isolated, default_dialect)?;
                st.regions.push(r);
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
            self.expect(Tok::RParen, "')' to end region list")?;
        }
        if self.at(Tok::LBrace) {
            st.attributes = self.parse_attr_dict()?;
        }
        self.expect(Tok::Colon, "':' followed by operation type")?;
        let tloc = self.loc();
        let fty = self.parse_type()?;
        let Some((ins, outs)) = fty.function_parts() else {
            return self.error_at(tloc, "expected function type");
        };
        if ins.len() != operands.len() {
            return self.error_at(
                tloc,
                format!("expected {} operand type{} but had {}", operands.len(), if operands.len() == 1 { "" } else { "s" }, ins.len()),
            );
        }
        for (u, t) in operands.iter().zip(ins.iter()) {
            let v = self.resolve_operand(u, t)?;
            st.operands.push(v);
        }
        st.result_types = outs.to_vec();
        Ok(self.body.create_op(st))
    }

    fn parse_custom_operation(&mut self, loc: Location) -> PResult<OpId> {
        let name_loc = self.loc();
        let written = self.text();
        let mut found = self.ctx.lookup_op(written);
        if found.is_none() {
            for d in self.default_dialects.iter().rev() {
                if let Some(n) = self.ctx.lookup_op(&format!("{}.{}", d, written)) {
                    found = Some(n);
                    break;
                }
            }
        }
        let Some(name) = found else {
            return self.error(format!("custom op '{}' is unknown", written));
        };
        let Some(asm) = name.def().and_then(|d| d.assembly) else {
            return self.error_at(name_loc, format!("'{}' has no custom assembly form; use the generic form", name));
        };
        self.bump();
        let st = (asm.parse)(self, OperationState::new(name, loc))?;
        Ok(self.body.create_op(st))
    }

    /// `^bb3` as a branch target (forward references allowed).
    pub fn parse_successor(&mut self) -> PResult<Block> {
        let loc = self.loc();
        if !self.at(Tok::CaretId) {
            return self.error("expected block name");
        }
        let t = self.bump();
        let name = self.lex.text(&t).to_string();
        Ok(self.lookup_block(&name, loc, false)?)
    }

    fn lookup_block(&mut self, name: &str, loc: Location, defining: bool) -> PResult<Block> {
        let scope = self.block_scopes.last_mut().expect("no block scope");
        match scope.blocks.get_mut(name) {
            Some((b, defined, _)) => {
                if defining {
                    if *defined {
                        let b = *b;
                        let _ = b;
                        return self.error_at(loc, format!("redefinition of block '{}'", name));
                    }
                    *defined = true;
                }
                Ok(*b)
            }
            None => {
                let b = self.body.new_block(&[]);
                scope.blocks.insert(name.to_string(), (b, defining, loc));
                Ok(b)
            }
        }
    }

    // ---- regions -----------------------------------------------------------

    /// Parses `{ ... }` with the given entry arguments (custom forms pass them).
    pub fn parse_region(&mut self, entry_args: &[Argument], isolated: bool) -> PResult<Region> {
        self.parse_region_with_dialect(entry_args, isolated, None)
    }

    pub fn parse_region_with_dialect(
        &mut self,
        entry_args: &[Argument],
        isolated: bool,
        default_dialect: Option<&'static str>,
    ) -> PResult<Region> {
        self.expect(Tok::LBrace, "'{' to begin a region")?;
        let region = self.body.new_region();
        self.push_scope(isolated);
        self.block_scopes.push(BlockScope { blocks: HashMap::new() });
        if let Some(d) = default_dialect {
            self.default_dialects.push(d);
        }
        let r = self.parse_region_body(region, entry_args);
        if default_dialect.is_some() {
            self.default_dialects.pop();
        }
        r?;
        let bs = self.block_scopes.pop().unwrap();
        if let Some((name, (_, _, loc))) = bs.blocks.iter().filter(|(_, (_, d, _))| !d).min_by_key(|(n, _)| n.as_str()) {
            return self.error_at(loc.clone(), format!("reference to an undefined block '{}'", name));
        }
        self.pop_scope()?;
        Ok(region)
    }

    fn parse_region_body(&mut self, region: Region, entry_args: &[Argument]) -> PResult<()> {
        if self.eat(Tok::RBrace) {
            if !entry_args.is_empty() {
                // A declaration-like op with arguments but no body: nothing to bind.
            }
            return Ok(());
        }
        // Entry block: explicit header, or implicit.
        if !self.at(Tok::CaretId) || !entry_args.is_empty() {
            let b = self.body.add_block(region, &[]);
            for a in entry_args {
                let v = self.body.add_block_arg(b, a.ty.clone(), a.loc.clone());
                self.define_values(&a.name.name, &a.name.loc, &[v])?;
            }
            if !entry_args.is_empty() && self.at(Tok::CaretId) {
                // Custom forms give the entry block implicitly; a label here starts a second block.
            }
            self.parse_block_ops(b)?;
        }
        while self.at(Tok::CaretId) {
            self.parse_block(region)?;
        }
        self.expect(Tok::RBrace, "'}' to end a region")?;
        Ok(())
    }

    fn parse_block(&mut self, region: Region) -> PResult<()> {
        let loc = self.loc();
        let t = self.bump();
        let name = self.lex.text(&t).to_string();
        let b = self.lookup_block(&name, loc, true)?;
        self.body.append_block(region, b);
        if self.at(Tok::LParen) {
            self.bump();
            if !self.at(Tok::RParen) {
                self.parse_comma_list(|p| {
                    let u = p.parse_operand()?;
                    if u.number != 0 {
                        return p.error_at(u.loc.clone(), "invalid block argument name");
                    }
                    p.expect(Tok::Colon, "':' and type for SSA value")?;
                    let ty = p.parse_type()?;
                    let v = p.body.add_block_arg(b, ty, Some(u.loc.clone()));
                    p.parse_trailing_loc_for(|_| LocFixupTarget::Arg(v))?;
                    p.define_values(&u.name, &u.loc, &[v])
                })?;
            }
            self.expect(Tok::RParen, "')' to end argument list")?;
        }
        self.expect(Tok::Colon, "':' after block name")?;
        self.parse_block_ops(b)
    }

    fn parse_block_ops(&mut self, b: Block) -> PResult<()> {
        while !matches!(self.tok.kind, Tok::CaretId | Tok::RBrace | Tok::Eof) {
            self.parse_operation(b)?;
        }
        if self.at(Tok::Eof) {
            return self.error("expected '}' to end a region");
        }
        Ok(())
    }

    // ---- helpers for custom forms -------------------------------------------

    /// `%name : type {attrs} loc(...)` as in a function signature.
    pub fn parse_argument(&mut self, with_attrs: bool) -> PResult<Argument> {
        let name = self.parse_operand()?;
        if name.number != 0 {
            return self.error_at(name.loc.clone(), "expected an argument name without '#'");
        }
        self.expect(Tok::Colon, "':'")?;
        let ty = self.parse_type()?;
        let attrs = if with_attrs && self.at(Tok::LBrace) { self.parse_attr_dict()? } else { AttrDict::new() };
        let loc = if self.at_keyword("loc") { Some(self.parse_loc()?) } else { Some(name.loc.clone()) };
        Ok(Argument { name, ty, attrs, loc })
    }

    /// `attributes {...}` if present.
    pub fn parse_optional_attr_dict_with_keyword(&mut self) -> PResult<AttrDict> {
        if self.eat_keyword("attributes") {
            self.parse_attr_dict()
        } else {
            Ok(AttrDict::new())
        }
    }

    /// `{...}` if present.
    pub fn parse_optional_attr_dict(&mut self) -> PResult<AttrDict> {
        if self.at(Tok::LBrace) {
            self.parse_attr_dict()
        } else {
            Ok(AttrDict::new())
        }
    }

    /// `@name` if present.
    pub fn parse_optional_symbol_name(&mut self) -> PResult<Option<String>> {
        if !self.at(Tok::AtId) {
            return Ok(None);
        }
        let t = self.bump();
        Ok(Some(self.symbol_text(&t)))
    }

    pub(crate) fn symbol_text(&self, t: &Token) -> String {
        let s = &self.lex.text(t)[1..];
        if let Some(q) = s.strip_prefix('"') {
            String::from_utf8_lossy(&crate::lexer::unescape(&q[..q.len() - 1])).to_string()
        } else {
            s.to_string()
        }
    }
}

enum LocFixupTarget {
    Op(OpId),
    Arg(Value),
}

pub(crate) fn decode_hex(hex: &str) -> Option<Vec<u8>> {
    if hex.len() % 2 != 0 {
        return None;
    }
    let b = hex.as_bytes();
    let nib = |c: u8| -> Option<u8> {
        match c {
            b'0'..=b'9' => Some(c - b'0'),
            b'a'..=b'f' => Some(c - b'a' + 10),
            b'A'..=b'F' => Some(c - b'A' + 10),
            _ => None,
        }
    };
    let mut out = Vec::with_capacity(b.len() / 2);
    for i in (0..b.len()).step_by(2) {
        out.push(nib(b[i])? << 4 | nib(b[i + 1])?);
    }
    Some(out)
}
