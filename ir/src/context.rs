//! The shared context: registered op definitions, interned identifiers, op
//! names and types. Interned things are leaked (`&'static`) or `Arc`-shared so
//! that handles are `Copy`/cheap and compare by address.

use crate::dialect::{DialectDef, OpDef};
use crate::types::{Type, TypeData};
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, Mutex};

/// An interned string (attribute names, symbol names, dialect names).
#[derive(Clone, Copy)]
pub struct Ident(&'static str);

impl Ident {
    pub fn as_str(self) -> &'static str {
        self.0
    }
}
impl PartialEq for Ident {
    fn eq(&self, o: &Self) -> bool {
        std::ptr::eq(self.0, o.0)
    }
}
impl Eq for Ident {}
impl Hash for Ident {
    fn hash<H: Hasher>(&self, h: &mut H) {
        (self.0.as_ptr() as usize).hash(h)
    }
}
impl PartialOrd for Ident {
    fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Ident {
    fn cmp(&self, o: &Self) -> std::cmp::Ordering {
        self.0.cmp(o.0)
    }
}
impl fmt::Debug for Ident {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{:?}", self.0)
    }
}
impl fmt::Display for Ident {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(self.0)
    }
}

/// What the context knows about one operation name.
pub struct OpInfo {
    pub name: &'static str,
    pub dialect: &'static str,
    /// `None` for an unregistered operation.
    pub def: Option<&'static OpDef>,
}

/// An interned operation name; `def()` is the registered definition, if any.
#[derive(Clone, Copy)]
pub struct OpName(&'static OpInfo);

impl OpName {
    pub fn as_str(self) -> &'static str {
        self.0.name
    }
    pub fn dialect(self) -> &'static str {
        self.0.dialect
    }
    pub fn def(self) -> Option<&'static OpDef> {
        self.0.def
    }
    pub fn is_registered(self) -> bool {
        self.0.def.is_some()
    }
}
impl PartialEq for OpName {
    fn eq(&self, o: &Self) -> bool {
        std::ptr::eq(self.0, o.0)
    }
}
impl Eq for OpName {}
impl Hash for OpName {
    fn hash<H: Hasher>(&self, h: &mut H) {
        (self.0 as *const OpInfo as usize).hash(h)
    }
}
impl fmt::Debug for OpName {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(self.0.name)
    }
}
impl fmt::Display for OpName {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(self.0.name)
    }
}

#[derive(Default)]
struct Tables {
    idents: HashMap<&'static str, Ident>,
    ops: HashMap<&'static str, OpName>,
    types: HashSet<Arc<TypeData>>,
}

/// Shared by every thread working on IR of this context.
pub struct Context {
    tables: Mutex<Tables>,
    dialects: Mutex<Vec<&'static DialectDef>>,
    /// Parse operations and types of dialects nobody registered.
    pub allow_unregistered: bool,
    common: CommonTypes,
}

struct CommonTypes {
    i1: Type,
    i32: Type,
    i64: Type,
    index: Type,
    f32: Type,
    f64: Type,
    none: Type,
}

impl Default for Context {
    fn default() -> Self {
        Self::new()
    }
}

impl Context {
    /// A context with only the `builtin` dialect registered.
    pub fn new() -> Context {
        let mut tables = Tables::default();
        let mut mk = |d: TypeData| {
            let a = Arc::new(d);
            tables.types.insert(a.clone());
            Type::from_arc(a)
        };
        use crate::types::{FloatKind::*, Signedness::Signless};
        let common = CommonTypes {
            i1: mk(TypeData::Integer { width: 1, signedness: Signless }),
            i32: mk(TypeData::Integer { width: 32, signedness: Signless }),
            i64: mk(TypeData::Integer { width: 64, signedness: Signless }),
            index: mk(TypeData::Index),
            f32: mk(TypeData::Float(F32)),
            f64: mk(TypeData::Float(F64)),
            none: mk(TypeData::None),
        };
        let ctx = Context {
            tables: Mutex::new(tables),
            dialects: Mutex::new(Vec::new()),
            allow_unregistered: false,
            common,
        };
        ctx.register_dialect(&crate::builtin::DIALECT);
        ctx
    }

    /// Registers a dialect's operations. Registering the same dialect twice is a no-op.
    pub fn register_dialect(&self, dialect: &'static DialectDef) {
        {
            let mut d = self.dialects.lock().unwrap();
            if d.iter().any(|x| x.name == dialect.name) {
                return;
            }
            d.push(dialect);
        }
        let mut t = self.tables.lock().unwrap();
        for def in dialect.ops {
            let info: &'static OpInfo = Box::leak(Box::new(OpInfo {
                name: def.name,
                dialect: def.name.split('.').next().unwrap_or(""),
                def: Some(def),
            }));
            t.ops.insert(def.name, OpName(info));
        }
    }

    pub fn is_dialect_registered(&self, name: &str) -> bool {
        self.dialect(name).is_some()
    }

    pub fn dialect(&self, name: &str) -> Option<&'static DialectDef> {
        self.dialects.lock().unwrap().iter().find(|d| d.name == name).copied()
    }

    pub fn registered_dialects(&self) -> Vec<&'static str> {
        self.dialects.lock().unwrap().iter().map(|d| d.name).collect()
    }

    /// All registered operation definitions, sorted by name.
    pub fn registered_ops(&self) -> Vec<&'static OpDef> {
        let t = self.tables.lock().unwrap();
        let mut v: Vec<_> = t.ops.values().filter_map(|n| n.def()).collect();
        v.sort_by_key(|d| d.name);
        v
    }

    pub fn ident(&self, s: &str) -> Ident {
        let mut t = self.tables.lock().unwrap();
        if let Some(i) = t.idents.get(s) {
            return *i;
        }
        let leaked: &'static str = Box::leak(s.to_owned().into_boxed_str());
        let id = Ident(leaked);
        t.idents.insert(leaked, id);
        id
    }

    /// The registered name if one exists, else an unregistered name.
    pub fn op_name(&self, s: &str) -> OpName {
        let mut t = self.tables.lock().unwrap();
        if let Some(n) = t.ops.get(s) {
            return *n;
        }
        let leaked: &'static str = Box::leak(s.to_owned().into_boxed_str());
        let info: &'static OpInfo = Box::leak(Box::new(OpInfo {
            name: leaked,
            dialect: leaked.split('.').next().unwrap_or(""),
            def: None,
        }));
        t.ops.insert(leaked, OpName(info));
        OpName(info)
    }

    /// The registered op of this name, if any (does not intern).
    pub fn lookup_op(&self, s: &str) -> Option<OpName> {
        self.tables.lock().unwrap().ops.get(s).copied().filter(|n| n.is_registered())
    }

    pub fn intern_type(&self, d: TypeData) -> Type {
        let mut t = self.tables.lock().unwrap();
        if let Some(a) = t.types.get(&d) {
            return Type::from_arc(a.clone());
        }
        let a = Arc::new(d);
        t.types.insert(a.clone());
        Type::from_arc(a)
    }

    pub fn i1(&self) -> Type {
        self.common.i1.clone()
    }
    pub fn i32(&self) -> Type {
        self.common.i32.clone()
    }
    pub fn i64(&self) -> Type {
        self.common.i64.clone()
    }
    pub fn index(&self) -> Type {
        self.common.index.clone()
    }
    pub fn f32(&self) -> Type {
        self.common.f32.clone()
    }
    pub fn f64(&self) -> Type {
        self.common.f64.clone()
    }
    pub fn none_type(&self) -> Type {
        self.common.none.clone()
    }
    pub fn int_type(&self, width: u32) -> Type {
        match width {
            1 => self.i1(),
            32 => self.i32(),
            64 => self.i64(),
            _ => self.intern_type(TypeData::Integer { width, signedness: crate::types::Signedness::Signless }),
        }
    }
}

impl Context {
    pub fn int_type_signed(&self, width: u32, s: crate::types::Signedness) -> Type {
        if s == crate::types::Signedness::Signless {
            return self.int_type(width);
        }
        self.intern_type(TypeData::Integer { width, signedness: s })
    }
}
