//! Builtin types and opaque dialect types. A [`Type`] is an interned,
//! immutable handle: clone is a reference-count bump, equality is by address.

use crate::attributes::Attribute;
use std::fmt::{self, Write};
use std::hash::{Hash, Hasher};
use std::sync::Arc;

/// The marker of a dynamic dimension (`?`) in shapes and strides.
pub const DYNAMIC: i64 = i64::MIN;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Signedness {
    Signless,
    Signed,
    Unsigned,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FloatKind {
    F16,
    BF16,
    F32,
    F64,
    TF32,
    F80,
    F128,
    F8E4M3FN,
    F8E5M2,
    F8E4M3FNUZ,
    F8E5M2FNUZ,
    F8E8M0FNU,
    F4E2M1FN,
}

impl FloatKind {
    pub const ALL: [(FloatKind, &'static str); 13] = [
        (FloatKind::F16, "f16"),
        (FloatKind::BF16, "bf16"),
        (FloatKind::F32, "f32"),
        (FloatKind::F64, "f64"),
        (FloatKind::TF32, "tf32"),
        (FloatKind::F80, "f80"),
        (FloatKind::F128, "f128"),
        (FloatKind::F8E4M3FN, "f8E4M3FN"),
        (FloatKind::F8E5M2, "f8E5M2"),
        (FloatKind::F8E4M3FNUZ, "f8E4M3FNUZ"),
        (FloatKind::F8E5M2FNUZ, "f8E5M2FNUZ"),
        (FloatKind::F8E8M0FNU, "f8E8M0FNU"),
        (FloatKind::F4E2M1FN, "f4E2M1FN"),
    ];
    pub fn keyword(self) -> &'static str {
        Self::ALL.iter().find(|(k, _)| *k == self).map(|(_, s)| *s).unwrap_or("f32")
    }
    pub fn width(self) -> u32 {
        match self {
            FloatKind::F16 | FloatKind::BF16 => 16,
            FloatKind::F32 | FloatKind::TF32 => 32,
            FloatKind::F64 => 64,
            FloatKind::F80 => 80,
            FloatKind::F128 => 128,
            FloatKind::F8E4M3FN | FloatKind::F8E5M2 | FloatKind::F8E4M3FNUZ | FloatKind::F8E5M2FNUZ | FloatKind::F8E8M0FNU => 8,
            FloatKind::F4E2M1FN => 4,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TypeData {
    Integer { width: u32, signedness: Signedness },
    Index,
    Float(FloatKind),
    None,
    Complex(Type),
    RankedTensor { shape: Vec<i64>, elem: Type, encoding: Option<Attribute> },
    UnrankedTensor { elem: Type },
    MemRef { shape: Vec<i64>, elem: Type, layout: Option<Attribute>, memory_space: Option<Attribute> },
    UnrankedMemRef { elem: Type, memory_space: Option<Attribute> },
    /// `scalable[i]` marks a `[n]` dimension.
    Vector { shape: Vec<i64>, scalable: Vec<bool>, elem: Type },
    Function { inputs: Vec<Type>, results: Vec<Type> },
    Tuple(Vec<Type>),
    /// `!dialect.body` or `!dialect<body>`: kept as text when its dialect does not parse it.
    Opaque { dialect: String, body: String },
}

#[derive(Clone)]
pub struct Type(Arc<TypeData>);

impl Type {
    pub(crate) fn from_arc(a: Arc<TypeData>) -> Type {
        Type(a)
    }
    pub fn data(&self) -> &TypeData {
        &self.0
    }
    pub fn is_integer(&self) -> bool {
        matches!(*self.0, TypeData::Integer { .. })
    }
    pub fn is_signless_integer(&self) -> bool {
        matches!(*self.0, TypeData::Integer { signedness: Signedness::Signless, .. })
    }
    pub fn is_index(&self) -> bool {
        matches!(*self.0, TypeData::Index)
    }
    pub fn is_float(&self) -> bool {
        matches!(*self.0, TypeData::Float(_))
    }
    pub fn int_width(&self) -> Option<u32> {
        match *self.0 {
            TypeData::Integer { width, .. } => Some(width),
            TypeData::Index => Some(64),
            _ => None,
        }
    }
    pub fn float_kind(&self) -> Option<FloatKind> {
        match *self.0 {
            TypeData::Float(k) => Some(k),
            _ => None,
        }
    }
    /// Tensors, memrefs and vectors.
    pub fn is_shaped(&self) -> bool {
        self.element_type().is_some()
    }
    /// Element type of a shaped type.
    pub fn element_type(&self) -> Option<&Type> {
        match &*self.0 {
            TypeData::RankedTensor { elem, .. }
            | TypeData::UnrankedTensor { elem }
            | TypeData::MemRef { elem, .. }
            | TypeData::UnrankedMemRef { elem, .. }
            | TypeData::Vector { elem, .. } => Some(elem),
            _ => None,
        }
    }
    /// The shape of a ranked shaped type.
    pub fn shape(&self) -> Option<&[i64]> {
        match &*self.0 {
            TypeData::RankedTensor { shape, .. } | TypeData::MemRef { shape, .. } | TypeData::Vector { shape, .. } => {
                Some(shape)
            }
            _ => None,
        }
    }
    /// The scalar type: the element type of a shaped type, or itself.
    pub fn scalar(&self) -> &Type {
        self.element_type().unwrap_or(self)
    }
    pub fn num_elements(&self) -> Option<u64> {
        let s = self.shape()?;
        s.iter().try_fold(1u64, |a, &d| if d < 0 { None } else { a.checked_mul(d as u64) })
    }
    pub fn function_parts(&self) -> Option<(&[Type], &[Type])> {
        match &*self.0 {
            TypeData::Function { inputs, results } => Some((inputs, results)),
            _ => None,
        }
    }
}

impl PartialEq for Type {
    fn eq(&self, o: &Self) -> bool {
        Arc::ptr_eq(&self.0, &o.0) || *self.0 == *o.0
    }
}
impl Eq for Type {}
impl Hash for Type {
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.0.hash(h)
    }
}
impl fmt::Debug for Type {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

pub(crate) fn write_dims(f: &mut impl Write, shape: &[i64], scalable: &[bool]) -> fmt::Result {
    for (i, d) in shape.iter().enumerate() {
        let sc = scalable.get(i).copied().unwrap_or(false);
        if sc {
            f.write_char('[')?;
        }
        if *d == DYNAMIC {
            f.write_char('?')?;
        } else {
            write!(f, "{}", d)?;
        }
        if sc {
            f.write_char(']')?;
        }
        f.write_char('x')?;
    }
    Ok(())
}

/// Integer memory spaces print bare (`memref<4xf32, 1>`), as in MLIR.
fn write_memory_space(f: &mut impl Write, m: &Attribute) -> fmt::Result {
    match m.data() {
        crate::attributes::AttrData::Integer { value, ty } if ty.int_width() == Some(64) && ty.is_signless_integer() => {
            write!(f, "{}", value)
        }
        _ => write!(f, "{}", m),
    }
}

pub(crate) fn write_type_list(f: &mut impl Write, ts: &[Type]) -> fmt::Result {
    for (i, t) in ts.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write!(f, "{}", t)?;
    }
    Ok(())
}

/// Function results print bare when there is exactly one and it is not itself a function type.
pub(crate) fn write_results(f: &mut impl Write, rs: &[Type]) -> fmt::Result {
    if rs.len() == 1 && !matches!(rs[0].data(), TypeData::Function { .. }) {
        write!(f, "{}", rs[0])
    } else {
        f.write_char('(')?;
        write_type_list(f, rs)?;
        f.write_char(')')
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match &*self.0 {
            TypeData::Integer { width, signedness } => {
                let p = match signedness {
                    Signedness::Signless => "i",
                    Signedness::Signed => "si",
                    Signedness::Unsigned => "ui",
                };
                write!(f, "{}{}", p, width)
            }
            TypeData::Index => f.write_str("index"),
            TypeData::Float(k) => f.write_str(k.keyword()),
            TypeData::None => f.write_str("none"),
            TypeData::Complex(t) => write!(f, "complex<{}>", t),
            TypeData::RankedTensor { shape, elem, encoding } => {
                f.write_str("tensor<")?;
                write_dims(f, shape, &[])?;
                write!(f, "{}", elem)?;
                if let Some(e) = encoding {
                    write!(f, ", {}", e)?;
                }
                f.write_char('>')
            }
            TypeData::UnrankedTensor { elem } => write!(f, "tensor<*x{}>", elem),
            TypeData::MemRef { shape, elem, layout, memory_space } => {
                f.write_str("memref<")?;
                write_dims(f, shape, &[])?;
                write!(f, "{}", elem)?;
                if let Some(l) = layout {
                    write!(f, ", {}", l)?;
                }
                if let Some(m) = memory_space {
                    f.write_str(", ")?;
                    write_memory_space(f, m)?;
                }
                f.write_char('>')
            }
            TypeData::UnrankedMemRef { elem, memory_space } => {
                write!(f, "memref<*x{}", elem)?;
                if let Some(m) = memory_space {
                    f.write_str(", ")?;
                    write_memory_space(f, m)?;
                }
                f.write_char('>')
            }
            TypeData::Vector { shape, scalable, elem } => {
                f.write_str("vector<")?;
                write_dims(f, shape, scalable)?;
                write!(f, "{}>", elem)
            }
            TypeData::Function { inputs, results } => {
                f.write_char('(')?;
                write_type_list(f, inputs)?;
                f.write_str(") -> ")?;
                write_results(f, results)
            }
            TypeData::Tuple(ts) => {
                f.write_str("tuple<")?;
                write_type_list(f, ts)?;
                f.write_char('>')
            }
            TypeData::Opaque { dialect, body } => write!(f, "!{}{}", dialect, body),
        }
    }
}
