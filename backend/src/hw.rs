//! A backend's hardware description: the keys it declares
//! ([`crate::Backend::hw_keys`], each with a type, a default, a range and a
//! line of docs), their values checked on the way in (`--set acme.array=64`,
//! a module attribute written by hand), and carried on the module as
//! `backend.hw.<backend> = {key = value, ...}` so that every pass, the
//! capability query and `compile` read the same values from the IR.

use ir::attributes::{AttrData, AttrDict, Attribute};
use ir::{Body, Context, OpId};

/// A value of a key: the types a description holds.
#[derive(Clone, Debug, PartialEq)]
pub enum HwValue {
    Int(i64),
    Float(f64),
    Bool(bool),
    Str(String),
}

impl HwValue {
    fn kind(&self) -> &'static str {
        match self {
            HwValue::Int(_) => "an integer",
            HwValue::Float(_) => "a number",
            HwValue::Bool(_) => "true or false",
            HwValue::Str(_) => "a string",
        }
    }

    /// `text` read as a value of the same type as `self`.
    fn parse_like(&self, text: &str) -> Option<HwValue> {
        let t = text.trim();
        Some(match self {
            HwValue::Int(_) => HwValue::Int(t.parse().ok()?),
            HwValue::Float(_) => HwValue::Float(t.parse::<f64>().ok().filter(|f| f.is_finite())?),
            HwValue::Bool(_) => HwValue::Bool(t.parse().ok()?),
            HwValue::Str(_) => HwValue::Str(t.to_string()),
        })
    }

    fn to_attr(&self, ctx: &Context) -> Attribute {
        match self {
            HwValue::Int(i) => Attribute::integer(*i as i128, ctx.i64()),
            HwValue::Float(f) => Attribute::float(*f, ctx.f64()),
            HwValue::Bool(b) => Attribute::integer(*b as i128, ctx.i1()),
            HwValue::Str(s) => Attribute::string(s),
        }
    }

    /// An attribute read as a value of the same type as `self`.
    fn from_attr_like(&self, a: &Attribute) -> Option<HwValue> {
        Some(match (self, a.data()) {
            (HwValue::Bool(_), AttrData::Integer { .. }) => HwValue::Bool(a.as_int()? != 0),
            (HwValue::Int(_), AttrData::Integer { .. }) => HwValue::Int(i64::try_from(a.as_int()?).ok()?),
            (HwValue::Float(_), AttrData::Float { .. }) => HwValue::Float(a.as_float().filter(|f| f.is_finite())?),
            (HwValue::Float(_), AttrData::Integer { .. }) => HwValue::Float(a.as_int()? as f64),
            (HwValue::Str(_), _) => HwValue::Str(a.as_str()?.to_string()),
            _ => return None,
        })
    }
}

impl std::fmt::Display for HwValue {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            HwValue::Int(i) => write!(f, "{}", i),
            HwValue::Float(x) => write!(f, "{}", x),
            HwValue::Bool(b) => write!(f, "{}", b),
            HwValue::Str(s) => write!(f, "{:?}", s),
        }
    }
}

/// One key of a backend's description.
#[derive(Clone, Debug)]
pub struct HwKey {
    pub name: &'static str,
    /// Its type and the value when none is given.
    pub default: HwValue,
    /// Inclusive bounds of a number.
    pub range: Option<(f64, f64)>,
    pub doc: &'static str,
}

impl HwKey {
    fn check(&self, backend: &str, v: &HwValue) -> Result<(), String> {
        let x = match v {
            HwValue::Int(i) => *i as f64,
            HwValue::Float(f) => *f,
            _ => return Ok(()),
        };
        match self.range {
            Some((lo, hi)) if !(lo..=hi).contains(&x) => Err(format!("{}.{} = {}: out of range [{}, {}] ({})", backend, self.name, v, lo, hi, self.doc)),
            _ => Ok(()),
        }
    }
}

/// A backend's description: every key it declares, with its value.
#[derive(Clone, Debug, PartialEq)]
pub struct HwDesc {
    pub backend: String,
    pub values: Vec<(String, HwValue)>,
}

/// The module attribute that carries backend `name`'s description.
pub fn attr_name(backend: &str) -> String {
    format!("backend.hw.{}", backend)
}

fn known(keys: &[HwKey]) -> String {
    keys.iter().map(|k| k.name).collect::<Vec<_>>().join(", ")
}

impl HwDesc {
    /// Every key at its default.
    pub fn defaults(backend: &str, keys: &[HwKey]) -> HwDesc {
        HwDesc { backend: backend.to_string(), values: keys.iter().map(|k| (k.name.to_string(), k.default.clone())).collect() }
    }

    fn slot<'k>(&mut self, keys: &'k [HwKey], key: &str) -> Result<(&'k HwKey, &mut HwValue), String> {
        let k = keys.iter().find(|k| k.name == key).ok_or_else(|| format!("backend '{}' has no hardware key '{}'; its keys: {}", self.backend, key, known(keys)))?;
        let v = self.values.iter_mut().find(|(n, _)| n == key).map(|(_, v)| v).ok_or_else(|| format!("no value for {}.{}", self.backend, key))?;
        Ok((k, v))
    }

    /// `key=value` (the text after `--set BACKEND.`), checked against `keys`.
    pub fn set(&mut self, keys: &[HwKey], assignment: &str) -> Result<(), String> {
        let (key, text) = assignment.split_once('=').ok_or_else(|| format!("expected {}.KEY=VALUE, got '{}'", self.backend, assignment))?;
        let backend = self.backend.clone();
        let (k, slot) = self.slot(keys, key.trim())?;
        let v = slot.parse_like(text).ok_or_else(|| format!("{}.{} = {}: expected {} ({})", backend, k.name, text.trim(), k.default.kind(), k.doc))?;
        k.check(&backend, &v)?;
        *slot = v;
        Ok(())
    }

    pub fn get(&self, key: &str) -> Option<&HwValue> {
        self.values.iter().find(|(n, _)| n == key).map(|(_, v)| v)
    }

    /// An integer key's value (a backend reads its own keys, so a missing one is its bug, reported).
    pub fn int(&self, key: &str) -> Result<i64, String> {
        match self.get(key) {
            Some(HwValue::Int(i)) => Ok(*i),
            _ => Err(format!("backend '{}': no integer hardware key '{}'", self.backend, key)),
        }
    }

    pub fn to_attr(&self, ctx: &Context) -> Attribute {
        let mut d = AttrDict::new();
        for (k, v) in &self.values {
            d.set(ctx.ident(k), v.to_attr(ctx));
        }
        Attribute::new(AttrData::Dict(d))
    }

    /// The description on `module` (defaults for keys it does not give);
    /// an unknown key or a value of the wrong type or range is an error.
    pub fn of_module(body: &Body, module: OpId, backend: &str, keys: &[HwKey]) -> Result<HwDesc, String> {
        let mut desc = HwDesc::defaults(backend, keys);
        let Some(a) = body.op(module).attr(&attr_name(backend)) else { return Ok(desc) };
        let d = a.as_dict().ok_or_else(|| format!("{} is not a dictionary", attr_name(backend)))?;
        for (name, value) in d.iter() {
            let (k, slot) = desc.slot(keys, name.as_str())?;
            let v = slot.from_attr_like(value).ok_or_else(|| format!("{}.{}: expected {} ({})", backend, k.name, k.default.kind(), k.doc))?;
            k.check(backend, &v)?;
            *slot = v;
        }
        Ok(desc)
    }
}

/// The module an op is in (the outermost op above it).
pub fn module_of(body: &Body, op: OpId) -> OpId {
    let mut m = op;
    while let Some(p) = body.parent_op(m) {
        m = p;
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys() -> Vec<HwKey> {
        vec![
            HwKey { name: "array", default: HwValue::Int(32), range: Some((1.0, 1024.0)), doc: "the MAC array's side" },
            HwKey { name: "clock_mhz", default: HwValue::Float(800.0), range: Some((1.0, 1e4)), doc: "clock" },
            HwKey { name: "name", default: HwValue::Str("acme".into()), range: None, doc: "name" },
        ]
    }

    #[test]
    fn set_checks_key_type_and_range() {
        let k = keys();
        let mut d = HwDesc::defaults("acme", &k);
        d.set(&k, "array=64").unwrap();
        d.set(&k, "clock_mhz = 1000").unwrap();
        assert_eq!(d.int("array"), Ok(64));
        assert_eq!(d.get("clock_mhz"), Some(&HwValue::Float(1000.0)));
        let e = d.set(&k, "nope=1").unwrap_err();
        assert!(e.contains("no hardware key 'nope'") && e.contains("array, clock_mhz, name"), "{}", e);
        assert!(d.set(&k, "array=x").unwrap_err().contains("expected an integer"));
        assert!(d.set(&k, "array=0").unwrap_err().contains("out of range"));
        assert!(d.set(&k, "clock_mhz=nan").is_err());
        assert!(d.set(&k, "array").unwrap_err().contains("KEY=VALUE"));
        assert_eq!(d.int("array"), Ok(64), "a refused value leaves the old one");
    }

    #[test]
    fn module_attribute_round_trip_and_errors() {
        let ctx = Context::new();
        let parsed = ir::parser::parse_module(&ctx, "module {}", "t.mlir", 1).unwrap_or_else(|e| panic!("{}", e.message));
        let (mut body, module) = (parsed.body, parsed.module);
        let k = keys();
        let mut d = HwDesc::defaults("acme", &k);
        d.set(&k, "array=8").unwrap();
        body.op_mut(module).attributes.set(ctx.ident(&attr_name("acme")), d.to_attr(&ctx));
        assert_eq!(HwDesc::of_module(&body, module, "acme", &k), Ok(d));
        let mut bad = AttrDict::new();
        bad.set(ctx.ident("array"), Attribute::string("big"));
        body.op_mut(module).attributes.set(ctx.ident(&attr_name("acme")), Attribute::new(AttrData::Dict(bad)));
        assert!(HwDesc::of_module(&body, module, "acme", &k).unwrap_err().contains("expected an integer"));
    }
}
