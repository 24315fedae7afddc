//! What a backend is to the framework. Object-safe, with defaults for
//! everything optional, so that a small backend is a name and a capability table.

use ir::{Body, Context, OpId};

/// The version of this interface. A backend reports the version it was built
/// against ([`Backend::api_version`]); registration refuses any other.
pub const API_VERSION: u32 = 1;

/// The name of the CPU backend, the last fallback of every list.
pub const CPU: &str = "cpu";

/// Why a backend does not take an op: a stable code for tools and placement
/// files, with the message for people beside it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// The backend has no lowering for this op at all.
    NoLowering,
    /// An element type it does not run.
    ElementType,
    /// A shape not known at compile time.
    DynamicShape,
    /// A shape, rank or batch outside what it runs.
    Shape,
    /// An attribute value it does not implement (auto_pad, dilations, ...).
    Attribute,
    /// An operand that must be a constant (weights, bias, bounds) is not.
    NotConstant,
    /// The op runs only fused into a neighbour, and that neighbour does not run here.
    Fusion,
    /// The backend took the op but could not compile its partition.
    CompileFailed,
    /// Placed elsewhere by the user.
    Placement,
    /// Any other constraint (the message says which).
    Constraint,
}

impl Reason {
    pub const ALL: [Reason; 10] = [
        Reason::NoLowering,
        Reason::ElementType,
        Reason::DynamicShape,
        Reason::Shape,
        Reason::Attribute,
        Reason::NotConstant,
        Reason::Fusion,
        Reason::CompileFailed,
        Reason::Placement,
        Reason::Constraint,
    ];
    /// The code as reports and placement files write it.
    pub fn code(self) -> &'static str {
        match self {
            Reason::NoLowering => "no-lowering",
            Reason::ElementType => "element-type",
            Reason::DynamicShape => "dynamic-shape",
            Reason::Shape => "shape",
            Reason::Attribute => "attribute",
            Reason::NotConstant => "not-constant",
            Reason::Fusion => "fusion",
            Reason::CompileFailed => "compile-failed",
            Reason::Placement => "placement",
            Reason::Constraint => "constraint",
        }
    }
    pub fn from_code(code: &str) -> Option<Reason> {
        Reason::ALL.into_iter().find(|r| r.code() == code)
    }
}

/// A backend's "no", with its reason code and message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unsupported {
    pub reason: Reason,
    pub message: String,
}

impl Unsupported {
    pub fn new(reason: Reason, message: impl Into<String>) -> Unsupported {
        Unsupported { reason, message: message.into() }
    }
}

impl std::fmt::Display for Unsupported {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "[{}] {}", self.reason.code(), self.message)
    }
}

/// A message without a code is a [`Reason::Constraint`].
impl From<String> for Unsupported {
    fn from(message: String) -> Unsupported {
        Unsupported::new(Reason::Constraint, message)
    }
}

impl From<&str> for Unsupported {
    fn from(message: &str) -> Unsupported {
        Unsupported::new(Reason::Constraint, message)
    }
}

/// One row of a backend's capability table as people read it: an op it
/// takes and the constraints it takes it under. The rows make the backend's
/// docs page ([`crate::capability::markdown`]) and choose the ONNX node tests
/// its test kit runs (`tools::testkit`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Capability {
    /// The op (`onnx.Conv`).
    pub op: &'static str,
    /// What it must be like to run here (element types, shapes, attributes, constants).
    pub constraints: &'static str,
}

/// A small model in ONNX's textual syntax (without a `<...>` header it gets
/// IR version 8 and opset 17) that shows one constraint of a
/// backend's capability table at its corner: every `op` in it is placed on the
/// backend (`refused: None`) or refused with that reason code. The test kit
/// (`tools::testkit::capability_trials`) runs each through the backend and
/// against the CPU path. Inputs after the first are compiled in as constants
/// (`--bind weights`), as weights are.
#[derive(Clone, Copy, Debug)]
pub struct CapabilityCase {
    pub name: &'static str,
    pub model: &'static str,
    pub op: &'static str,
    pub refused: Option<Reason>,
}

/// A target the partitioner can place ops on.
pub trait Backend: Send + Sync {
    /// The name users write in `--target` lists and partitions carry
    /// (`backend.partition = "<name>"`); lower case, no commas.
    fn name(&self) -> &str;

    /// The interface version the backend was built against.
    fn api_version(&self) -> u32 {
        API_VERSION
    }

    /// The keys of the backend's hardware description (`--set NAME.key=value`),
    /// each with its type, default, range and docs. The framework checks the
    /// values and puts them on the module (`backend.hw.<name>`) before
    /// [`Backend::prepare`]; read them with `crate::hw::HwDesc::of_module`.
    /// Default: none.
    fn hw_keys(&self) -> Vec<crate::hw::HwKey> {
        vec![]
    }

    /// Called once per module before any question: a backend may record its
    /// hardware description on the module (as `npu16` does with `npu.hw`).
    fn prepare(&self, _ctx: &Context, _body: &mut Body, _module: OpId) -> Result<(), String> {
        Ok(())
    }

    /// Whether the backend runs `op` as it is (dtypes, shapes, attributes).
    fn supports(&self, body: &Body, op: OpId) -> Result<(), Unsupported>;

    /// The ops [`Backend::supports`] may accept, with their constraints in
    /// words (ops taken only inside a group included). Default: none listed.
    fn capabilities(&self) -> Vec<Capability> {
        vec![]
    }

    /// Models at the corners of the capability table's constraints, each with
    /// where its op must go ([`CapabilityCase`]). Default: none.
    fn capability_cases(&self) -> Vec<CapabilityCase> {
        vec![]
    }

    /// Ops the backend runs as one (an activation fused into its producer, a
    /// quantized pattern's DequantizeLinear/QuantizeLinear with its product):
    /// given `ops` (a function's ops in program order) and the answers of
    /// [`Backend::supports`], which it may change, returns for each op the
    /// index of the op it is placed with (itself when alone). Default: none.
    fn group(&self, _body: &Body, ops: &[OpId], _answers: &mut [Result<(), Unsupported>]) -> Vec<usize> {
        (0..ops.len()).collect()
    }

    /// Compiles one of its partitions (`func`, a function of `onnx` ops
    /// labelled with this backend, in the partitioned `module`) into something
    /// that runs. An error hands the partition's ops to the next backend of
    /// the list (the CPU last) with the message as their reason (code
    /// `compile-failed`; `partition::REFUSED_ATTR` marks them and the model is
    /// partitioned again), so a backend may refuse here what it learns only
    /// while compiling (a tile that does not fit). Default: no executor.
    fn compile(&self, _ctx: &Context, _body: &Body, _module: OpId, _func: OpId) -> Result<Box<dyn crate::Executable>, String> {
        Err(format!("backend '{}' has no executor", self.name()))
    }

    /// Names the backend's compiler in compile-cache keys (with its name and
    /// the framework's version): change it whenever [`Backend::compile`] may
    /// compile the same partition differently. Default: empty.
    fn version(&self) -> String {
        String::new()
    }

    /// Restores an executable from what its [`crate::Executable::save`] wrote
    /// (a compile-cache hit). Default: none, and models with partitions on this
    /// backend are not cached.
    fn load(&self, _bytes: &[u8]) -> Result<Box<dyn crate::Executable>, String> {
        Err(format!("backend '{}' cannot load saved executables", self.name()))
    }
}

/// The CPU: runs every op the CPU path lowers; the last fallback.
pub struct Cpu;

impl Backend for Cpu {
    fn name(&self) -> &str {
        CPU
    }
    fn supports(&self, _body: &Body, _op: OpId) -> Result<(), Unsupported> {
        Ok(())
    }
}
