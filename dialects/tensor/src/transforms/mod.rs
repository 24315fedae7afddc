//! The tensor dialect's transforms (as MLIR's linalg transforms): named ops
//! generalized, elementwise fusion, folding pads and constant copies, and
//! bufferization (tensors to memrefs).

mod bufferize;
mod fold_constant_copies;
mod fold_pad_into_producer;
mod fuse_elementwise;
mod generalize;
mod pool_on_channel_tiles;

use ir::pass::{PassInfo, PassRegistry};

/// Registers the tensor transforms.
pub fn register(reg: &mut PassRegistry) {
    reg.register(PassInfo {
        argument: "fold-constant-copies",
        summary: "Replace tensor.generics that only copy a constant's elements (transposes, broadcasts, slices) by the constant they compute",
        options: vec![],
        create: |_| Ok(Box::new(fold_constant_copies::FoldConstantCopies)),
    });
    reg.register(PassInfo {
        argument: "tensor-generalize",
        summary: "Turn named structured ops (tensor.matmul, tensor.conv_2d_nchw_fchw, tensor.fill, ...) into tensor.generic",
        options: vec![],
        create: |_| Ok(Box::new(generalize::Generalize)),
    });
    reg.register(PassInfo {
        argument: "fuse-elementwise",
        summary: "Fuse elementwise tensor.generic consumers into their producers (parallel bodies merged; after a reduction, as its epilogue)",
        options: vec![],
        create: |_| Ok(Box::new(fuse_elementwise::FuseElementwise)),
    });
    reg.register(PassInfo {
        argument: "pool-on-channel-tiles",
        summary: "A max pool of a product in channel tiles copied back to NCHW pools the tiles and copies back its own output (the ops of the copy after the pool, where they keep order)",
        options: vec![],
        create: |_| Ok(Box::new(pool_on_channel_tiles::PoolOnChannelTiles)),
    });
    reg.register(PassInfo {
        argument: "fold-pad-into-producer",
        summary: "A generic whose result is only copied into a padded tensor writes the padded tensor's interior itself (output map offset by the padding)",
        options: vec![],
        create: |_| Ok(Box::new(fold_pad_into_producer::FoldPadIntoProducer)),
    });
    reg.register(PassInfo {
        argument: "bufferize",
        summary: "Tensors to memrefs: results become output arguments, constants globals, generics write in place",
        options: vec![],
        create: |_| Ok(Box::new(bufferize::Bufferize)),
    });
}
