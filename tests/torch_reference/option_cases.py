"""The cases of make_option_fixtures.py: one dict per fixture folder.

Keys that are option names (see DEFAULTS) set the configuration;
`kind` picks the independent reference and the weight naming:
  mha      torch.nn.MultiheadAttention (PyTorch's state_dict names)
  scratch  the from-scratch articles' efficient module (d_in -> d_out)
  stacked  the articles' wrapper of single causal heads, concatenated
  llama    Hugging Face's eager LlamaAttention (or Meta's complex RoPE for
           the interleaved style); Hugging Face names
`mask_data` makes a --mask-file: shape (S | L,S | B,1,1,S | B,1,L,S | B,L,S |
B,H,L,S), kind bool (True = masked out) or float (added to the scores), and
indices to force fully masked rows.
"""

DEFAULTS = dict(
    batch=2, seq_len=4, kv_len=0, input_dim=0, hidden_dim=8, num_heads=2, num_kv_heads=0,
    kdim=0, vdim=0, cross=False,
    mask="none", valid_lengths=[], window=0, mask_file=None, mask_fill="-inf",
    scale="head", mask_before_scale=False,
    rope=False, rope_base=10000.0, rope_style="half", position_offset=0,
    no_qkv_bias=False, no_out_bias=False, no_out_proj=False,
    add_bias_kv=False, add_zero_attn=False, seq_first=False, average_weights=False,
    dtype="float32", variant="split",
)

CASES = []


def case(name, seed, kind, description, **options):
    CASES.append(dict(name=name, seed=seed, kind=kind, description=description, **options))


# ---- input_dim != hidden_dim, biases, no output projection -----------------
SCRATCH = dict(batch=2, seq_len=6, input_dim=3, mask="causal", mask_before_scale=True)
case("dim_in3_out2_h2", 901, "scratch",
     "from-scratch MultiHeadAttention, d_in 3 -> d_out 2, 2 heads of 1, qkv_bias=False, out_proj with bias, "
     "causal mask on the raw scores then scale", hidden_dim=2, num_heads=2, no_qkv_bias=True, **SCRATCH)
case("dim_in3_out4_h2_qkv_bias", 902, "scratch",
     "d_in 3 -> d_out 4, 2 heads, qkv_bias=True, out bias", hidden_dim=4, num_heads=2, **SCRATCH)
case("dim_in3_out4_h2_no_out_bias", 903, "scratch",
     "d_in 3 -> d_out 4, 2 heads, no qkv bias, out_proj without bias", hidden_dim=4, num_heads=2,
     no_qkv_bias=True, no_out_bias=True, **SCRATCH)
case("dim_in3_stacked_no_out_proj", 904, "stacked",
     "the stacked wrapper: 2 single causal heads d_in 3 -> 2, outputs concatenated (width 4), no output "
     "projection: the trace ends at concat", hidden_dim=4, num_heads=2, no_qkv_bias=True, no_out_proj=True,
     no_out_bias=True, **SCRATCH)
case("dim_in3_single_head_no_out_proj_qkv_bias", 905, "stacked",
     "one head d_in 3 -> 2 with qkv bias, no output projection (context is the answer)",
     hidden_dim=2, num_heads=1, no_out_proj=True, no_out_bias=True, **SCRATCH)

# ---- masks from a file: every shape, bool under three fills, float --------
MASKED = dict(batch=2, seq_len=3, kv_len=5, cross=True, hidden_dim=4, num_heads=2)
FULL_ROW = {"S": [], "L,S": [[1]], "B,1,1,S": [[1]], "B,1,L,S": [[0, 0, 2]], "B,L,S": [[1, 0]],
            "B,H,L,S": [[1, 1, 2]]}
SHAPE_TAG = {"S": "S", "L,S": "LS", "B,1,1,S": "B11S", "B,1,L,S": "B1LS", "B,L,S": "BLS", "B,H,L,S": "BHLS"}
FILL_TAG = {"-inf": "neginf", "-1e20": "neg1e20", "min": "min"}
seed = 910
for shape, tag in SHAPE_TAG.items():
    for fill, ftag in FILL_TAG.items():
        seed += 1
        full = FULL_ROW[shape]
        case(f"mask_bool_{tag}_{ftag}", seed, "mha",
             f"boolean mask file of shape ({shape}), True = masked out, fill {fill}"
             + (f"; index {full} has every key masked" if full else ""),
             mask_fill=fill, mask_data=dict(kind="bool", shape=shape, all_masked=full), **MASKED)
    seed += 1
    case(f"mask_float_{tag}", seed, "mha", f"float mask file of shape ({shape}), added to the scaled scores",
         mask_data=dict(kind="float", shape=shape), **MASKED)
case("mask_float_hf_min_causal_left_padding", 931, "mha",
     "Hugging Face style 4-D float mask (B,1,L,S): 0 or finfo(float32).min, causal + left padding "
     "(valid lengths 4, 2): rows 0-1 of item 1 have no key left and come out uniform",
     batch=2, seq_len=4, hidden_dim=4, num_heads=2, valid_lengths=[4, 2],
     mask_data=dict(kind="float", shape="B,1,L,S", hf_min_causal=True))

# ---- presets and their combinations ----------------------------------------
PRESET = dict(batch=3, seq_len=5, hidden_dim=6, num_heads=2)
for fill, ftag in FILL_TAG.items():
    case(f"preset_padding_0_{ftag}", 941 + len(ftag), "mha",
         f"--mask padding, valid lengths 5, 2, 0 (item 2 has no key), fill {fill}",
         mask="padding", valid_lengths=[5, 2, 0], mask_fill=fill, **PRESET)
    case(f"preset_causal_left_padding_{ftag}", 951 + len(ftag), "mha",
         f"--mask causal,left-padding, valid lengths 5, 3, 1: queries before the first real token have no "
         f"key, fill {fill}", mask="causal,left-padding", valid_lengths=[5, 3, 1], mask_fill=fill, **PRESET)
case("preset_left_padding", 961, "mha", "--mask left-padding, valid lengths 5, 3, 0",
     mask="left-padding", valid_lengths=[5, 3, 0], **PRESET)
case("preset_window2", 962, "mha",
     "--mask window --window 2: query i sees keys i-1 and i (the 2 most recent, causal)",
     mask="window", window=2, **PRESET)
case("preset_causal_padding", 963, "mha", "--mask causal,padding, valid lengths 5, 3, 1",
     mask="causal,padding", valid_lengths=[5, 3, 1], **PRESET)
case("preset_causal_plus_bool_file", 964, "mha",
     "--mask causal and a boolean mask file (B,1,1,S): a key is masked if either masks it",
     mask="causal", mask_data=dict(kind="bool", shape="B,1,1,S", none_masked=[[0, 0, 0, 0], [1, 0, 0, 0]]),
     **PRESET)
case("preset_causal_plus_float_file", 965, "mha",
     "--mask causal and a float mask file (L,S): the float mask is added, then causal fills -inf",
     mask="causal", mask_data=dict(kind="float", shape="L,S"), **PRESET)

# ---- scale and the order of mask and scale ----------------------------------
SCALED = dict(batch=2, seq_len=4, hidden_dim=8, num_heads=2, mask="causal,padding", valid_lengths=[4, 0])
case("scale_hidden", 971, "mha", "--scale hidden: 1/sqrt(hidden_dim) instead of 1/sqrt(d_h)",
     scale="hidden", **SCALED)
case("scale_none", 972, "mha", "--scale none: raw dot products", scale="none", **SCALED)
case("scale_value_0.3", 973, "mha", "--scale 0.3: scores multiplied by 0.3", scale="0.3", **SCALED)
case("mask_after_scale_neg1e20", 974, "mha",
     "scale then mask with -1e20 (the default order): masked cells hold -1e20",
     mask_fill="-1e20", **SCALED)
case("mask_before_scale_neg1e20", 974, "mha",
     "--mask-before-scale with -1e20: masked cells hold -1e20 / sqrt(d_h) after scaling",
     mask_fill="-1e20", mask_before_scale=True, **SCALED)
case("mask_before_scale_neginf", 974, "mha", "--mask-before-scale with -inf (the from-scratch order)",
     mask_before_scale=True, **SCALED)

# ---- rotary position embedding -----------------------------------------------
ROPE = dict(batch=2, seq_len=6, hidden_dim=16, num_heads=2, rope=True, no_qkv_bias=True, no_out_bias=True,
            mask="causal", mask_fill="min")
case("rope_half", 981, "llama",
     "Hugging Face LlamaAttention (eager): rotate_half, base 10000, positions 0..5, causal (finfo.min)",
     relative_check=7, **ROPE)
case("rope_half_offset5", 981, "llama", "as rope_half (same weights and inputs) with positions 5..10",
     position_offset=5, **ROPE)
case("rope_half_base500", 982, "llama", "rotate_half with --rope-base 500", rope_base=500.0, **ROPE)
case("rope_interleaved", 983, "llama",
     "interleaved (adjacent pairs) RoPE, checked against Meta's complex-number apply_rotary_emb",
     rope_style="interleaved", relative_check=4, **ROPE)
case("rope_interleaved_offset3", 983, "llama", "as rope_interleaved with positions 3..8",
     rope_style="interleaved", position_offset=3, **ROPE)

# ---- grouped-query / multi-query attention ----------------------------------
GQA = dict(batch=2, seq_len=5, hidden_dim=8, num_heads=4, no_qkv_bias=True, no_out_bias=True,
           mask="causal", mask_fill="min")
case("gqa_kv2_h4", 991, "llama", "num_kv_heads 2, num_heads 4: repeat_kv, no RoPE", num_kv_heads=2, **GQA)
case("mqa_kv1_h4", 992, "llama", "num_kv_heads 1 (multi-query), num_heads 4, no RoPE", num_kv_heads=1, **GQA)
case("llama_gqa_rope", 993, "llama", "Llama: RoPE (half) + num_kv_heads 2 of 4 heads, causal, positions 2..6",
     num_kv_heads=2, rope=True, position_offset=2, **GQA)

# ---- nn.MultiheadAttention's extras -----------------------------------------
EXTRA = dict(batch=2, seq_len=3, hidden_dim=6, num_heads=3)
case("mha_add_bias_kv", 1001, "mha", "add_bias_kv=True: a learned key/value column (S+1)",
     add_bias_kv=True, **EXTRA)
case("mha_add_zero_attn", 1002, "mha", "add_zero_attn=True: a zero key/value column (S+1)",
     add_zero_attn=True, **EXTRA)
case("mha_bias_kv_zero_attn_padding", 1003, "mha",
     "add_bias_kv and add_zero_attn together (S+2), padding with valid lengths 3, 0: item 1 still "
     "attends to the two extra columns", add_bias_kv=True, add_zero_attn=True, mask="padding",
     valid_lengths=[3, 0], **EXTRA)
case("mha_kdim_vdim_bias_kv", 1004, "mha", "cross-attention kdim 5, vdim 3, S 4, with add_bias_kv",
     batch=2, seq_len=3, kv_len=4, hidden_dim=6, num_heads=2, kdim=5, vdim=3, cross=True, add_bias_kv=True)
case("mha_seq_first", 1005, "mha",
     "batch_first=False: query.npy is (L, B, E); out_seq_first.npy is what the module returns (L, B, E)",
     seq_first=True, mask="causal", **EXTRA)
case("mha_seq_first_cross_average", 1006, "mha",
     "batch_first=False cross-attention (key/value (S, B, kdim)) with average_attn_weights=True",
     batch=2, seq_len=3, kv_len=4, hidden_dim=6, num_heads=3, kdim=4, vdim=4, cross=True, seq_first=True,
     average_weights=True)
case("mha_average_weights", 1007, "mha", "average_attn_weights=True: attn_weights_avg (B, L, S)",
     average_weights=True, mask="padding", valid_lengths=[3, 2], **EXTRA)

# ---- dtypes -------------------------------------------------------------------
case("dtype_bf16", 1011, "llama", "bfloat16 as Llama runs it: causal, finfo(bf16).min fill, no bias",
     dtype="bfloat16", **GQA, num_kv_heads=4)
case("dtype_bf16_llama_rope_gqa", 1012, "llama", "bfloat16 Llama: RoPE + GQA 2 of 4 heads + causal",
     dtype="bfloat16", num_kv_heads=2, rope=True, **GQA)
case("dtype_f16", 1013, "llama", "float16 emulation (no torch CPU kernel): causal, finfo(f16).min fill",
     dtype="float16", needs_check=False, **GQA, num_kv_heads=4)
case("dtype_f16_llama_rope_gqa", 1014, "llama", "float16 emulation: RoPE + GQA 2 of 4 heads + causal",
     dtype="float16", num_kv_heads=2, rope=True, needs_check=False, **GQA)
case("dtype_bf16_dh16", 1015, "llama",
     "bfloat16 with d_h 16 and L 6: every batched product is large enough (K*M*N >= 400) for torch's "
     "float32-accumulating kernel, so the emulation matches torch to the bit",
     dtype="bfloat16", batch=2, seq_len=6, hidden_dim=32, num_heads=2, num_kv_heads=1, rope=True, tolerance=2e-3,
     no_qkv_bias=True, no_out_bias=True, mask="causal", mask_fill="min")

# ---- the stacked and fused variants with the articles' options ---------------------
# The same forward written the articles' other two ways (--variant stacked | fused); the
# core refuses grouped-query heads and nn.MultiheadAttention's extra key columns there,
# and fused is self-attention only, so these cases stay within what it allows.
for variant in ("stacked", "fused"):
    vseed = 1100 if variant == "stacked" else 1200
    case(f"variant_{variant}_in3_out4_mask_before_scale", vseed + 1, "scratch",
         f"--variant {variant}: from-scratch d_in 3 -> d_out 4, 2 heads, qkv bias, causal mask on the raw "
         "scores then scale", hidden_dim=4, num_heads=2, variant=variant, **SCRATCH)
    case(f"variant_{variant}_in3_no_out_proj", vseed + 2, "stacked",
         f"--variant {variant}: 2 single causal heads d_in 3 -> 2, no output projection (ends at concat)",
         hidden_dim=4, num_heads=2, no_qkv_bias=True, no_out_proj=True, no_out_bias=True, variant=variant, **SCRATCH)
    case(f"variant_{variant}_rope_{'interleaved' if variant == 'stacked' else 'half'}_offset3", vseed + 3, "llama",
         f"--variant {variant}: RoPE ({'interleaved' if variant == 'stacked' else 'half'}) at positions 3..8, causal (finfo.min)",
         rope_style="interleaved" if variant == "stacked" else "half", position_offset=3, variant=variant, **ROPE)
    case(f"variant_{variant}_mask_bool_B1LS_neg1e20_scale_hidden", vseed + 4, "mha",
         f"--variant {variant}: boolean (B,1,L,S) mask file with a fully masked row (item 0, query 2), fill -1e20, "
         "--scale hidden", batch=2, seq_len=4, hidden_dim=4, num_heads=2, mask_fill="-1e20", scale="hidden",
         mask_data=dict(kind="bool", shape="B,1,L,S", all_masked=[[0, 0, 2]]), variant=variant)
    case(f"variant_{variant}_mask_float_LS_causal_padding_scale_0.3", vseed + 5, "mha",
         f"--variant {variant}: float (L,S) mask file added, --mask causal,padding (valid lengths 4, 2), "
         "--scale 0.3, fill min", batch=2, seq_len=4, hidden_dim=6, num_heads=2,
         mask="causal,padding", valid_lengths=[4, 2], mask_fill="min", scale="0.3",
         mask_data=dict(kind="float", shape="L,S"), variant=variant)
    case(f"variant_{variant}_mask_before_scale_neg1e20_padding", vseed + 6, "mha",
         f"--variant {variant}: --mask-before-scale with -1e20, --mask causal,padding (valid lengths 4, 0: "
         "item 1 has no key, uniform rows)", batch=2, seq_len=4, hidden_dim=8, num_heads=2,
         mask="causal,padding", valid_lengths=[4, 0], mask_fill="-1e20", mask_before_scale=True, variant=variant)
