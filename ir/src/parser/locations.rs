//! Location syntax: `loc(unknown)`, `loc("f":1:2)`, `loc("name"(child))`,
//! `loc(fused<meta>[...])`, `loc(callsite(a at b))` and `loc(#alias)`.

use super::{PResult, Parser};
use crate::lexer::Tok;
use crate::location::{LocData, Location};

impl<'a> Parser<'a> {
    /// `loc(...)`.
    pub fn parse_loc(&mut self) -> PResult<Location> {
        self.expect_keyword("loc")?;
        self.expect(Tok::LParen, "'(' in location")?;
        let l = self.parse_loc_inner()?;
        self.expect(Tok::RParen, "')' in location")?;
        Ok(l)
    }

    pub(crate) fn parse_loc_inner(&mut self) -> PResult<Location> {
        match self.tok.kind {
            Tok::HashId => {
                let t = self.bump();
                let name = &self.lex.text(&t)[1..];
                match self.loc_aliases.get(name) {
                    Some(l) => Ok(l.clone()),
                    None => self.error_at(self.loc_of(&t), format!("undefined location alias '#{}'", name)),
                }
            }
            Tok::String => {
                let s = self.parse_utf8_string("location")?;
                if self.eat(Tok::Colon) {
                    let line = self.parse_u32("line number")?;
                    self.expect(Tok::Colon, "':' and column number")?;
                    let col = self.parse_u32("column number")?;
                    return Ok(Location::file(s.into(), line, col));
                }
                if self.eat(Tok::LParen) {
                    let child = self.parse_loc_inner()?;
                    self.expect(Tok::RParen, "')' after child location")?;
                    return Ok(Location::new(LocData::Name { name: s, child: Some(child) }));
                }
                Ok(Location::new(LocData::Name { name: s, child: None }))
            }
            Tok::BareId => match self.text() {
                "unknown" => {
                    self.bump();
                    Ok(Location::unknown())
                }
                "fused" => {
                    self.bump();
                    let mut metadata = None;
                    if self.eat(Tok::Less) {
                        metadata = Some(self.parse_attribute(None)?);
                        self.expect(Tok::Greater, "'>' after fused location metadata")?;
                    }
                    self.expect(Tok::LSquare, "'[' in fused location")?;
                    let locs = if self.at(Tok::RSquare) { vec![] } else { self.parse_comma_list(|p| p.parse_loc_inner())? };
                    self.expect(Tok::RSquare, "']' in fused location")?;
                    Ok(Location::new(LocData::Fused { locs, metadata }))
                }
                "callsite" => {
                    self.bump();
                    self.expect(Tok::LParen, "'(' in callsite location")?;
                    let callee = self.parse_loc_inner()?;
                    self.expect_keyword("at")?;
                    let caller = self.parse_loc_inner()?;
                    self.expect(Tok::RParen, "')' in callsite location")?;
                    Ok(Location::new(LocData::CallSite { callee, caller }))
                }
                _ => self.error("expected location instance"),
            },
            _ => self.error("expected location instance"),
        }
    }

    fn parse_u32(&mut self, what: &str) -> PResult<u32> {
        let t = self.expect(Tok::Integer, what)?;
        self.lex.text(&t).parse().or_else(|_| self.error_at(self.loc_of(&t), format!("{} out of range", what)))
    }
}
