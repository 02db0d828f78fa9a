#!/usr/bin/python3
"""Trains the learned evaluation (docs/nnue.md) and writes it as a network file.

Reads the binary training files of `lasca-tune features` (the network's active inputs for both
perspectives, computed by the engine's own code: this script never computes an input), fits the
network of include/lasca/eval/nnue.h in floating point and writes it quantised in that header's file
format (LASCANN3), with the input fingerprint of the training files (nnue.h inputFingerprint(),
which `lasca-tune features` writes into their header): the engine refuses a network made for
other inputs.

Model (nnue.h): a feature transformer shared by both perspectives, the sum of the weight rows
of the active inputs plus a bias (1,100 -> 128), applied to the side to move's inputs and to
the other side's; the two halves concatenated (side to move first), clipped ReLU (clamp to
[0, 1]), then Linear(256, 1): y, the evaluation in soldiers from the side to move's view.

Loss (the Texel fit's, docs/tuning.md, mixed with the search score):
    target = lambda * sigmoid(score / S) + (1 - lambda) * result
    loss   = mean (sigmoid((base + 100 * y) / S) - target)^2
base is 0 for a full network; with --residual it is the classic evaluation of the position (the
record's `classic` field), and the network learns a correction to it (written as LASCANR3: the
engine then adds the classic evaluation to the network's output).
score is the search score in centi-soldiers and result the game's result for the side to move
(1, 0.5, 0), both from the data; S is the centi-soldier scale of the Texel fit's winning-chance
curve, 400 / (K ln 10), with K = 0.680 the fit of the evaluation in use (S = 255.5).

Quantisation (nnue.h): feature weights and biases are kept within +-1.27 after every step and
written x255 (int16), output weights x256 (int16), output bias x255x256 (int32).

    train.py DATA.bin... --out net.nnue [--epochs 10] [--seed 1] [--lambda 0.5] [--scale S]
             [--batch 8192] [--lr 0.002] [--lr-decay 0.9] [--threads 2] [--load net.nnue]
             [--residual] [--shrink F]
             [--reference DATA.bin --reference-text DATA.txt --reference-out REF.txt
              [--reference-count 200]]

--reference writes, for the first records of a training file, one line per position
"<centi-soldiers> <LFEN>": the float network's output 100 * y (side to move's view), the LFEN
taken from the text file the training file was made from (record i is its i-th non-empty line).
The C++ test compares its integer inference with it. With --load and --epochs 0 it writes the
reference of an existing network (its quantised weights read back as floats). --load also reads
the older LASCANN2/LASCANR2 files (no fingerprint): --load OLD --epochs 0 --out NEW --reference
DATA.bin ... writes it again in today's format with the data's fingerprint.
"""
import argparse
import math
import sys
import time

import numpy as np
import torch

INPUTS = 1100  # nnue.h kInputs
HIDDEN = 128  # nnue.h kHidden
QUANT_A = 255  # nnue.h kQuantA
QUANT_B = 256  # nnue.h kQuantB
WEIGHT_CLIP = 1.27  # nnue.h kWeightClip
NET_MAGIC = b"LASCANN3"
RESIDUAL_MAGIC = b"LASCANR3"
OLD_MAGICS = (b"LASCANN2", b"LASCANR2")  # read by --load only: no input fingerprint
DATA_MAGIC = b"LASCADS3"
DATA_HEADER = 20  # magic, u32 count, u32 slots, u32 input fingerprint
SLOTS = 96  # training_data.h kTrainingSlots
NO_FEATURE = 0xFFFF
DEFAULT_SCALE = 400 / (0.680 * math.log(10))  # docs/tuning.md, the row in use
BLOCK = 1000  # records per block of the validation split

RECORD = np.dtype([("score", "<f4"), ("result", "<f4"), ("classic", "<f4"),
                   ("mover", "<u2", (SLOTS,)), ("other", "<u2", (SLOTS,))])
assert RECORD.itemsize == 396


def read_bytes(path, count=-1):
    try:
        with open(path, "rb") as f:
            return f.read(count)
    except OSError as e:
        sys.exit(f"train.py: cannot read {path}: {e.strerror}")


# ---- Data --------------------------------------------------------------------------------------

def read_records(path):
    """The records of one training file (a read-only memory map) and its input fingerprint,
    after checking its header."""
    header = read_bytes(path, DATA_HEADER)
    if len(header) < DATA_HEADER or header[:8] != DATA_MAGIC:
        sys.exit(f"train.py: {path}: not a Lasca training file of this version (no LASCADS3 "
                 "header; make it again with lasca-tune features)")
    count = int.from_bytes(header[8:12], "little")
    slots = int.from_bytes(header[12:16], "little")
    fingerprint = int.from_bytes(header[16:20], "little")
    if slots != SLOTS:
        sys.exit(f"train.py: {path}: {slots} slots per perspective; expected {SLOTS}")
    records = np.memmap(path, dtype=RECORD, mode="r", offset=DATA_HEADER)
    if len(records) != count:
        sys.exit(f"train.py: {path}: header announces {count} records, file holds {len(records)}")
    return records, fingerprint


class Data:
    """Every record of the training files, in memory: scores, results, both inputs lists."""

    def __init__(self, paths):
        parts = [read_records(p)[0] for p in paths]
        self.score = np.concatenate([p["score"] for p in parts]).astype(np.float32)
        self.result = np.concatenate([p["result"] for p in parts]).astype(np.float32)
        self.classic = np.concatenate([p["classic"] for p in parts]).astype(np.float32)
        self.mover = np.concatenate([p["mover"] for p in parts])
        self.other = np.concatenate([p["other"] for p in parts])

    @staticmethod
    def fingerprint_of(paths):
        """The input fingerprint the training files share (an error when they differ)."""
        fingerprints = {read_records(p)[1] for p in paths}
        if len(fingerprints) != 1:
            sys.exit("train.py: the training files were made for different inputs "
                     "(input fingerprints differ)")
        return fingerprints.pop()

    def __len__(self):
        return len(self.score)

    def batch(self, rows, residual=False):
        """Tensors of the given rows: inputs of both sides (unused slots -> INPUTS, the padding
        row), trimmed to the longest list of the batch (inputs are packed at the front)."""
        mover = self.mover[rows]
        other = self.other[rows]
        used = max(int((mover != NO_FEATURE).sum(axis=1).max()),
                   int((other != NO_FEATURE).sum(axis=1).max()), 1)
        base = self.classic[rows] if residual else np.zeros(len(rows), np.float32)
        return (inputs_tensor(mover[:, :used]), inputs_tensor(other[:, :used]),
                torch.from_numpy(self.score[rows]), torch.from_numpy(self.result[rows]),
                torch.from_numpy(base))


def inputs_tensor(slots):
    indices = slots.astype(np.int64)
    indices[indices == NO_FEATURE] = INPUTS
    return torch.from_numpy(indices)


# ---- Model -------------------------------------------------------------------------------------

class Network(torch.nn.Module):
    """nnue.h's network in floating point; forward gives y in soldiers, side to move's view."""

    def __init__(self):
        super().__init__()
        self.transformer = torch.nn.EmbeddingBag(INPUTS + 1, HIDDEN, mode="sum",
                                                 padding_idx=INPUTS)
        self.bias = torch.nn.Parameter(torch.full((HIDDEN,), 0.5))
        self.output = torch.nn.Linear(2 * HIDDEN, 1)
        with torch.no_grad():
            self.transformer.weight.normal_(0.0, 0.1)
            self.transformer.weight[INPUTS].zero_()

    def forward(self, mover, other):
        us = self.transformer(mover) + self.bias
        them = self.transformer(other) + self.bias
        hidden = torch.clamp(torch.cat([us, them], dim=1), 0.0, 1.0)
        return self.output(hidden).squeeze(1)

    def clip(self):
        """Keeps the first layer within what int16 accumulators hold (nnue.h kWeightClip)."""
        with torch.no_grad():
            self.transformer.weight.clamp_(-WEIGHT_CLIP, WEIGHT_CLIP)
            self.bias.clamp_(-WEIGHT_CLIP, WEIGHT_CLIP)


def loss_of(model, batch, scale, lam):
    mover, other, score, result, base = batch
    y = model(mover, other)
    target = lam * torch.sigmoid(score / scale) + (1 - lam) * result
    return torch.mean((torch.sigmoid((base + 100 * y) / scale) - target) ** 2)


def mean_loss(model, data, rows, batch_size, scale, lam, residual):
    """The loss over `rows`, without gradients."""
    total = 0.0
    with torch.no_grad():
        for start in range(0, len(rows), batch_size):
            part = rows[start:start + batch_size]
            total += loss_of(model, data.batch(part, residual), scale, lam).item() * len(part)
    return total / max(len(rows), 1)


def classic_loss(data, rows, scale, lam):
    """The loss of the classic evaluation alone (a residual network that outputs 0)."""
    score = data.score[rows].astype(np.float64)
    classic = data.classic[rows].astype(np.float64)
    target = lam * (1 / (1 + np.exp(-score / scale))) + (1 - lam) * data.result[rows]
    return float(np.mean((1 / (1 + np.exp(-classic / scale)) - target) ** 2))


def score_only_loss(data, rows, scale, lam):
    """The loss of predicting sigmoid(score / S) itself: how much the result part leaves."""
    score = data.score[rows].astype(np.float64)
    target = lam * (1 / (1 + np.exp(-score / scale))) + (1 - lam) * data.result[rows]
    return float(np.mean((1 / (1 + np.exp(-score / scale)) - target) ** 2))


# ---- The network file --------------------------------------------------------------------------

def quantised(model):
    """The integer arrays of the file format, in its order."""
    w = model.transformer.weight.detach()[:INPUTS].numpy().astype(np.float64)
    b = model.bias.detach().numpy().astype(np.float64)
    ow = model.output.weight.detach()[0].numpy().astype(np.float64)
    ob = float(model.output.bias.detach()[0])
    arrays = (np.round(w * QUANT_A), np.round(b * QUANT_A), np.round(ow * QUANT_B))
    for a in arrays:
        if np.abs(a).max() > 32767:
            sys.exit("train.py: a weight does not fit in int16")
    out_bias = round(ob * QUANT_A * QUANT_B)
    if np.abs(arrays[2]).sum() * QUANT_A + abs(out_bias) > 2**31 - 1:
        sys.exit("train.py: the output layer's int32 sum could overflow")
    return (arrays[0].astype("<i2"), arrays[1].astype("<i2"), arrays[2].astype("<i2"), out_bias)


def write_network(model, path, residual, fingerprint):
    fw, fb, ow, ob = quantised(model)
    with open(path, "wb") as f:
        f.write(RESIDUAL_MAGIC if residual else NET_MAGIC)
        f.write(INPUTS.to_bytes(4, "little") + HIDDEN.to_bytes(4, "little"))
        f.write(fingerprint.to_bytes(4, "little"))
        f.write(fw.tobytes() + fb.tobytes() + ow.tobytes())
        f.write(int(ob).to_bytes(4, "little", signed=True))


def load_network(model, path):
    """Sets the model's weights from a network file (the quantised values read back as floats);
    returns whether the network is residual and its input fingerprint (None for the older
    format, which has none)."""
    raw = read_bytes(path)
    old = raw[:8] in OLD_MAGICS
    header = 16 if old else 20
    size = header + 2 * INPUTS * HIDDEN + 2 * HIDDEN + 2 * 2 * HIDDEN + 4
    if raw[:8] not in (NET_MAGIC, RESIDUAL_MAGIC) + OLD_MAGICS or len(raw) != size:
        sys.exit(f"train.py: {path}: not a {INPUTS}x{HIDDEN} Lasca network file")
    if int.from_bytes(raw[8:12], "little") != INPUTS or int.from_bytes(raw[12:16], "little") != HIDDEN:
        sys.exit(f"train.py: {path}: not a {INPUTS}x{HIDDEN} network")
    fingerprint = None if old else int.from_bytes(raw[16:20], "little")
    at = header
    fw = np.frombuffer(raw, "<i2", INPUTS * HIDDEN, at).reshape(INPUTS, HIDDEN)
    at += 2 * INPUTS * HIDDEN
    fb = np.frombuffer(raw, "<i2", HIDDEN, at)
    at += 2 * HIDDEN
    ow = np.frombuffer(raw, "<i2", 2 * HIDDEN, at)
    at += 4 * HIDDEN
    ob = int.from_bytes(raw[at:at + 4], "little", signed=True)
    with torch.no_grad():
        model.transformer.weight[:INPUTS] = torch.from_numpy(fw / QUANT_A).float()
        model.transformer.weight[INPUTS].zero_()
        model.bias[:] = torch.from_numpy(fb / QUANT_A).float()
        model.output.weight[0] = torch.from_numpy(ow / QUANT_B).float()
        model.output.bias[0] = ob / (QUANT_A * QUANT_B)
    return raw[:8] in (RESIDUAL_MAGIC, b"LASCANR2"), fingerprint


def integer_outputs(model, mover, other):
    """nnue.h's integer inference, emulated: centi-soldiers as evaluate() computes them."""
    fw, fb, ow, ob = (np.asarray(a, dtype=np.int64) for a in quantised(model))
    fw = np.vstack([fw, np.zeros((1, HIDDEN), np.int64)])

    def half(indices):
        return np.clip(fb + fw[indices].sum(axis=1), 0, QUANT_A)

    total = (half(mover) @ ow[:HIDDEN] + half(other) @ ow[HIDDEN:] + ob) * 100
    return np.sign(total) * (np.abs(total) // (QUANT_A * QUANT_B))  # C++ division truncates


def write_reference(model, args):
    data = Data([args.reference])
    count = min(args.reference_count, len(data))
    lfens = []
    with open(args.reference_text) as f:
        for line in f:
            line = line.rstrip("\n")
            if line:
                lfens.append(line)
            if len(lfens) == count:
                break
    if len(lfens) < count:
        sys.exit(f"train.py: {args.reference_text} has fewer than {count} positions")
    rows = np.arange(count)
    mover, other, _, _, _ = data.batch(rows)
    with torch.no_grad():
        floats = (model(mover, other) * 100).numpy()
    integers = integer_outputs(model, mover.numpy(), other.numpy())
    with open(args.reference_out, "w") as out:
        for i, line in enumerate(lfens):
            result, score, lfen = line.split(" ", 2)
            if float(score) != float(data.score[i]):
                sys.exit(f"train.py: {args.reference_text} line {i + 1} is not record {i + 1}")
            out.write(f"{floats[i]:.3f} {lfen}\n")
    gap = np.abs(floats - integers)
    print(f"reference: {count} positions to {args.reference_out}; float vs emulated integer "
          f"inference: mean |diff| {gap.mean():.2f}, max {gap.max():.2f} centi-soldiers")


# ---- Training ----------------------------------------------------------------------------------

def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("data", nargs="*", help="training files (lasca-tune features)")
    p.add_argument("--out", help="network file to write")
    p.add_argument("--epochs", type=int, default=10)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--lambda", dest="lam", type=float, default=0.5,
                   help="weight of the search score in the target (the rest: the result)")
    p.add_argument("--scale", type=float, default=DEFAULT_SCALE,
                   help="centi-soldier scale S of the winning-chance curve")
    p.add_argument("--batch", type=int, default=8192)
    p.add_argument("--lr", type=float, default=0.002, help="Adam step size")
    p.add_argument("--lr-decay", type=float, default=0.9, help="step size factor per epoch")
    p.add_argument("--validation", type=float, default=0.05, help="share held out")
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--load", help="start from this network file")
    p.add_argument("--residual", action="store_true",
                   help="learn a correction added to the classic evaluation (LASCANR3)")
    p.add_argument("--shrink", type=float, default=1.0,
                   help="scale the written network's output by this factor (0..1]: a residual "
                        "network's correction is then only partly trusted (docs/nnue.md)")
    p.add_argument("--reference", help="training file whose first records make the reference")
    p.add_argument("--reference-text", help="the text data that training file was made from")
    p.add_argument("--reference-out", help="reference file to write")
    p.add_argument("--reference-count", type=int, default=200)
    args = p.parse_args()
    checks = [(args.epochs >= 0, "--epochs must be >= 0"),
              (0 <= args.lam <= 1, "--lambda must be in [0, 1]"),
              (args.scale > 0, "--scale must be > 0"),
              (1 <= args.batch <= 1 << 20, "--batch must be 1..1048576"),
              (args.lr > 0, "--lr must be > 0"),
              (0 < args.lr_decay <= 1, "--lr-decay must be in (0, 1]"),
              (0 < args.validation < 1, "--validation must be in (0, 1)"),
              (1 <= args.threads <= 256, "--threads must be 1..256"),
              (args.reference_count >= 1, "--reference-count must be >= 1"),
              (0 < args.shrink <= 1, "--shrink must be in (0, 1]"),
              (args.epochs == 0 or (args.data and args.out), "training needs DATA files and --out"),
              (not args.reference or (args.reference_text and args.reference_out),
               "--reference needs --reference-text and --reference-out")]
    for ok, message in checks:
        if not ok:
            p.error(message)
    return args


def split(count, share, rng):
    """Validation and training rows: `share` of the blocks of BLOCK consecutive records (about
    a dozen games; smaller blocks when there would be fewer than 20) are held out. A game's
    positions are consecutive and share its result: a split by position would let the network
    recognise a held-out game from its neighbours in the training set."""
    size = min(BLOCK, max(1, count // 20))  # at least 20 blocks
    blocks = (count + size - 1) // size
    held = rng.permutation(blocks)[:max(1, round(blocks * share))]
    is_valid = np.zeros(count, dtype=bool)
    for b in held:
        is_valid[b * size:(b + 1) * size] = True
    return np.flatnonzero(is_valid), np.flatnonzero(~is_valid)


def train(model, args):
    data = Data(args.data)
    rng = np.random.default_rng(args.seed)
    valid, rows = split(len(data), args.validation, rng)
    held = len(valid)
    print(f"{len(data)} positions: {len(rows)} for training, {held} held out; "
          f"S {args.scale:.1f}, lambda {args.lam}; validation loss of the search score itself "
          f"{score_only_loss(data, valid, args.scale, args.lam):.6f}"
          + (f", of the classic evaluation {classic_loss(data, valid, args.scale, args.lam):.6f}"
             if args.residual else ""))
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    scheduler = torch.optim.lr_scheduler.ExponentialLR(optimizer, gamma=args.lr_decay)
    print(f"epoch 0: validation "
          f"{mean_loss(model, data, valid, args.batch, args.scale, args.lam, args.residual):.6f}")
    began = time.time()
    for epoch in range(1, args.epochs + 1):
        rng.shuffle(rows)
        total = 0.0
        for start in range(0, len(rows), args.batch):
            part = rows[start:start + args.batch]
            optimizer.zero_grad()
            loss = loss_of(model, data.batch(part, args.residual), args.scale, args.lam)
            loss.backward()
            optimizer.step()
            model.clip()
            total += loss.item() * len(part)
        scheduler.step()
        validation = mean_loss(model, data, valid, args.batch, args.scale, args.lam,
                               args.residual)
        print(f"epoch {epoch}: train {total / len(rows):.6f} validation {validation:.6f} "
              f"({time.time() - began:.0f} s)", flush=True)


def main():
    args = parse_args()
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)
    torch.set_num_threads(args.threads)
    torch.use_deterministic_algorithms(True)
    model = Network()
    # The input fingerprint the written network carries: the training data's, else the
    # reference data's, else the loaded network's; they must all agree.
    known = {}
    if args.data:
        known["the training files"] = Data.fingerprint_of(args.data)
    if args.reference:
        known["--reference"] = Data.fingerprint_of([args.reference])
    if args.load:
        loaded_residual, loaded_fingerprint = load_network(model, args.load)
        if loaded_fingerprint is not None:
            known["--load's network"] = loaded_fingerprint
        if args.epochs == 0:
            args.residual = loaded_residual
        elif loaded_residual != args.residual:
            sys.exit("train.py: --load's network is " + ("" if loaded_residual else "not ") +
                     "residual; give --residual to match")
    if len(set(known.values())) > 1:
        sys.exit("train.py: made for different inputs (input fingerprints differ): " +
                 ", ".join(f"{k} {v}" for k, v in known.items()))
    if args.out and not known:
        sys.exit("train.py: no input fingerprint to write: give --reference DATA.bin")
    fingerprint = next(iter(known.values()), None)
    if args.epochs > 0:
        train(model, args)
    if args.shrink != 1.0:
        with torch.no_grad():
            model.output.weight *= args.shrink
            model.output.bias *= args.shrink
    if args.out:
        write_network(model, args.out, args.residual, fingerprint)
        print(f"wrote {args.out}")
    if args.reference:
        write_reference(model, args)


if __name__ == "__main__":
    main()
