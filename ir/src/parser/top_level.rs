//! The top level of a module: its operations, attribute and type alias
//! definitions, the file metadata (`{-# dialect_resources ... #-}`) and the
//! trailing locations (`loc(#alias)`) resolved once every alias is known.

use super::*;

impl<'a> Parser<'a> {

    pub(super) fn parse_top_level(&mut self) -> PResult<OpId> {
        let region = self.body.new_region();
        let block = self.body.add_block(region, &[]);
        self.push_scope(true);
        self.block_scopes.push(BlockScope { blocks: HashMap::new() });
        loop {
            match self.tok.kind {
                Tok::Eof => break,
                Tok::HashId => self.parse_attribute_alias_def()?,
                Tok::ExclId => self.parse_type_alias_def()?,
                Tok::FileMetadataBegin => self.parse_file_metadata()?,
                _ => {
                    self.parse_operation(block)?;
                }
            }
        }
        self.pop_scope()?;
        self.block_scopes.pop();
        self.apply_loc_fixups()?;
        self.check_resources()?;
        // One explicit module is the top; anything else is wrapped in an implicit module.
        let ops: Vec<OpId> = self.body.block_ops(block).collect();
        if ops.len() == 1 && self.body.name(ops[0]).as_str() == "builtin.module" {
            self.body.detach(ops[0]);
            return Ok(ops[0]);
        }
        let name = self.ctx.op_name("builtin.module");
        // An implicit module is located at the start of the buffer, as upstream does.
        let loc = Location::file(self.file.clone(), 1, 1);
        let st = OperationState::new(name, loc).region(region);
        Ok(self.body.create_op(st))
    }

    fn parse_attribute_alias_def(&mut self) -> PResult<()> {
        let t = self.bump();
        let name = self.lex.text(&t)[1..].to_string();
        if name.contains('.') {
            return self.error_at(self.loc_of(&t), "expected attribute alias name without '.'");
        }
        self.expect(Tok::Equal, "'=' in attribute alias definition")?;
        if self.at_keyword("loc") {
            let l = self.parse_loc()?;
            self.loc_aliases.insert(name, l);
            return Ok(());
        }
        if self.attr_aliases.contains_key(&name) {
            return self.error_at(self.loc_of(&t), format!("redefinition of attribute alias id '{}'", name));
        }
        let a = self.parse_attribute(None)?;
        self.attr_aliases.insert(name, a);
        Ok(())
    }

    fn parse_type_alias_def(&mut self) -> PResult<()> {
        let t = self.bump();
        let name = self.lex.text(&t)[1..].to_string();
        self.expect(Tok::Equal, "'=' in type alias definition")?;
        if self.type_aliases.contains_key(&name) {
            return self.error_at(self.loc_of(&t), format!("redefinition of type alias id '{}'", name));
        }
        let ty = self.parse_type()?;
        self.type_aliases.insert(name, ty);
        Ok(())
    }

    /// `{-# dialect_resources: { builtin: { name: "0x..." } } #-}`.
    fn parse_file_metadata(&mut self) -> PResult<()> {
        self.bump();
        if !self.at(Tok::FileMetadataEnd) {
            self.parse_comma_list(|p| {
                let kind_loc = p.loc();
                let kind = p.parse_keyword("'dialect_resources' or 'external_resources'")?;
                p.expect(Tok::Colon, "':'")?;
                p.expect(Tok::LBrace, "'{'")?;
                if !p.at(Tok::RBrace) {
                    p.parse_comma_list(|p| {
                        let dialect = p.parse_keyword("a dialect name")?;
                        p.expect(Tok::Colon, "':'")?;
                        p.expect(Tok::LBrace, "'{'")?;
                        if !p.at(Tok::RBrace) {
                            p.parse_comma_list(|p| p.parse_resource_entry(kind, dialect))?;
                        }
                        p.expect(Tok::RBrace, "'}'")?;
                        Ok(())
                    })?;
                }
                p.expect(Tok::RBrace, "'}'")?;
                if kind != "dialect_resources" && kind != "external_resources" {
                    return p.error_at(kind_loc, format!("unknown file metadata section '{}'", kind));
                }
                Ok(())
            })?;
        }
        self.expect(Tok::FileMetadataEnd, "'#-}' closing the file metadata")?;
        Ok(())
    }

    fn parse_resource_entry(&mut self, kind: &str, dialect: &str) -> PResult<()> {
        let loc = self.loc();
        let name = if self.at(Tok::String) {
            self.parse_utf8_string("resource name")?
        } else {
            self.parse_keyword("a resource name")?.to_string()
        };
        self.expect(Tok::Colon, "':'")?;
        let vloc = self.loc();
        if kind == "external_resources" {
            return self.parse_external_resource(dialect, &name);
        }
        if dialect != "builtin" {
            // Blobs of other dialects: accepted and dropped.
            self.expect(Tok::String, "a hex string resource blob")?;
            return Ok(());
        }
        let text = self.parse_string("a hex string resource blob")?;
        let text = String::from_utf8_lossy(&text).to_string();
        let Some(hex) = text.strip_prefix("0x") else {
            return self.error_at(vloc, "expected hex string blob for resource");
        };
        let bytes = match decode_hex(hex) {
            Some(b) if b.len() >= 4 => b,
            _ => return self.error_at(vloc, "malformed resource blob: expected hex digits with a 4-byte alignment prefix"),
        };
        let align = u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
        let res = self.resource(&name);
        if res.blob.set(crate::attributes::Blob { alignment: align, data: Arc::new(bytes[4..].to_vec()) }).is_err() {
            return self.error_at(loc, format!("duplicate resource '{}'", name));
        }
        Ok(())
    }

    /// The value of entry `key` of external resource group `group` (after the
    /// colon). Keeps `mlir_reproducer`'s `pipeline`; other values are accepted.
    fn parse_external_resource(&mut self, group: &str, key: &str) -> PResult<()> {
        let value = match self.tok.kind {
            Tok::String => self.parse_utf8_string("a string")?,
            Tok::BareId | Tok::Integer => {
                let t = self.bump();
                self.lex.text(&t).to_string()
            }
            _ => return self.error("expected a string, boolean or integer resource value"),
        };
        if group == "mlir_reproducer" && key == "pipeline" {
            self.reproducer_pipeline = Some(value);
        }
        Ok(())
    }

    pub(crate) fn resource(&mut self, name: &str) -> Arc<Resource> {
        self.resources
            .entry(name.to_string())
            .or_insert_with(|| Arc::new(Resource { name: name.to_string(), blob: Default::default() }))
            .clone()
    }

    fn check_resources(&self) -> PResult<()> {
        // A referenced resource without data is allowed by MLIR (elided blobs);
        // we keep it and print it without a blob.
        Ok(())
    }

    fn apply_loc_fixups(&mut self) -> PResult<()> {
        for (target, name, at) in std::mem::take(&mut self.loc_fixups) {
            let Some(l) = self.loc_aliases.get(&name).cloned() else {
                return self.error_at(at, format!("undefined location alias '#{}'", name));
            };
            match target {
                LocFixup::Op(op) => self.body.op_mut(op).loc = l,
                LocFixup::Arg(v) => self.body.set_value_loc(v, l),
            }
        }
        Ok(())
    }

    /// An optional trailing `loc(...)`; aliases not yet defined are patched at the end.
    pub(super) fn parse_trailing_loc_for(&mut self, target: impl FnOnce(&mut Body) -> LocFixupTarget) -> PResult<()> {
        if !self.at_keyword("loc") {
            return Ok(());
        }
        let at = self.loc();
        self.bump();
        self.expect(Tok::LParen, "'(' in location")?;
        if self.at(Tok::HashId) {
            let t = self.bump();
            let name = self.lex.text(&t)[1..].to_string();
            self.expect(Tok::RParen, "')' in location")?;
            let tgt = target(&mut self.body);
            match self.loc_aliases.get(&name).cloned() {
                Some(l) => match tgt {
                    LocFixupTarget::Op(o) => self.body.op_mut(o).loc = l,
                    LocFixupTarget::Arg(v) => self.body.set_value_loc(v, l),
                },
                None => self.loc_fixups.push((
                    match tgt {
                        LocFixupTarget::Op(o) => LocFixup::Op(o),
                        LocFixupTarget::Arg(v) => LocFixup::Arg(v),
                    },
                    name,
                    at,
                )),
            }
            return Ok(());
        }
        let l = self.parse_loc_inner()?;
        self.expect(Tok::RParen, "')' in location")?;
        match target(&mut self.body) {
            LocFixupTarget::Op(o) => self.body.op_mut(o).loc = l,
            LocFixupTarget::Arg(v) => self.body.set_value_loc(v, l),
        }
        Ok(())
    }
}
