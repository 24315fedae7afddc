//! Source locations, as MLIR's: unknown, `"file":line:col`, named, fused and
//! call-site. Every operation carries one; diagnostics point at them.

use crate::attributes::{write_escaped, Attribute};
use std::fmt;
use std::sync::Arc;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum LocData {
    Unknown,
    FileLineCol { file: Arc<str>, line: u32, col: u32 },
    /// `loc("conv1")` or `loc("conv1"("model.onnx":0:0))`.
    Name { name: String, child: Option<Location> },
    /// `loc(fused<#meta>["a", "b"])`.
    Fused { locs: Vec<Location>, metadata: Option<Attribute> },
    /// `loc(callsite("callee" at "caller"))`.
    CallSite { callee: Location, caller: Location },
}

/// A location. The kinds every parsed op has (unknown, file:line:col) are
/// stored inline, so a million ops cost no allocation for their locations.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Location(Repr);

#[derive(Clone, PartialEq, Eq, Hash)]
enum Repr {
    Unknown,
    File { file: Arc<str>, line: u32, col: u32 },
    Other(Arc<LocData>),
}

impl Location {
    pub fn new(d: LocData) -> Location {
        match d {
            LocData::Unknown => Location(Repr::Unknown),
            LocData::FileLineCol { file, line, col } => Location(Repr::File { file, line, col }),
            d => Location(Repr::Other(Arc::new(d))),
        }
    }
    pub fn unknown() -> Location {
        Location(Repr::Unknown)
    }
    pub fn file(file: Arc<str>, line: u32, col: u32) -> Location {
        Location(Repr::File { file, line, col })
    }
    pub fn name(name: &str) -> Location {
        Self::new(LocData::Name { name: name.to_string(), child: None })
    }
    /// The model node this location names (`loc("conv1"(...))` → `conv1`), looking
    /// into fused and call-site locations: what reports and profiles call an op.
    pub fn node_name(&self) -> Option<String> {
        match &*self.data() {
            LocData::Name { name, .. } => Some(name.clone()),
            LocData::Fused { locs, .. } => locs.iter().find_map(Location::node_name),
            LocData::CallSite { callee, .. } => callee.node_name(),
            _ => None,
        }
    }
    /// Every model node this location names, in order and once each: a fused
    /// op's (`conv1+bn1+relu1` in a profile).
    pub fn node_names(&self) -> Vec<String> {
        let mut out = Vec::new();
        self.collect_names(&mut out);
        out
    }
    fn collect_names(&self, out: &mut Vec<String>) {
        match &*self.data() {
            LocData::Name { name, .. } => {
                if !out.contains(name) {
                    out.push(name.clone());
                }
            }
            LocData::Fused { locs, .. } => locs.iter().for_each(|l| l.collect_names(out)),
            LocData::CallSite { callee, .. } => callee.collect_names(out),
            _ => {}
        }
    }
    /// Fuses locations (as rewrites do): duplicates and unknowns dropped, one left means itself.
    pub fn fused(locs: &[Location]) -> Location {
        let mut v: Vec<Location> = Vec::new();
        for l in locs {
            let parts: Vec<Location> = match &*l.data() {
                LocData::Fused { locs, metadata: None } => locs.clone(),
                LocData::Unknown => vec![],
                _ => vec![l.clone()],
            };
            for p in parts {
                if !v.contains(&p) {
                    v.push(p);
                }
            }
        }
        match v.len() {
            0 => Location::unknown(),
            1 => v.pop().unwrap(),
            _ => Self::new(LocData::Fused { locs: v, metadata: None }),
        }
    }
    /// The location as data (a copy for the inline kinds).
    pub fn data(&self) -> std::borrow::Cow<'_, LocData> {
        use std::borrow::Cow;
        match &self.0 {
            Repr::Unknown => Cow::Owned(LocData::Unknown),
            Repr::File { file, line, col } => Cow::Owned(LocData::FileLineCol { file: file.clone(), line: *line, col: *col }),
            Repr::Other(d) => Cow::Borrowed(d),
        }
    }
    pub fn is_unknown(&self) -> bool {
        matches!(self.0, Repr::Unknown)
    }
    /// The first file:line:col found inside this location, for diagnostics.
    pub fn file_line_col(&self) -> Option<(&str, u32, u32)> {
        match &self.0 {
            Repr::File { file, line, col } => Some((file, *line, *col)),
            Repr::Unknown => None,
            Repr::Other(d) => match &**d {
                LocData::Name { child, .. } => child.as_ref()?.file_line_col(),
                LocData::Fused { locs, .. } => locs.iter().find_map(|l| l.file_line_col()),
                LocData::CallSite { callee, .. } => callee.file_line_col(),
                _ => None,
            },
        }
    }
    /// The loc body without the `loc(...)` wrapper.
    fn fmt_inner(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match &*self.data() {
            LocData::Unknown => f.write_str("unknown"),
            LocData::FileLineCol { file, line, col } => {
                write_escaped(f, file.as_bytes())?;
                write!(f, ":{}:{}", line, col)
            }
            LocData::Name { name, child } => {
                write_escaped(f, name.as_bytes())?;
                if let Some(c) = child {
                    f.write_str("(")?;
                    c.fmt_inner(f)?;
                    f.write_str(")")?;
                }
                Ok(())
            }
            LocData::Fused { locs, metadata } => {
                f.write_str("fused")?;
                if let Some(m) = metadata {
                    write!(f, "<{}>", m)?;
                }
                f.write_str("[")?;
                for (i, l) in locs.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    l.fmt_inner(f)?;
                }
                f.write_str("]")
            }
            LocData::CallSite { callee, caller } => {
                f.write_str("callsite(")?;
                callee.fmt_inner(f)?;
                f.write_str(" at ")?;
                caller.fmt_inner(f)?;
                f.write_str(")")
            }
        }
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("loc(")?;
        self.fmt_inner(f)?;
        f.write_str(")")
    }
}
impl fmt::Debug for Location {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}
