#!/usr/bin/env python3
"""Writes the hand-made seed corpora under tests/fuzz/corpus/ (valid and near-valid
inputs for each harness). Run once after changing it; the outputs are committed."""
import json
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


def put(harness, name, data):
    folder = os.path.join(HERE, "corpus", harness)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


def npy(shape, values, descr="<f4", version=1, fortran="False", shape_text=None, close="}"):
    fmt = {"<f4": "<f", "<f8": "<d"}.get(descr, "<f")
    shape_text = shape_text or "(" + ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"
    header = "{'descr': '%s', 'fortran_order': %s, 'shape': %s, " % (descr, fortran, shape_text) + close
    pre = 10 if version == 1 else 12
    header += " " * ((64 - (pre + len(header) + 1) % 64) % 64) + "\n"
    length = struct.pack("<H", len(header)) if version == 1 else struct.pack("<I", len(header))
    data = b"".join(struct.pack(fmt, v) for v in values)
    return b"\x93NUMPY" + bytes([version, 0]) + length + header.encode() + data


put("npy", "f4_2x3", npy((2, 3), [0.5 * i - 1 for i in range(6)]))
put("npy", "f8_1x2x2", npy((1, 2, 2), [1.0, -2.0, 3.5, 1e-3], descr="<f8"))
put("npy", "v2_vector", npy((4,), [1, 2, 3, 4], version=2))
put("npy", "fortran_order", npy((2, 2), [1, 2, 3, 4], fortran="True"))
put("npy", "int_dtype", npy((2,), [1, 2], descr="<i4"))
put("npy", "zero_dim", npy((0, 3), [], shape_text="(0, 3)"))
put("npy", "truncated_data", npy((3, 3), [1, 2, 3]))
put("npy", "huge_shape", npy((1,), [1], shape_text="(4294967296, 4294967296)"))
put("npy", "nan_inf", npy((3,), [float("nan"), float("inf"), -0.0]))
put("npy", "unterminated_dict", npy((2, 2), [1, 2, 3, 4], close=""))  # numpy: "EOF in multi-line statement"


def safetensors(tensors, metadata=True, pad=True):
    header, data = {}, b""
    for name, (dtype, shape, raw) in tensors.items():
        header[name] = {"dtype": dtype, "shape": shape, "data_offsets": [len(data), len(data) + len(raw)]}
        data += raw
    if metadata:
        header["__metadata__"] = {"format": "pt"}
    text = json.dumps(header, separators=(",", ":"))
    if pad:
        text += " " * ((8 - len(text) % 8) % 8)
    return struct.pack("<Q", len(text)) + text.encode() + data


def f32(n, scale=0.1):
    return b"".join(struct.pack("<f", scale * ((i * 7) % 11 - 5)) for i in range(n))


E = 4
put("safetensors", "pytorch_in_proj", safetensors({
    "in_proj_weight": ("F32", [3 * E, E], f32(3 * E * E)),
    "in_proj_bias": ("F32", [3 * E], f32(3 * E)),
    "out_proj.weight": ("F32", [E, E], f32(E * E)),
    "out_proj.bias": ("F32", [E], f32(E)),
}))
put("safetensors", "pytorch_kdim_vdim", safetensors({
    "q_proj_weight": ("F32", [E, E], f32(E * E)),
    "k_proj_weight": ("F32", [E, 3], f32(E * 3)),
    "v_proj_weight": ("F32", [E, 2], f32(E * 2)),
    "out_proj.weight": ("F32", [E, E], f32(E * E)),
}))
half = b"".join(struct.pack("<H", 0x3C00 + i) for i in range(E * E))
put("safetensors", "huggingface_f16_prefix", safetensors({
    "model.layers.0.self_attn.q_proj.weight": ("F16", [E, E], half),
    "model.layers.0.self_attn.k_proj.weight": ("BF16", [E, E], half),
    "model.layers.0.self_attn.v_proj.weight": ("F16", [E, E], half),
    "model.layers.0.self_attn.o_proj.weight": ("F64", [E, E], b"".join(struct.pack("<d", 0.25) for _ in range(E * E))),
    "model.layers.0.self_attn.q_proj.bias": ("F32", [E], f32(E)),
}))
put("safetensors", "missing_out_proj", safetensors({"in_proj_weight": ("F32", [3 * E, E], f32(3 * E * E))}))
put("safetensors", "wrong_in_proj_shape", safetensors({
    "in_proj_weight": ("F32", [E, E], f32(E * E)),
    "out_proj.weight": ("F32", [E, E], f32(E * E)),
}))
put("safetensors", "two_layers", safetensors({
    "a.q_proj.weight": ("F32", [2, 2], f32(4)), "b.q_proj.weight": ("F32", [2, 2], f32(4)),
    "a.k_proj.weight": ("F32", [2, 2], f32(4)), "a.v_proj.weight": ("F32", [2, 2], f32(4)),
    "a.o_proj.weight": ("F32", [2, 2], f32(4)),
}))
put("safetensors", "scalar_and_empty", safetensors({"s": ("F32", [], f32(1)), "z": ("F32", [0, 5], b"")}))
put("safetensors", "bad_json", b"\x10\x00\x00\x00\x00\x00\x00\x00{\"x\": [1, 2,   ")

cli = {
    "defaults": "attnviz\n",
    "sizes": "attnviz\n-L\n5\n-E\n12\n-H\n3\n-B\n2\n",
    "causal_dropout": "attnviz\n--mask\ncausal\n--dropout\n0.25\n--dropout-seed\n7\n--seed\n3\n",
    "padding": "attnviz\n-B\n3\n--mask\npadding\n--valid-lengths\n4,2,1\n",
    "cross": "attnviz\n--cross\n-S\n3\n--kdim\n5\n--vdim\n2\n-E\n4\n",
    "tokens": "attnviz\n--tokens\nthe cat sat on the mat\n-E\n8\n--variant\nstacked\n",
    "fused_no_bias": "attnviz\n--variant\nfused\n--no-bias\n--max-memory\n1MiB\n",
    "bad_heads": "attnviz\n-E\n10\n-H\n3\n",
    "bad_lengths": "attnviz\n--mask\npadding\n--valid-lengths\n3,,x\n",
    "unknown_option": "attnviz\n--frobnicate\n",
    "equals_form": "attnviz\n--seq-len=7\n--hidden-dim=6\n--num-heads=2\n",
}
for name, text in cli.items():
    put("cli_config", name, text)

put("settings", "saved_by_window",
    "light_theme = 1\nui_scale = 1.39\nspeed = 2\nshow_values = 0\nwindow_width = 1024\nwindow_height = 768\n"
    "left_panel_em = 18.5\nright_panel_em = 25\nexplain_fraction = 0.5\nsentence = the dog ran\nseq_len = 3\n"
    "hidden_dim = 12\nnum_heads = 3\nbatch = 2\nmask = 2\nvalid_length = 2\ndropout = 0.1\nbias = 0\nvariant = 1\nseed = 42\n")
put("settings", "corrupt_values",
    "ui_scale = nan\nspeed = -inf\nwindow_width = -5\nwindow_height = 99999999999999999999\nseq_len = 3abc\n"
    "no equals sign here\nhidden_dim = 1e5\n")
put("settings", "comments_and_unknown", "# written by hand\n\nfuture_option = yes\n  num_heads=4  \r\nsentence =  spaced  words \r\n")
put("settings", "binary", bytes(range(256)) + b"\nseed = 5\nsentence = a\x00b\n")

# Lesson files (app/lesson): a full slide, a recipe with options, and near-misses.
full_slide = {
    "title": "Scores", "note": "the dot products", "model": "tiny-lm", "sentence": "the dog saw the cat", "layer": 0,
    "step": "attn_weights", "head": 2, "moment": 0.5, "batch_item": 0,
    "pinned": {"panel": 2, "row": 3, "col": 2},
    "followed": {"step": "attn_scores", "panel": 2, "row": 3, "col": 2},
    "highlighted": [{"panel": 2, "row": 3, "col": 1}, {"step": "q", "panel": 0, "row": 1, "col": 4, "part": "weight"}],
    "annotations": [{"kind": "arrow", "colour": "yellow", "cell": {"panel": 2, "row": 3, "col": 2}, "points": [[0.5, 0.5], [-1, 2]]},
                    {"kind": "stroke", "cell": {"panel": 0, "row": 0, "col": 0}, "points": [[0, 0], [1, 0.25], [2, 1]]}],
    "panels": {"storage": False, "code": True},
}
recipe_slide = {"title": "Llama", "recipe": "llama", "options": {"num-kv-heads": 1, "dtype": "bfloat16", "rope": True},
                "step": "k_repeated", "head": "all"}
put("lesson", "full", json.dumps({"version": 1, "title": "t", "language": "en", "slides": [full_slide, recipe_slide]}, indent=1))
put("lesson", "random_weights", json.dumps({"version": 1, "title": "s", "slides": [
    {"title": "a", "options": {"seq-len": 4, "hidden-dim": 8, "num-heads": 2, "mask": "causal"}, "step": "attn_masked"},
    {"title": "b", "options": {"variant": "fused", "dropout": 0.1}, "moment": 0}]}))
put("lesson", "partly_wrong", json.dumps({"version": 1, "title": "w", "language": "xx", "slides": [
    {"title": "ok", "step": "q_split"}, {"title": "bad step", "step": "attn_score"}, {"title": 3},
    {"title": "bad option", "options": {"num-head": 2}}, {"title": "bad cell", "pinned": {"row": -1}}, [], {"stpe": "q"}]}))
put("lesson", "newer_version", '{"version": 99, "slides": []}')
put("lesson", "not_json", '{"version": 1, "slides": [ {"title": "x",, ]')
put("lesson", "deep", "[" * 100 + "]" * 100)
put("lesson", "bad_utf8", b'{"version": 1, "title": "\xff\xfe", "slides": []}')
