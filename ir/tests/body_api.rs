//! The IR mutation API: use lists stay exact through every edit, clones are
//! deep and remap values and blocks, walks visit in the documented orders, and
//! the verifier catches IR that edits made invalid.

use ir::{Body, Context, InsertPoint, Location, OpId, OperationState, Value};
use std::collections::HashMap;

fn ctx() -> Context {
    let mut c = Context::new();
    c.allow_unregistered = true;
    c
}

fn op(c: &Context, b: &mut Body, name: &str, operands: &[Value], results: usize, at: InsertPoint) -> OpId {
    let st = OperationState::new(c.op_name(name), Location::unknown()).operands(operands).results(&vec![c.i32(); results]);
    b.build(st, at)
}

/// A module with one block, and the block.
fn module(c: &Context, b: &mut Body) -> (OpId, ir::Block) {
    let r = b.new_region();
    let blk = b.add_block(r, &[]);
    let m = b.create_op(OperationState::new(c.op_name("builtin.module"), Location::unknown()).region(r));
    (m, blk)
}

/// Every recorded use points at an operand holding the value, and vice versa.
fn check_use_lists(b: &Body, root: OpId) {
    let mut seen: HashMap<Value, usize> = HashMap::new();
    for o in b.walk_preorder(root) {
        for (i, v) in b.op(o).operands().iter().enumerate() {
            *seen.entry(*v).or_default() += 1;
            assert!(b.uses(*v).iter().any(|u| u.op == o && u.index as usize == i), "operand {} of {:?} missing from use list", i, o);
        }
    }
    for (v, n) in seen {
        assert_eq!(b.uses(v).len(), n, "use list of {:?} has stale entries", v);
    }
}

#[test]
fn replace_all_uses_and_set_operand_keep_use_lists_exact() {
    let c = ctx();
    let mut b = Body::new();
    let (m, blk) = module(&c, &mut b);
    let a = op(&c, &mut b, "t.a", &[], 1, InsertPoint::AtEnd(blk));
    let av = b.op(a).result(0);
    let x = op(&c, &mut b, "t.x", &[], 1, InsertPoint::AtEnd(blk));
    let xv = b.op(x).result(0);
    let u1 = op(&c, &mut b, "t.use", &[av, av], 0, InsertPoint::AtEnd(blk));
    let u2 = op(&c, &mut b, "t.use", &[av, xv], 0, InsertPoint::AtEnd(blk));
    assert_eq!(b.uses(av).len(), 3);
    b.replace_all_uses(av, xv);
    assert!(!b.has_uses(av));
    assert_eq!(b.uses(xv).len(), 4);
    assert_eq!(b.op(u1).operands(), &[xv, xv]);
    b.set_operand(u2, 0, av);
    assert_eq!(b.uses(av).len(), 1);
    check_use_lists(&b, m);
    b.erase(u1);
    assert_eq!(b.uses(xv).len(), 1);
    check_use_lists(&b, m);
    assert!(ir::verifier::verify(&c, &b, m).is_ok());
}

#[test]
fn insert_move_detach_keep_block_order() {
    let c = ctx();
    let mut b = Body::new();
    let (m, blk) = module(&c, &mut b);
    let o1 = op(&c, &mut b, "t.1", &[], 0, InsertPoint::AtEnd(blk));
    let o3 = op(&c, &mut b, "t.3", &[], 0, InsertPoint::AtEnd(blk));
    let o2 = op(&c, &mut b, "t.2", &[], 0, InsertPoint::Before(o3));
    let o0 = op(&c, &mut b, "t.0", &[], 0, InsertPoint::AtStart(blk));
    let order = |b: &Body| b.block_ops(blk).map(|o| b.name(o).as_str()).collect::<Vec<_>>();
    assert_eq!(order(&b), ["t.0", "t.1", "t.2", "t.3"]);
    b.move_op(o0, InsertPoint::After(o3));
    assert_eq!(order(&b), ["t.1", "t.2", "t.3", "t.0"]);
    b.detach(o2);
    assert_eq!(order(&b), ["t.1", "t.3", "t.0"]);
    assert_eq!((b.first_op(blk), b.last_op(blk)), (Some(o1), Some(o0)));
    assert_eq!(b.prev_op(o3), Some(o1));
    let _ = m;
}

#[test]
fn moving_a_use_above_its_definition_is_caught_by_the_verifier() {
    let c = ctx();
    let mut b = Body::new();
    let r = b.new_region();
    let blk = b.add_block(r, &[]);
    let holder = b.create_op(OperationState::new(c.op_name("t.holder"), Location::unknown()).region(r));
    let d = op(&c, &mut b, "t.def", &[], 1, InsertPoint::AtEnd(blk));
    let dv = b.op(d).result(0);
    let u = op(&c, &mut b, "t.use", &[dv], 0, InsertPoint::AtEnd(blk));
    assert!(ir::verifier::verify(&c, &b, holder).is_ok());
    b.move_op(u, InsertPoint::Before(d));
    let errs = ir::verifier::verify(&c, &b, holder).unwrap_err();
    assert!(errs[0].message.contains("does not dominate this use"), "{}", errs[0].message);
}

#[test]
fn a_use_across_an_isolated_boundary_is_caught_by_the_verifier() {
    let c = ctx();
    func::register(&c);
    let mut b = Body::new();
    let r = b.new_region();
    let blk = b.add_block(r, &[]);
    let holder = b.create_op(OperationState::new(c.op_name("t.holder"), Location::unknown()).region(r));
    let d = op(&c, &mut b, "t.def", &[], 1, InsertPoint::AtEnd(blk));
    let dv = b.op(d).result(0);
    let (f, entry) = func::FunctionBuilder::create(&c, &mut b, "f", &[], &[], Location::unknown());
    b.insert(f, InsertPoint::AtEnd(blk));
    op(&c, &mut b, "t.use", &[dv], 0, InsertPoint::AtEnd(entry));
    func::FunctionBuilder::ret(&c, &mut b, entry, &[], Location::unknown());
    let errs = ir::verifier::verify(&c, &b, holder).unwrap_err();
    assert!(errs[0].message.contains("isolated from above"), "{}", errs[0].message);
}

#[test]
fn clone_is_deep_and_remaps_values_and_blocks() {
    let c = ctx();
    let mut b = Body::new();
    let (m, blk) = module(&c, &mut b);
    let outer = op(&c, &mut b, "t.outer", &[], 1, InsertPoint::AtEnd(blk));
    let ov = b.op(outer).result(0);
    // An op with a two-block region: a branch, block args, and a use of an outer value.
    let r = b.new_region();
    let b0 = b.add_block(r, &[c.i32()]);
    let b1 = b.add_block(r, &[]);
    let arg = b.block_args(b0)[0];
    let inner = op(&c, &mut b, "t.inner", &[arg, ov], 1, InsertPoint::AtEnd(b0));
    let mut br = OperationState::new(c.op_name("t.br"), Location::unknown());
    br.successors.push(b1);
    b.build(br, InsertPoint::AtEnd(b0));
    let iv = b.op(inner).result(0);
    op(&c, &mut b, "t.end", &[iv], 0, InsertPoint::AtEnd(b1));
    let host = b.create_op(OperationState::new(c.op_name("t.host"), Location::unknown()).region(r).results(&[c.i32()]));
    b.insert(host, InsertPoint::AtEnd(blk));

    let mut map = HashMap::new();
    let copy = b.clone_op(host, &mut map);
    b.insert(copy, InsertPoint::AtEnd(blk));
    assert!(ir::equivalence::check_equivalent(&b, host, &b, copy, true).is_ok());
    // Nothing of the clone aliases the original.
    let orig: Vec<OpId> = b.walk_preorder(host);
    let cl: Vec<OpId> = b.walk_preorder(copy);
    assert!(orig.iter().all(|o| !cl.contains(o)));
    let cregion = b.op(copy).regions()[0];
    let cblocks = b.region_blocks(cregion).to_vec();
    assert!(!cblocks.contains(&b0) && !cblocks.contains(&b1));
    let cbr = b.last_op(cblocks[0]).unwrap();
    assert_eq!(b.op(cbr).successors(), &[cblocks[1]], "successor not remapped");
    // The outer value is shared; the inner ones are new and mapped.
    let cinner = b.first_op(cblocks[0]).unwrap();
    assert_eq!(b.op(cinner).operand(1), ov);
    assert_eq!(b.op(cinner).operand(0), map[&arg]);
    assert_ne!(map[&arg], arg);
    check_use_lists(&b, m);
    assert!(ir::verifier::verify(&c, &b, m).is_ok());
}

#[test]
fn walks_visit_parents_first_or_children_first() {
    let c = ctx();
    let mut b = Body::new();
    let (m, blk) = module(&c, &mut b);
    let r = b.new_region();
    let inner_blk = b.add_block(r, &[]);
    let leaf = op(&c, &mut b, "t.leaf", &[], 0, InsertPoint::AtEnd(inner_blk));
    let parent = b.create_op(OperationState::new(c.op_name("t.parent"), Location::unknown()).region(r));
    b.insert(parent, InsertPoint::AtEnd(blk));
    let sib = op(&c, &mut b, "t.sibling", &[], 0, InsertPoint::AtEnd(blk));
    assert_eq!(b.walk_preorder(m), vec![m, parent, leaf, sib]);
    assert_eq!(b.walk_postorder(m), vec![leaf, parent, sib, m]);
    let mut v = vec![];
    b.walk(m, &mut |o| v.push(o));
    assert_eq!(v, b.walk_preorder(m));
    assert!(b.is_ancestor(m, leaf) && !b.is_ancestor(sib, leaf));
}

#[test]
fn inline_block_moves_ops_and_maps_arguments() {
    let c = ctx();
    let mut b = Body::new();
    let (m, blk) = module(&c, &mut b);
    let a = op(&c, &mut b, "t.a", &[], 1, InsertPoint::AtEnd(blk));
    let av = b.op(a).result(0);
    let last = op(&c, &mut b, "t.last", &[], 0, InsertPoint::AtEnd(blk));
    let src = b.new_block(&[c.i32()]);
    let p = b.block_args(src)[0];
    op(&c, &mut b, "t.use", &[p], 0, InsertPoint::AtEnd(src));
    b.inline_block(src, InsertPoint::Before(last), &[av]);
    let names: Vec<_> = b.block_ops(blk).map(|o| b.name(o).as_str()).collect();
    assert_eq!(names, ["t.a", "t.use", "t.last"]);
    assert!(b.block_is_empty(src));
    assert_eq!(b.uses(av).len(), 1);
    check_use_lists(&b, m);
}

#[test]
fn replace_op_rewires_results_and_erases() {
    let c = ctx();
    let mut b = Body::new();
    let (m, blk) = module(&c, &mut b);
    let old = op(&c, &mut b, "t.old", &[], 2, InsertPoint::AtEnd(blk));
    let new = op(&c, &mut b, "t.new", &[], 2, InsertPoint::Before(old));
    let (o0, o1) = (b.op(old).result(0), b.op(old).result(1));
    let u = op(&c, &mut b, "t.use", &[o1, o0], 0, InsertPoint::AtEnd(blk));
    let nr = b.op(new).results().to_vec();
    b.replace_op(old, &nr);
    assert!(b.is_erased(old));
    assert_eq!(b.op(u).operands(), &[nr[1], nr[0]]);
    check_use_lists(&b, m);
}

#[test]
fn context_is_shareable_and_arenas_can_move_between_threads() {
    fn sync<T: Sync + Send>() {}
    fn send<T: Send>() {}
    sync::<Context>();
    sync::<ir::Type>();
    sync::<ir::Attribute>();
    sync::<Location>();
    send::<Body>();
    // Types created from several threads at once are interned to one.
    let c = ctx();
    let ts: Vec<ir::Type> = std::thread::scope(|s| {
        let hs: Vec<_> = (0..4)
            .map(|_| s.spawn(|| c.intern_type(ir::TypeData::Integer { width: 7, signedness: ir::Signedness::Signed })))
            .collect();
        hs.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert!(ts.windows(2).all(|w| w[0] == w[1]));
}

#[test]
fn a_successor_in_another_region_is_caught_by_the_verifier() {
    // The parser scopes block names per region, so only API-built IR can do this.
    let c = ctx();
    let mut b = Body::new();
    let (m, blk) = module(&c, &mut b);
    let r1 = b.new_region();
    let b1 = b.add_block(r1, &[]);
    let r2 = b.new_region();
    let b2 = b.add_block(r2, &[]);
    op(&c, &mut b, "t.x", &[], 0, InsertPoint::AtEnd(b2));
    let mut br = OperationState::new(c.op_name("t.br"), Location::unknown());
    br.successors.push(b2);
    b.build(br, InsertPoint::AtEnd(b1));
    let holder = b.create_op(OperationState::new(c.op_name("t.two"), Location::unknown()).region(r1).region(r2));
    b.insert(holder, InsertPoint::AtEnd(blk));
    let errs = ir::verifier::verify(&c, &b, m).unwrap_err();
    assert!(errs[0].message.contains("successor #0 refers to a block defined in another region"), "{}", errs[0].message);
}

/// `OpBuilder` keeps ops built one after another in order at every kind of
/// point: after an op and at a block's start it moves past each new op,
/// before an op and at a block's end it stays.
#[test]
fn op_builder_keeps_build_order() {
    let c = ctx();
    let mut b = Body::default();
    let (_, blk) = module(&c, &mut b);
    let anchor = op(&c, &mut b, "t.anchor", &[], 0, InsertPoint::AtEnd(blk));
    let points = [InsertPoint::AtStart(blk), InsertPoint::Before(anchor), InsertPoint::After(anchor), InsertPoint::AtEnd(blk)];
    for (k, at) in points.into_iter().enumerate() {
        let mut ob = ir::OpBuilder::new(&c, &mut b, at, Location::unknown());
        let first = ob.create(&format!("t.first{}", k), &[], &[c.i32()], &[]);
        let v = ob.body.op(first).result(0);
        ob.create_value(&format!("t.second{}", k), &[v], &c.i32(), &[]);
    }
    let names: Vec<String> = b.block_ops(blk).map(|o| b.name(o).as_str().to_string()).collect();
    assert_eq!(names, ["t.first0", "t.second0", "t.first1", "t.second1", "t.anchor", "t.first2", "t.second2", "t.first3", "t.second3"]);
}

#[test]
fn inserting_and_erasing_block_arguments_renumbers_the_rest() {
    let c = ctx();
    let mut b = Body::default();
    let r = b.new_region();
    let blk = b.add_block(r, &[c.i32(), c.i32(), c.i32()]);
    let [x, y, z] = b.block_args(blk).to_vec()[..] else { panic!("three arguments") };
    let index = |b: &Body, v: Value| match b.value_def(v) {
        ir::ValueDef::BlockArg { block, index } => {
            assert_eq!(block, blk);
            index
        }
        _ => panic!("not a block argument"),
    };
    let n = b.insert_block_arg(blk, 1, c.f32(), None);
    assert_eq!(b.block_args(blk), &[x, n, y, z]);
    assert_eq!([index(&b, x), index(&b, n), index(&b, y), index(&b, z)], [0, 1, 2, 3]);
    assert_eq!(b.value_type(n), &c.f32());
    b.erase_block_arg(blk, 2);
    assert_eq!(b.block_args(blk), &[x, n, z]);
    assert_eq!([index(&b, x), index(&b, n), index(&b, z)], [0, 1, 2]);
}
