//! Builtin attributes. An [`Attribute`] is an immutable `Arc`-shared value with
//! structural equality; large tensors live in `dense_resource` blobs so they are
//! never printed as text.

use crate::affine::AffineMap;
use crate::context::Ident;
use crate::float;
use crate::types::{Signedness, Type, TypeData, DYNAMIC};
use std::fmt::{self, Write};
use std::hash::{Hash, Hasher};
use std::sync::{Arc, OnceLock};

/// Raw little-endian element storage of a `dense<...>` attribute, one element
/// per storage unit (`i1` takes one byte). A splat stores one element.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DenseData {
    pub bytes: Arc<[u8]>,
    pub splat: bool,
}

impl DenseData {
    /// Canonical storage of `n` elements of `w` bytes: one element when all are
    /// equal (as MLIR's `DenseElementsAttr` stores and prints a splat).
    pub fn canonical(bytes: Vec<u8>, w: usize, n: usize) -> DenseData {
        if n >= 1 && w > 0 && bytes.len() == n * w && bytes.chunks(w).all(|c| c == &bytes[..w]) {
            return DenseData { bytes: Arc::from(&bytes[..w]), splat: true };
        }
        DenseData { bytes: Arc::from(bytes), splat: false }
    }
}

/// Anything that owns bytes and can be shared: a `Vec`, an `Arc<[u8]>`, or a
/// slice of a model file's buffer, so importers can hand weights over without copying.
pub type BlobBytes = Arc<dyn AsRef<[u8]> + Send + Sync>;

/// The bytes behind a `dense_resource<name>`: an alignment and the data.
pub struct Blob {
    pub alignment: u32,
    pub data: BlobBytes,
}

impl Blob {
    pub fn bytes(&self) -> &[u8] {
        (*self.data).as_ref()
    }
}

impl std::fmt::Debug for Blob {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "Blob({} bytes, align {})", self.bytes().len(), self.alignment)
    }
}

/// A named resource of the `builtin` dialect. Its blob may arrive after its
/// first use (the `{-# dialect_resources #-}` section ends the file).
#[derive(Debug)]
pub struct Resource {
    pub name: String,
    pub blob: OnceLock<Blob>,
}

impl Resource {
    pub fn new(name: &str, alignment: u32, data: BlobBytes) -> Arc<Resource> {
        let r = Resource { name: name.to_string(), blob: OnceLock::new() };
        let _ = r.blob.set(Blob { alignment, data });
        Arc::new(r)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum ArrayData {
    Int(Vec<i64>),
    Float(Vec<f64>),
}

#[derive(Clone, Debug)]
pub enum AttrData {
    Unit,
    /// `value` is sign-extended (signless, signed) or zero-extended (unsigned) from the type's width.
    Integer { value: i128, ty: Type },
    /// `bits` are the exact bits of the float type.
    Float { bits: u64, ty: Type },
    String { bytes: Box<[u8]>, ty: Option<Type> },
    Array(Vec<Attribute>),
    Dict(AttrDict),
    Type(Type),
    /// `@root::@nested::@leaf`.
    SymbolRef(Vec<String>),
    Dense { ty: Type, data: DenseData },
    DenseResource { ty: Type, resource: Arc<Resource> },
    /// `array<i64: 1, 2>`.
    DenseArray { elem: Type, data: ArrayData },
    AffineMap(AffineMap),
    /// `strided<[s0, s1], offset: o>`.
    Strided { strides: Vec<i64>, offset: i64 },
    /// `#dialect.body` or `#dialect<body>` kept as text.
    Opaque { dialect: String, body: String },
}

impl PartialEq for AttrData {
    fn eq(&self, o: &Self) -> bool {
        use AttrData::*;
        match (self, o) {
            (Unit, Unit) => true,
            (Integer { value: a, ty: t }, Integer { value: b, ty: u }) => a == b && t == u,
            (Float { bits: a, ty: t }, Float { bits: b, ty: u }) => a == b && t == u,
            (String { bytes: a, ty: t }, String { bytes: b, ty: u }) => a == b && t == u,
            (Array(a), Array(b)) => a == b,
            (Dict(a), Dict(b)) => a == b,
            (Type(a), Type(b)) => a == b,
            (SymbolRef(a), SymbolRef(b)) => a == b,
            (Dense { ty: t, data: a }, Dense { ty: u, data: b }) => t == u && a == b,
            (DenseResource { ty: t, resource: a }, DenseResource { ty: u, resource: b }) => t == u && a.name == b.name,
            (DenseArray { elem: t, data: a }, DenseArray { elem: u, data: b }) => {
                t == u
                    && match (a, b) {
                        (ArrayData::Int(x), ArrayData::Int(y)) => x == y,
                        (ArrayData::Float(x), ArrayData::Float(y)) => {
                            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| p.to_bits() == q.to_bits())
                        }
                        _ => false,
                    }
            }
            (AffineMap(a), AffineMap(b)) => a == b,
            (Strided { strides: a, offset: x }, Strided { strides: b, offset: y }) => a == b && x == y,
            (Opaque { dialect: a, body: x }, Opaque { dialect: b, body: y }) => a == b && x == y,
            _ => false,
        }
    }
}
impl Eq for AttrData {}

impl Hash for AttrData {
    fn hash<H: Hasher>(&self, h: &mut H) {
        std::mem::discriminant(self).hash(h);
        match self {
            AttrData::Integer { value, ty } => (value, ty).hash(h),
            AttrData::Float { bits, ty } => (bits, ty).hash(h),
            AttrData::String { bytes, .. } => bytes.hash(h),
            AttrData::Array(a) => a.hash(h),
            AttrData::Dict(d) => d.hash(h),
            AttrData::Type(t) => t.hash(h),
            AttrData::SymbolRef(s) => s.hash(h),
            AttrData::Dense { ty, data } => (ty, data).hash(h),
            AttrData::DenseResource { resource, .. } => resource.name.hash(h),
            AttrData::AffineMap(m) => m.hash(h),
            AttrData::Opaque { body, .. } => body.hash(h),
            _ => {}
        }
    }
}

#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Attribute(Arc<AttrData>);

impl Attribute {
    pub fn new(d: AttrData) -> Attribute {
        Attribute(Arc::new(d))
    }
    /// The same attribute object (not only an equal value): a cache's key.
    pub fn is_same(&self, other: &Attribute) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
    pub fn data(&self) -> &AttrData {
        &self.0
    }
    pub fn unit() -> Attribute {
        Self::new(AttrData::Unit)
    }
    pub fn string(s: &str) -> Attribute {
        Self::new(AttrData::String { bytes: s.as_bytes().into(), ty: None })
    }
    pub fn type_attr(t: Type) -> Attribute {
        Self::new(AttrData::Type(t))
    }
    pub fn symbol(name: &str) -> Attribute {
        Self::new(AttrData::SymbolRef(vec![name.to_string()]))
    }
    /// An integer attribute, the value truncated and extended to the type's width.
    pub fn integer(value: i128, ty: Type) -> Attribute {
        let v = normalize_int(value, &ty);
        Self::new(AttrData::Integer { value: v, ty })
    }
    /// A float attribute from an f64, rounded to the type.
    pub fn float(value: f64, ty: Type) -> Attribute {
        let bits = ty.float_kind().and_then(|k| float::f64_to_bits(value, k)).unwrap_or(value.to_bits());
        Self::new(AttrData::Float { bits, ty })
    }
    pub fn as_int(&self) -> Option<i128> {
        match &*self.0 {
            AttrData::Integer { value, .. } => Some(*value),
            _ => None,
        }
    }
    pub fn as_float(&self) -> Option<f64> {
        match &*self.0 {
            AttrData::Float { bits, ty } => float::bits_to_f64(*bits, ty.float_kind()?),
            _ => None,
        }
    }
    pub fn as_str(&self) -> Option<&str> {
        match &*self.0 {
            AttrData::String { bytes, .. } => std::str::from_utf8(bytes).ok(),
            _ => None,
        }
    }
    pub fn as_type(&self) -> Option<&Type> {
        match &*self.0 {
            AttrData::Type(t) => Some(t),
            _ => None,
        }
    }
    /// An integer list: `array<i64: …>`, or an array of integers (as
    /// hand-written IR may give it).
    pub fn as_ints(&self) -> Option<Vec<i64>> {
        match &*self.0 {
            AttrData::DenseArray { data: ArrayData::Int(v), .. } => Some(v.clone()),
            AttrData::Array(a) => a.iter().map(|x| x.as_int().map(|v| v as i64)).collect(),
            _ => None,
        }
    }
    /// A float list: `array<f32: …>`, or an integer one read as floats.
    pub fn as_floats(&self) -> Option<Vec<f64>> {
        match &*self.0 {
            AttrData::DenseArray { data: ArrayData::Float(v), .. } => Some(v.clone()),
            AttrData::DenseArray { data: ArrayData::Int(v), .. } => Some(v.iter().map(|&x| x as f64).collect()),
            _ => None,
        }
    }
    pub fn as_array(&self) -> Option<&[Attribute]> {
        match &*self.0 {
            AttrData::Array(a) => Some(a),
            _ => None,
        }
    }
    pub fn as_dict(&self) -> Option<&AttrDict> {
        match &*self.0 {
            AttrData::Dict(d) => Some(d),
            _ => None,
        }
    }
    pub fn as_symbol(&self) -> Option<&[String]> {
        match &*self.0 {
            AttrData::SymbolRef(s) => Some(s),
            _ => None,
        }
    }
    /// The type of a typed attribute (integers, floats, elements).
    pub fn typ(&self) -> Option<&Type> {
        match &*self.0 {
            AttrData::Integer { ty, .. } | AttrData::Float { ty, .. } => Some(ty),
            AttrData::Dense { ty, .. } | AttrData::DenseResource { ty, .. } => Some(ty),
            AttrData::String { ty, .. } => ty.as_ref(),
            _ => None,
        }
    }
    /// Every resource this attribute refers to, nested ones included.
    pub fn collect_resources(&self, out: &mut Vec<Arc<Resource>>) {
        match &*self.0 {
            AttrData::DenseResource { resource, .. } => {
                if !out.iter().any(|r| r.name == resource.name) {
                    out.push(resource.clone())
                }
            }
            AttrData::Array(a) => a.iter().for_each(|x| x.collect_resources(out)),
            AttrData::Dict(d) => d.iter().for_each(|(_, x)| x.collect_resources(out)),
            _ => {}
        }
    }
}

impl fmt::Debug for Attribute {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Sign- or zero-extends `v` from the width of `ty` (index counts as 64 bits).
pub fn normalize_int(v: i128, ty: &Type) -> i128 {
    let (w, unsigned) = match ty.data() {
        TypeData::Integer { width, signedness } => (*width, *signedness == Signedness::Unsigned),
        _ => (64, false),
    };
    if w == 0 || w >= 128 {
        return v;
    }
    let mask = (1i128 << w) - 1;
    let low = v & mask;
    if unsigned || w == 1 {
        low
    } else if low >> (w - 1) & 1 == 1 {
        low - (1i128 << w)
    } else {
        low
    }
}

/// A dictionary of named attributes, kept sorted by name as MLIR's `DictionaryAttr` is.
#[derive(Clone, Default, PartialEq, Eq, Hash, Debug)]
pub struct AttrDict(Vec<(Ident, Attribute)>);

impl AttrDict {
    pub fn new() -> AttrDict {
        AttrDict(Vec::new())
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    pub fn len(&self) -> usize {
        self.0.len()
    }
    fn position(&self, name: &str) -> Result<usize, usize> {
        self.0.binary_search_by(|(k, _)| k.as_str().cmp(name))
    }
    pub fn get(&self, name: &str) -> Option<&Attribute> {
        self.position(name).ok().map(|i| &self.0[i].1)
    }
    pub fn contains(&self, name: &str) -> bool {
        self.position(name).is_ok()
    }
    /// Sets `name`; returns the previous value.
    pub fn set(&mut self, name: Ident, value: Attribute) -> Option<Attribute> {
        match self.position(name.as_str()) {
            Ok(i) => Some(std::mem::replace(&mut self.0[i].1, value)),
            Err(i) => {
                self.0.insert(i, (name, value));
                None
            }
        }
    }
    pub fn remove(&mut self, name: &str) -> Option<Attribute> {
        self.position(name).ok().map(|i| self.0.remove(i).1)
    }
    pub fn iter(&self) -> impl Iterator<Item = &(Ident, Attribute)> {
        self.0.iter()
    }
}

/// True when `s` can be printed without quotes as an identifier.
pub fn is_bare_identifier(s: &str) -> bool {
    let mut cs = s.chars();
    match cs.next() {
        Some(c) if c.is_ascii_alphabetic() || c == '_' => {}
        _ => return false,
    }
    cs.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$' || c == '.')
}

/// Writes a string literal with MLIR's escapes (`\22` for a quote, `\0A` for a newline).
pub fn write_escaped(f: &mut impl Write, bytes: &[u8]) -> fmt::Result {
    f.write_char('"')?;
    for &b in bytes {
        if b == b'"' || b == b'\\' {
            if b == b'\\' {
                f.write_str("\\\\")?;
            } else {
                f.write_str("\\22")?;
            }
        } else if (0x20..0x7F).contains(&b) {
            f.write_char(b as char)?;
        } else {
            write!(f, "\\{:02X}", b)?;
        }
    }
    f.write_char('"')
}

pub fn write_symbol_name(f: &mut impl Write, s: &str) -> fmt::Result {
    f.write_char('@')?;
    if is_bare_identifier(s) {
        f.write_str(s)
    } else {
        write_escaped(f, s.as_bytes())
    }
}

/// Writes `name = value` pairs of a dictionary (unit values print as bare names).
pub fn write_dict_body(f: &mut impl Write, d: &AttrDict) -> fmt::Result {
    for (i, (k, v)) in d.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        if is_bare_identifier(k.as_str()) {
            f.write_str(k.as_str())?;
        } else {
            write_escaped(f, k.as_str().as_bytes())?;
        }
        if !matches!(v.data(), AttrData::Unit) {
            write!(f, " = {}", v)?;
        }
    }
    Ok(())
}

/// Storage width in bytes of one element of a dense attribute.
pub fn element_bytes(elem: &Type) -> Option<usize> {
    match elem.data() {
        TypeData::Integer { width, .. } => Some((*width as usize).div_ceil(8).max(1)),
        TypeData::Index => Some(8),
        TypeData::Float(k) => Some((k.width() as usize).div_ceil(8)),
        _ => None,
    }
}

/// Reads element `i` as an integer (sign- or zero-extended per the type).
pub fn read_int_element(bytes: &[u8], i: usize, elem: &Type) -> i128 {
    let w = element_bytes(elem).unwrap_or(1);
    let mut buf = [0u8; 16];
    buf[..w].copy_from_slice(&bytes[i * w..(i + 1) * w]);
    normalize_int(i128::from_le_bytes(buf), elem)
}

pub fn read_raw_element(bytes: &[u8], i: usize, w: usize) -> u64 {
    let mut buf = [0u8; 8];
    buf[..w.min(8)].copy_from_slice(&bytes[i * w..i * w + w.min(8)]);
    u64::from_le_bytes(buf)
}

/// A dense or resource elements attribute of a static shape, transposed by
/// `perm` (output dim `d` is input dim `perm[d]`); large results become a
/// resource named `name`. None for other attributes or short data.
pub fn transposed(ctx: &crate::Context, a: &Attribute, perm: &[usize], name: &str) -> Option<Attribute> {
    let (ty, bytes, splat): (&Type, &[u8], bool) = match a.data() {
        AttrData::Dense { ty, data } => (ty, &data.bytes, data.splat),
        AttrData::DenseResource { ty, resource } => (ty, resource.blob.get()?.bytes(), false),
        _ => return None,
    };
    let (shape, n, w) = (ty.shape()?.to_vec(), ty.num_elements()?, element_bytes(ty.scalar())?);
    if shape.len() != perm.len() || (n as usize * w > bytes.len() && !splat) {
        return None;
    }
    let out_shape: Vec<i64> = perm.iter().map(|&p| shape[p]).collect();
    let nty = ctx.intern_type(TypeData::RankedTensor { shape: out_shape, elem: ty.scalar().clone(), encoding: None });
    Some(match (splat, a.data()) {
        // A splat is the same splat in any order.
        (true, AttrData::Dense { data, .. }) => Attribute::new(AttrData::Dense { ty: nty, data: data.clone() }),
        _ => {
            let out = transpose_elements(bytes, w, &shape, perm);
            if out.len() >= 1024 {
                Attribute::new(AttrData::DenseResource { ty: nty, resource: Resource::new(name, 16, Arc::new(out)) })
            } else {
                Attribute::new(AttrData::Dense { ty: nty, data: DenseData::canonical(out, w, n as usize) })
            }
        }
    })
}

/// Row-major elements of `w` bytes each with dims `shape`, transposed: output
/// dim `d` is input dim `perm[d]` (ONNX's and MATLAB's convention).
pub fn transpose_elements(bytes: &[u8], w: usize, shape: &[i64], perm: &[usize]) -> Vec<u8> {
    let rank = shape.len();
    let out_shape: Vec<usize> = perm.iter().map(|&p| shape[p] as usize).collect();
    let mut in_strides = vec![1usize; rank];
    for i in (0..rank.saturating_sub(1)).rev() {
        in_strides[i] = in_strides[i + 1] * shape[i + 1] as usize;
    }
    let n: usize = out_shape.iter().product();
    let mut out = vec![0u8; n * w];
    let mut idx = vec![0usize; rank];
    for k in 0..n {
        let src: usize = (0..rank).map(|d| idx[d] * in_strides[perm[d]]).sum();
        out[k * w..(k + 1) * w].copy_from_slice(&bytes[src * w..(src + 1) * w]);
        for d in (0..rank).rev() {
            idx[d] += 1;
            if idx[d] < out_shape[d] {
                break;
            }
            idx[d] = 0;
        }
    }
    out
}

/// Above this many elements a dense attribute prints as one hex string (as MLIR does).
pub const HEX_THRESHOLD: u64 = 100;

fn write_element(f: &mut impl Write, bytes: &[u8], i: usize, elem: &Type) -> fmt::Result {
    match elem.data() {
        TypeData::Float(k) => {
            let w = element_bytes(elem).unwrap_or(4);
            f.write_str(&float::format_float(read_raw_element(bytes, i, w), *k))
        }
        TypeData::Integer { width: 1, .. } => {
            f.write_str(if bytes[i] & 1 == 1 { "true" } else { "false" })
        }
        _ => write!(f, "{}", read_int_element(bytes, i, elem)),
    }
}

fn write_dense(f: &mut impl Write, ty: &Type, data: &DenseData) -> fmt::Result {
    let elem = ty.scalar();
    let shape = ty.shape().unwrap_or(&[]);
    let n = ty.num_elements().unwrap_or(0);
    if data.splat {
        return write_element(f, &data.bytes, 0, elem);
    }
    let is_bool = matches!(elem.data(), TypeData::Integer { width: 1, .. });
    if n > HEX_THRESHOLD && !is_bool {
        let mut s = String::with_capacity(data.bytes.len() * 2 + 4);
        s.push_str("\"0x");
        crate::printer::push_hex(&mut s, &data.bytes);
        s.push('"');
        return f.write_str(&s);
    }
    if shape.is_empty() {
        return write_element(f, &data.bytes, 0, elem);
    }
    // Nested lists following the shape.
    fn rec(f: &mut impl Write, shape: &[i64], bytes: &[u8], elem: &Type, idx: &mut usize) -> fmt::Result {
        f.write_char('[')?;
        for j in 0..shape[0] {
            if j > 0 {
                f.write_str(", ")?;
            }
            if shape.len() == 1 {
                write_element(f, bytes, *idx, elem)?;
                *idx += 1;
            } else {
                rec(f, &shape[1..], bytes, elem, idx)?;
            }
        }
        f.write_char(']')
    }
    let mut idx = 0;
    rec(f, shape, &data.bytes, elem, &mut idx)
}

fn write_i64_or_dyn(f: &mut impl Write, v: i64) -> fmt::Result {
    if v == DYNAMIC {
        f.write_char('?')
    } else {
        write!(f, "{}", v)
    }
}

impl fmt::Display for Attribute {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match &*self.0 {
            AttrData::Unit => f.write_str("unit"),
            AttrData::Integer { value, ty } => {
                if matches!(ty.data(), TypeData::Integer { width: 1, signedness: Signedness::Signless }) {
                    f.write_str(if *value != 0 { "true" } else { "false" })
                } else {
                    write!(f, "{} : {}", value, ty)
                }
            }
            AttrData::Float { bits, ty } => {
                let k = ty.float_kind().unwrap_or(crate::types::FloatKind::F64);
                write!(f, "{} : {}", float::format_float(*bits, k), ty)
            }
            AttrData::String { bytes, ty } => {
                write_escaped(f, bytes)?;
                if let Some(t) = ty {
                    write!(f, " : {}", t)?;
                }
                Ok(())
            }
            AttrData::Array(a) => {
                f.write_char('[')?;
                for (i, x) in a.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{}", x)?;
                }
                f.write_char(']')
            }
            AttrData::Dict(d) => {
                f.write_char('{')?;
                write_dict_body(f, d)?;
                f.write_char('}')
            }
            AttrData::Type(t) => write!(f, "{}", t),
            AttrData::SymbolRef(parts) => {
                for (i, p) in parts.iter().enumerate() {
                    if i > 0 {
                        f.write_str("::")?;
                    }
                    write_symbol_name(f, p)?;
                }
                Ok(())
            }
            AttrData::Dense { ty, data } => {
                f.write_str("dense<")?;
                if ty.num_elements() != Some(0) {
                    write_dense(f, ty, data)?;
                }
                write!(f, "> : {}", ty)
            }
            AttrData::DenseResource { ty, resource } => {
                f.write_str("dense_resource<")?;
                if is_bare_identifier(&resource.name) {
                    f.write_str(&resource.name)?;
                } else {
                    write_escaped(f, resource.name.as_bytes())?;
                }
                write!(f, "> : {}", ty)
            }
            AttrData::DenseArray { elem, data } => {
                write!(f, "array<{}", elem)?;
                let n = match data {
                    ArrayData::Int(v) => v.len(),
                    ArrayData::Float(v) => v.len(),
                };
                if n > 0 {
                    f.write_str(": ")?;
                }
                for i in 0..n {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    match data {
                        ArrayData::Int(v) if elem.int_width() == Some(1) => {
                            f.write_str(if v[i] != 0 { "true" } else { "false" })?
                        }
                        ArrayData::Int(v) => write!(f, "{}", v[i])?,
                        ArrayData::Float(v) => {
                            let k = elem.float_kind().unwrap_or(crate::types::FloatKind::F64);
                            let bits = float::f64_to_bits(v[i], k).unwrap_or(v[i].to_bits());
                            f.write_str(&float::format_float(bits, k))?
                        }
                    }
                }
                f.write_char('>')
            }
            AttrData::AffineMap(m) => write!(f, "affine_map<{}>", m),
            AttrData::Strided { strides, offset } => {
                f.write_str("strided<[")?;
                for (i, s) in strides.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write_i64_or_dyn(f, *s)?;
                }
                f.write_char(']')?;
                if *offset != 0 {
                    f.write_str(", offset: ")?;
                    write_i64_or_dyn(f, *offset)?;
                }
                f.write_char('>')
            }
            AttrData::Opaque { dialect, body } => write!(f, "#{}{}", dialect, body),
        }
    }
}
