"""Writes DIR/boxes.npy (8 boxes as corners, some overlapping, some given
with their corners swapped), DIR/logits.npy and DIR/t.npy, from a fixed seed."""
import sys

import numpy as np

out = sys.argv[1]
rng = np.random.default_rng(0)
centers = rng.uniform(0, 10, (8, 2))
centers[1] = centers[0] + 0.3
centers[5] = centers[4] + 0.5
size = rng.uniform(1, 3, (8, 2))
boxes = np.concatenate([centers - size / 2, centers + size / 2], axis=1)
boxes[3] = boxes[3][[2, 3, 0, 1]]
np.save(f"{out}/boxes.npy", boxes[None].astype(np.float32))
np.save(f"{out}/logits.npy", rng.standard_normal((1, 2, 8)).astype(np.float32))
np.save(f"{out}/t.npy", (rng.standard_normal((3, 5)) * 2).astype(np.float32))
