//! What the textual-syntax grammar produces; `text::build` turns it into protobuf messages.

#[derive(Clone, Debug)]
pub enum Dim {
    Unknown,
    Param(String),
    Value(i64),
}

#[derive(Clone, Debug)]
pub enum Ty {
    /// An element type name and, when given, the dims (`float` alone has no shape; `float[]` is a scalar).
    Tensor(String, Option<Vec<Dim>>, usize),
    Seq(Box<Ty>),
    Optional(Box<Ty>),
    Other(String, usize),
}

#[derive(Clone, Debug)]
pub enum Prim {
    Int(i64),
    Float(f64),
    Str(String),
}

#[derive(Clone, Debug)]
pub struct ValueInfo {
    pub ty: Option<Ty>,
    pub name: String,
    pub data: Option<Vec<Prim>>,
    pub pos: usize,
}

#[derive(Clone, Debug)]
pub enum AttrValue {
    Prim(Prim),
    Tensor(Ty, Option<String>, Vec<Prim>),
    Graph(Box<Graph>),
    Ref(String),
    List(Vec<AttrValue>),
}

#[derive(Clone, Debug)]
pub struct Attr {
    pub name: String,
    pub ty: Option<String>,
    pub value: AttrValue,
    pub pos: usize,
}

#[derive(Clone, Debug)]
pub struct Node {
    pub label: Option<String>,
    pub outputs: Vec<String>,
    pub op: String,
    pub attrs: Vec<Attr>,
    pub inputs: Vec<String>,
    pub pos: usize,
}

#[derive(Clone, Debug)]
pub struct Graph {
    pub name: String,
    pub inputs: Vec<ValueInfo>,
    pub outputs: Vec<ValueInfo>,
    pub initializers: Vec<ValueInfo>,
    pub nodes: Vec<Node>,
}

#[derive(Clone, Debug)]
pub enum Meta {
    Int(i64),
    Str(String),
    Pairs(Vec<(String, i64)>),
}

#[derive(Clone, Debug)]
pub struct Model {
    pub header: Vec<(String, Meta, usize)>,
    pub graph: Graph,
    /// Model-local functions after the graph.
    pub functions: Vec<Function>,
}

#[derive(Clone, Debug)]
pub struct Function {
    pub meta: Vec<(String, Meta, usize)>,
    pub name: String,
    pub attrs: Vec<FnAttr>,
    pub inputs: Vec<String>,
    pub outputs: Vec<String>,
    pub nodes: Vec<Node>,
    pub pos: usize,
}

/// An attribute a function takes, with its default value if it has one.
#[derive(Clone, Debug)]
pub struct FnAttr {
    pub name: String,
    pub default: Option<Attr>,
    pub pos: usize,
}
