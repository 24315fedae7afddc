//! The IR arena. A [`Body`] owns operations, blocks, regions and values by
//! index; handles ([`OpId`], [`Block`], [`Region`], [`Value`]) are `Copy`. Ops in
//! a block form an intrusive doubly-linked list so insertion and moves are O(1);
//! every value keeps its use list so replace-all-uses-with is O(uses).
//!
//! Erased slots are not reused, so a stale handle never aliases a new entity.

use crate::attributes::{AttrDict, Attribute};
use crate::context::{Ident, OpName};
use crate::location::Location;
use crate::types::Type;
use smallvec::SmallVec;
use std::collections::HashMap;

macro_rules! handle {
    ($(#[$m:meta])* $name:ident) => {
        $(#[$m])*
        #[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
        pub struct $name(pub u32);
        impl $name {
            pub fn index(self) -> usize {
                self.0 as usize
            }
        }
    };
}
handle!(/// An operation.
    OpId);
handle!(/// A block: arguments and a list of operations.
    Block);
handle!(/// A region: a list of blocks owned by an operation.
    Region);
handle!(/// An SSA value: an op result or a block argument.
    Value);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueDef {
    OpResult { op: OpId, index: u32 },
    BlockArg { block: Block, index: u32 },
}

/// One use of a value: operand `index` of `op`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Use {
    pub op: OpId,
    pub index: u32,
}

#[derive(Clone)]
struct ValueData {
    ty: Type,
    def: ValueDef,
    uses: Vec<Use>,
    loc: Option<Location>,
}

#[derive(Clone)]
pub struct OpData {
    pub name: OpName,
    operands: SmallVec<[Value; 3]>,
    results: SmallVec<[Value; 1]>,
    /// Inherent attributes, printed as `<{...}>`.
    pub properties: AttrDict,
    /// Discardable attributes, printed as `{...}`.
    pub attributes: AttrDict,
    regions: SmallVec<[Region; 1]>,
    successors: SmallVec<[Block; 2]>,
    pub loc: Location,
    parent: Option<Block>,
    prev: Option<OpId>,
    next: Option<OpId>,
    erased: bool,
}

impl OpData {
    pub fn operands(&self) -> &[Value] {
        &self.operands
    }
    pub fn results(&self) -> &[Value] {
        &self.results
    }
    pub fn regions(&self) -> &[Region] {
        &self.regions
    }
    pub fn successors(&self) -> &[Block] {
        &self.successors
    }
    pub fn parent_block(&self) -> Option<Block> {
        self.parent
    }
    pub fn result(&self, i: usize) -> Value {
        self.results[i]
    }
    pub fn operand(&self, i: usize) -> Value {
        self.operands[i]
    }
    /// A property, or if absent a discardable attribute, of this name.
    pub fn attr(&self, name: &str) -> Option<&Attribute> {
        self.properties.get(name).or_else(|| self.attributes.get(name))
    }
    /// [`attr`](Self::attr) as an integer: the one place passes read attributes by type.
    pub fn int_attr(&self, name: &str) -> Option<i64> {
        self.attr(name)?.as_int().map(|v| v as i64)
    }
    /// [`attr`](Self::attr) as a float.
    pub fn float_attr(&self, name: &str) -> Option<f64> {
        self.attr(name)?.as_float()
    }
    /// [`attr`](Self::attr) as a string.
    pub fn str_attr(&self, name: &str) -> Option<&str> {
        self.attr(name)?.as_str()
    }
    /// [`attr`](Self::attr) as an integer list (`Attribute::as_ints`).
    pub fn ints_attr(&self, name: &str) -> Option<Vec<i64>> {
        self.attr(name)?.as_ints()
    }
    /// [`attr`](Self::attr) as a float list (`Attribute::as_floats`).
    pub fn floats_attr(&self, name: &str) -> Option<Vec<f64>> {
        self.attr(name)?.as_floats()
    }
}

#[derive(Clone)]
struct BlockData {
    args: SmallVec<[Value; 2]>,
    first: Option<OpId>,
    last: Option<OpId>,
    parent: Option<Region>,
}

#[derive(Clone)]
struct RegionData {
    blocks: Vec<Block>,
    parent: Option<OpId>,
}

/// Everything needed to create an operation.
pub struct OperationState {
    pub name: OpName,
    pub operands: Vec<Value>,
    pub result_types: Vec<Type>,
    pub properties: AttrDict,
    pub attributes: AttrDict,
    /// Detached regions (from [`Body::new_region`]) the op takes ownership of.
    pub regions: Vec<Region>,
    pub successors: Vec<Block>,
    pub loc: Location,
}

impl OperationState {
    pub fn new(name: OpName, loc: Location) -> OperationState {
        OperationState {
            name,
            operands: vec![],
            result_types: vec![],
            properties: AttrDict::new(),
            attributes: AttrDict::new(),
            regions: vec![],
            successors: vec![],
            loc,
        }
    }
    pub fn operands(mut self, v: &[Value]) -> Self {
        self.operands.extend_from_slice(v);
        self
    }
    pub fn results(mut self, t: &[Type]) -> Self {
        self.result_types.extend_from_slice(t);
        self
    }
    pub fn property(mut self, name: Ident, a: Attribute) -> Self {
        self.properties.set(name, a);
        self
    }
    pub fn attribute(mut self, name: Ident, a: Attribute) -> Self {
        self.attributes.set(name, a);
        self
    }
    pub fn region(mut self, r: Region) -> Self {
        self.regions.push(r);
        self
    }
}

/// Where [`Body::insert`] puts an operation.
#[derive(Clone, Copy, Debug)]
pub enum InsertPoint {
    AtEnd(Block),
    AtStart(Block),
    Before(OpId),
    After(OpId),
}

/// Cloning copies the arena (attributes, including large constants, are shared).
#[derive(Default, Clone)]
pub struct Body {
    ops: Vec<OpData>,
    blocks: Vec<BlockData>,
    regions: Vec<RegionData>,
    values: Vec<ValueData>,
}

impl Body {
    pub fn new() -> Body {
        Body::default()
    }

    /// An arena with room reserved for about `ops` operations (and as many
    /// values), so that building a large module never copies the arena.
    pub fn with_capacity(ops: usize) -> Body {
        Body {
            ops: Vec::with_capacity(ops),
            blocks: Vec::with_capacity(ops / 16),
            regions: Vec::with_capacity(ops / 16),
            values: Vec::with_capacity(ops + ops / 2),
        }
    }

    /// Number of op slots ever created (live or erased); sizes side tables indexed by `OpId`.
    pub fn op_capacity(&self) -> usize {
        self.ops.len()
    }
    pub fn block_capacity(&self) -> usize {
        self.blocks.len()
    }
    pub fn value_capacity(&self) -> usize {
        self.values.len()
    }

    // ---- creation ------------------------------------------------------

    pub fn new_region(&mut self) -> Region {
        self.regions.push(RegionData { blocks: vec![], parent: None });
        Region(self.regions.len() as u32 - 1)
    }

    /// A detached block with arguments of the given types.
    pub fn new_block(&mut self, arg_types: &[Type]) -> Block {
        let b = Block(self.blocks.len() as u32);
        self.blocks.push(BlockData { args: SmallVec::new(), first: None, last: None, parent: None });
        for t in arg_types {
            self.add_block_arg(b, t.clone(), None);
        }
        b
    }

    /// Appends a new block to `region`.
    pub fn add_block(&mut self, region: Region, arg_types: &[Type]) -> Block {
        let b = self.new_block(arg_types);
        self.append_block(region, b);
        b
    }

    pub fn append_block(&mut self, region: Region, b: Block) {
        self.blocks[b.index()].parent = Some(region);
        self.regions[region.index()].blocks.push(b);
    }

    pub fn add_block_arg(&mut self, b: Block, ty: Type, loc: Option<Location>) -> Value {
        let index = self.blocks[b.index()].args.len() as u32;
        let v = self.new_value(ty, ValueDef::BlockArg { block: b, index }, loc);
        self.blocks[b.index()].args.push(v);
        v
    }

    /// Inserts an argument at `index` of block `b`; those after it move up one.
    pub fn insert_block_arg(&mut self, b: Block, index: usize, ty: Type, loc: Option<Location>) -> Value {
        let v = self.new_value(ty, ValueDef::BlockArg { block: b, index: index as u32 }, loc);
        self.blocks[b.index()].args.insert(index, v);
        self.renumber_block_args(b, index + 1);
        v
    }

    /// Removes the argument at `index` of block `b`, which has no uses left;
    /// those after it move down one.
    pub fn erase_block_arg(&mut self, b: Block, index: usize) {
        let v = self.blocks[b.index()].args.remove(index);
        debug_assert!(self.values[v.index()].uses.is_empty(), "a block argument erased with uses");
        self.renumber_block_args(b, index);
    }

    fn renumber_block_args(&mut self, b: Block, from: usize) {
        for i in from..self.blocks[b.index()].args.len() {
            let v = self.blocks[b.index()].args[i];
            self.values[v.index()].def = ValueDef::BlockArg { block: b, index: i as u32 };
        }
    }

    fn new_value(&mut self, ty: Type, def: ValueDef, loc: Option<Location>) -> Value {
        self.values.push(ValueData { ty, def, uses: Vec::new(), loc });
        Value(self.values.len() as u32 - 1)
    }

    /// Creates a detached operation.
    pub fn create_op(&mut self, st: OperationState) -> OpId {
        let id = OpId(self.ops.len() as u32);
        let mut results = SmallVec::with_capacity(st.result_types.len());
        for (i, t) in st.result_types.into_iter().enumerate() {
            results.push(self.new_value(t, ValueDef::OpResult { op: id, index: i as u32 }, None));
        }
        for (i, v) in st.operands.iter().enumerate() {
            self.values[v.index()].uses.push(Use { op: id, index: i as u32 });
        }
        for r in &st.regions {
            self.regions[r.index()].parent = Some(id);
        }
        self.ops.push(OpData {
            name: st.name,
            operands: SmallVec::from_vec(st.operands),
            results,
            properties: st.properties,
            attributes: st.attributes,
            regions: SmallVec::from_vec(st.regions),
            successors: SmallVec::from_vec(st.successors),
            loc: st.loc,
            parent: None,
            prev: None,
            next: None,
            erased: false,
        });
        id
    }

    /// Creates an operation and inserts it.
    pub fn build(&mut self, st: OperationState, at: InsertPoint) -> OpId {
        let op = self.create_op(st);
        self.insert(op, at);
        op
    }

    // ---- accessors -----------------------------------------------------

    pub fn op(&self, op: OpId) -> &OpData {
        &self.ops[op.index()]
    }
    pub fn op_mut(&mut self, op: OpId) -> &mut OpData {
        &mut self.ops[op.index()]
    }
    pub fn is_erased(&self, op: OpId) -> bool {
        self.ops[op.index()].erased
    }
    pub fn name(&self, op: OpId) -> OpName {
        self.ops[op.index()].name
    }
    pub fn value_type(&self, v: Value) -> &Type {
        &self.values[v.index()].ty
    }
    pub fn set_value_type(&mut self, v: Value, t: Type) {
        self.values[v.index()].ty = t;
    }
    pub fn value_def(&self, v: Value) -> ValueDef {
        self.values[v.index()].def
    }
    pub fn value_loc(&self, v: Value) -> Option<&Location> {
        self.values[v.index()].loc.as_ref()
    }
    pub fn set_value_loc(&mut self, v: Value, l: Location) {
        self.values[v.index()].loc = Some(l);
    }
    pub fn uses(&self, v: Value) -> &[Use] {
        &self.values[v.index()].uses
    }
    pub fn has_uses(&self, v: Value) -> bool {
        !self.values[v.index()].uses.is_empty()
    }
    /// The op defining `v`, if it is an op result.
    pub fn defining_op(&self, v: Value) -> Option<OpId> {
        match self.value_def(v) {
            ValueDef::OpResult { op, .. } => Some(op),
            _ => None,
        }
    }
    /// The block `v` is defined in (its op's block, or the block it is an argument of).
    pub fn value_block(&self, v: Value) -> Option<Block> {
        match self.value_def(v) {
            ValueDef::OpResult { op, .. } => self.ops[op.index()].parent,
            ValueDef::BlockArg { block, .. } => Some(block),
        }
    }
    pub fn block_args(&self, b: Block) -> &[Value] {
        &self.blocks[b.index()].args
    }
    pub fn block_parent(&self, b: Block) -> Option<Region> {
        self.blocks[b.index()].parent
    }
    pub fn region_parent(&self, r: Region) -> Option<OpId> {
        self.regions[r.index()].parent
    }
    pub fn region_blocks(&self, r: Region) -> &[Block] {
        &self.regions[r.index()].blocks
    }
    /// The op whose region holds `op`.
    pub fn parent_op(&self, op: OpId) -> Option<OpId> {
        let b = self.ops[op.index()].parent?;
        self.region_parent(self.blocks[b.index()].parent?)
    }
    pub fn block_parent_op(&self, b: Block) -> Option<OpId> {
        self.region_parent(self.blocks[b.index()].parent?)
    }
    pub fn first_op(&self, b: Block) -> Option<OpId> {
        self.blocks[b.index()].first
    }
    pub fn last_op(&self, b: Block) -> Option<OpId> {
        self.blocks[b.index()].last
    }
    pub fn next_op(&self, op: OpId) -> Option<OpId> {
        self.ops[op.index()].next
    }
    pub fn prev_op(&self, op: OpId) -> Option<OpId> {
        self.ops[op.index()].prev
    }
    /// The ops of a block, in order.
    pub fn block_ops(&self, b: Block) -> BlockOps<'_> {
        BlockOps { body: self, cur: self.blocks[b.index()].first }
    }
    pub fn block_is_empty(&self, b: Block) -> bool {
        self.blocks[b.index()].first.is_none()
    }
    /// The single block of the op's first region (module and function bodies).
    pub fn entry_block(&self, op: OpId) -> Option<Block> {
        let r = *self.ops[op.index()].regions.first()?;
        self.regions[r.index()].blocks.first().copied()
    }
    /// True when `a` is `b` or nested anywhere inside `b`.
    pub fn is_ancestor(&self, b: OpId, a: OpId) -> bool {
        let mut cur = Some(a);
        while let Some(c) = cur {
            if c == b {
                return true;
            }
            cur = self.parent_op(c);
        }
        false
    }

    // ---- mutation ------------------------------------------------------

    /// Links a detached op into a block.
    pub fn insert(&mut self, op: OpId, at: InsertPoint) {
        debug_assert!(self.ops[op.index()].parent.is_none(), "insert of an attached op");
        let (block, prev, next) = match at {
            InsertPoint::AtEnd(b) => (b, self.blocks[b.index()].last, None),
            InsertPoint::AtStart(b) => (b, None, self.blocks[b.index()].first),
            InsertPoint::Before(o) => (self.ops[o.index()].parent.expect("anchor not in a block"), self.ops[o.index()].prev, Some(o)),
            InsertPoint::After(o) => (self.ops[o.index()].parent.expect("anchor not in a block"), Some(o), self.ops[o.index()].next),
        };
        let d = &mut self.ops[op.index()];
        d.parent = Some(block);
        d.prev = prev;
        d.next = next;
        match prev {
            Some(p) => self.ops[p.index()].next = Some(op),
            None => self.blocks[block.index()].first = Some(op),
        }
        match next {
            Some(n) => self.ops[n.index()].prev = Some(op),
            None => self.blocks[block.index()].last = Some(op),
        }
    }

    /// Unlinks an op from its block; it keeps its operands, results and regions.
    pub fn detach(&mut self, op: OpId) {
        let Some(block) = self.ops[op.index()].parent else { return };
        let (prev, next) = (self.ops[op.index()].prev, self.ops[op.index()].next);
        match prev {
            Some(p) => self.ops[p.index()].next = next,
            None => self.blocks[block.index()].first = next,
        }
        match next {
            Some(n) => self.ops[n.index()].prev = prev,
            None => self.blocks[block.index()].last = prev,
        }
        let d = &mut self.ops[op.index()];
        d.parent = None;
        d.prev = None;
        d.next = None;
    }

    /// Moves an op (with everything nested in it) to a new place.
    pub fn move_op(&mut self, op: OpId, at: InsertPoint) {
        self.detach(op);
        self.insert(op, at);
    }

    fn remove_use(&mut self, v: Value, u: Use) {
        let uses = &mut self.values[v.index()].uses;
        if let Some(i) = uses.iter().position(|x| *x == u) {
            uses.swap_remove(i);
        }
    }

    pub fn set_operand(&mut self, op: OpId, i: usize, v: Value) {
        let old = self.ops[op.index()].operands[i];
        let u = Use { op, index: i as u32 };
        self.remove_use(old, u);
        self.values[v.index()].uses.push(u);
        self.ops[op.index()].operands[i] = v;
    }

    /// Replaces the whole operand list.
    pub fn set_operands(&mut self, op: OpId, vals: &[Value]) {
        let old: SmallVec<[Value; 3]> = self.ops[op.index()].operands.clone();
        for (i, v) in old.iter().enumerate() {
            self.remove_use(*v, Use { op, index: i as u32 });
        }
        for (i, v) in vals.iter().enumerate() {
            self.values[v.index()].uses.push(Use { op, index: i as u32 });
        }
        self.ops[op.index()].operands = SmallVec::from_slice(vals);
    }

    pub fn set_successor(&mut self, op: OpId, i: usize, b: Block) {
        self.ops[op.index()].successors[i] = b;
    }

    /// Makes every use of `from` a use of `to`.
    pub fn replace_all_uses(&mut self, from: Value, to: Value) {
        if from == to {
            return;
        }
        let uses = std::mem::take(&mut self.values[from.index()].uses);
        for u in &uses {
            self.ops[u.op.index()].operands[u.index as usize] = to;
        }
        self.values[to.index()].uses.extend(uses);
    }

    /// Replaces the results of `op` with `with` (one per result) and erases `op`.
    pub fn replace_op(&mut self, op: OpId, with: &[Value]) {
        let results: SmallVec<[Value; 1]> = self.ops[op.index()].results.clone();
        assert_eq!(results.len(), with.len(), "replace_op: result count mismatch");
        for (r, w) in results.iter().zip(with) {
            self.replace_all_uses(*r, *w);
        }
        self.erase(op);
    }

    /// Detaches and erases an op with its regions. Its results must be unused
    /// (uses from inside the erased op itself do not count).
    pub fn erase(&mut self, op: OpId) {
        self.detach(op);
        self.erase_rec(op);
    }

    fn erase_rec(&mut self, op: OpId) {
        for r in self.ops[op.index()].regions.clone() {
            self.erase_region_contents(r);
        }
        let operands: SmallVec<[Value; 3]> = std::mem::take(&mut self.ops[op.index()].operands);
        for (i, v) in operands.iter().enumerate() {
            self.remove_use(*v, Use { op, index: i as u32 });
        }
        for r in self.ops[op.index()].results.clone() {
            debug_assert!(
                self.values[r.index()].uses.iter().all(|u| self.ops[u.op.index()].erased),
                "erasing {} whose result is still used",
                self.ops[op.index()].name
            );
            self.values[r.index()].uses.clear();
        }
        self.ops[op.index()].erased = true;
        self.ops[op.index()].parent = None;
    }

    /// Erases every block of a region (and their ops).
    pub fn erase_region_contents(&mut self, r: Region) {
        let blocks = std::mem::take(&mut self.regions[r.index()].blocks);
        // Drop all operand uses first so that cross-references inside the region don't matter.
        let mut all = Vec::new();
        for b in &blocks {
            let mut cur = self.blocks[b.index()].first;
            while let Some(o) = cur {
                cur = self.ops[o.index()].next;
                all.push(o);
            }
        }
        for &o in &all {
            self.ops[o.index()].erased = true;
        }
        for o in all {
            self.ops[o.index()].parent = None;
            self.erase_rec(o);
        }
        for b in blocks {
            self.blocks[b.index()].first = None;
            self.blocks[b.index()].last = None;
            self.blocks[b.index()].parent = None;
        }
    }

    /// Removes a block from its region; its ops must already be gone or moved.
    pub fn remove_block(&mut self, b: Block) {
        if let Some(r) = self.blocks[b.index()].parent.take() {
            self.regions[r.index()].blocks.retain(|x| *x != b);
        }
    }

    /// Moves every op of `src` to `at` (inlining a block), mapping `src`'s
    /// arguments to `args`; `src` is left empty.
    pub fn inline_block(&mut self, src: Block, at: InsertPoint, args: &[Value]) {
        let params: Vec<Value> = self.blocks[src.index()].args.to_vec();
        for (p, a) in params.iter().zip(args) {
            self.replace_all_uses(*p, *a);
        }
        let ops: Vec<OpId> = self.block_ops(src).collect();
        let mut anchor = at;
        for o in ops {
            self.detach(o);
            self.insert(o, anchor);
            anchor = InsertPoint::After(o);
        }
    }

    /// Deep-clones a (possibly attached) op as a new detached op. Operands defined
    /// outside are looked up in `map` and kept as they are when absent; every
    /// value created is recorded in `map`.
    pub fn clone_op(&mut self, op: OpId, map: &mut HashMap<Value, Value>) -> OpId {
        let d = &self.ops[op.index()];
        let operands: Vec<Value> = d.operands.iter().map(|v| *map.get(v).unwrap_or(v)).collect();
        let result_types: Vec<Type> = d.results.iter().map(|r| self.values[r.index()].ty.clone()).collect();
        let (name, props, attrs, loc) = (d.name, d.properties.clone(), d.attributes.clone(), d.loc.clone());
        let old_regions: Vec<Region> = d.regions.to_vec();
        let old_succ: Vec<Block> = d.successors.to_vec();
        let old_results: Vec<Value> = d.results.to_vec();
        let mut regions = Vec::new();
        let mut block_map: HashMap<Block, Block> = HashMap::new();
        for r in old_regions {
            let nr = self.new_region();
            let blocks = self.regions[r.index()].blocks.clone();
            // Create all blocks first so successors and forward uses map.
            for b in &blocks {
                let nb = self.new_block(&[]);
                for a in self.blocks[b.index()].args.clone() {
                    let t = self.values[a.index()].ty.clone();
                    let l = self.values[a.index()].loc.clone();
                    let na = self.add_block_arg(nb, t, l);
                    map.insert(a, na);
                }
                self.append_block(nr, nb);
                block_map.insert(*b, nb);
            }
            for b in &blocks {
                let ops: Vec<OpId> = self.block_ops(*b).collect();
                for o in ops {
                    let c = self.clone_op(o, map);
                    self.insert(c, InsertPoint::AtEnd(block_map[b]));
                }
            }
            regions.push(nr);
        }
        // Fix successor references inside cloned regions (they were cloned before all blocks mapped? no: blocks mapped first).
        let successors = old_succ.iter().map(|b| *block_map.get(b).unwrap_or(b)).collect();
        let mut st = OperationState::new(name, loc);
        st.operands = operands;
        st.result_types = result_types;
        st.properties = props;
        st.attributes = attrs;
        st.regions = regions;
        st.successors = successors;
        let new = self.create_op(st);
        for (o, n) in old_results.iter().zip(self.ops[new.index()].results.clone()) {
            map.insert(*o, n);
        }
        // Successors of nested terminators referring to blocks of the cloned regions.
        if !block_map.is_empty() {
            for o in self.walk_preorder(new) {
                let succ = self.ops[o.index()].successors.clone();
                for (i, s) in succ.iter().enumerate() {
                    if let Some(nb) = block_map.get(s) {
                        self.ops[o.index()].successors[i] = *nb;
                    }
                }
            }
        }
        new
    }

    // ---- walks ---------------------------------------------------------

    /// `op` and every op nested in it, parents before children.
    pub fn walk_preorder(&self, op: OpId) -> Vec<OpId> {
        let mut out = Vec::new();
        let mut stack = vec![op];
        while let Some(o) = stack.pop() {
            out.push(o);
            let mut children = Vec::new();
            for r in &self.ops[o.index()].regions {
                for b in &self.regions[r.index()].blocks {
                    children.extend(self.block_ops(*b));
                }
            }
            stack.extend(children.into_iter().rev());
        }
        out
    }

    /// The values `op` and the ops nested in it use that are defined outside
    /// `op` (as MLIR's `getUsedValuesDefinedAbove`, with `op`'s own operands),
    /// in order of first use: what outlining `op` must pass in.
    pub fn captured_values(&self, op: OpId) -> Vec<Value> {
        let ops = self.walk_preorder(op);
        let inner: std::collections::HashSet<OpId> = ops.iter().copied().collect();
        let mut seen = std::collections::HashSet::new();
        let mut out = Vec::new();
        for o in ops {
            for &v in self.op(o).operands() {
                let outside = match self.defining_op(v) {
                    Some(d) => !inner.contains(&d),
                    None => self.value_block(v).and_then(|b| self.block_parent_op(b)).is_none_or(|p| !inner.contains(&p)),
                };
                if outside && seen.insert(v) {
                    out.push(v);
                }
            }
        }
        out
    }

    /// `op` and every op nested in it, children before parents.
    pub fn walk_postorder(&self, op: OpId) -> Vec<OpId> {
        let mut out = Vec::new();
        self.post_rec(op, &mut out);
        out
    }

    fn post_rec(&self, op: OpId, out: &mut Vec<OpId>) {
        // Iterative over blocks to keep recursion depth to nesting depth.
        for r in &self.ops[op.index()].regions {
            for b in &self.regions[r.index()].blocks {
                for o in self.block_ops(*b) {
                    self.post_rec(o, out);
                }
            }
        }
        out.push(op);
    }

    /// Calls `f` on `op` and every nested op, parents first.
    pub fn walk(&self, op: OpId, f: &mut impl FnMut(OpId)) {
        f(op);
        for r in &self.ops[op.index()].regions {
            for b in &self.regions[r.index()].blocks {
                let mut cur = self.blocks[b.index()].first;
                while let Some(o) = cur {
                    self.walk(o, f);
                    cur = self.ops[o.index()].next;
                }
            }
        }
    }
}

pub struct BlockOps<'a> {
    body: &'a Body,
    cur: Option<OpId>,
}

impl Iterator for BlockOps<'_> {
    type Item = OpId;
    fn next(&mut self) -> Option<OpId> {
        let c = self.cur?;
        self.cur = self.body.ops[c.index()].next;
        Some(c)
    }
}

