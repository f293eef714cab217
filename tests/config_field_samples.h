// Configurations in which every field of the field table (core/config_fields.h) takes a
// value other than its default in at least one of them, for the round trips through the
// settings file, the manifest and the command line. Some fields cannot all be off their
// defaults at once (no output bias needs an output projection; RoPE needs
// self-attention), hence several configurations.
#pragma once

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "core/config_fields.h"
#include "core/recipe.h"

namespace config_samples {

struct Sample {
    const char* why;
    attn::AttentionConfig config;
};

inline std::vector<Sample> samples() {
    using namespace attn;
    AttentionConfig cross;  // cross-attention with every size of its own
    cross.seq_len = 5;
    cross.kv_len = 3;
    cross.hidden_dim = 8;
    cross.kdim = 3;
    cross.vdim = 5;
    cross.batch = 2;
    cross.num_heads = 4;
    cross.seed = 7;
    cross.input_dim = 5;
    cross.num_kv_heads = 1;
    cross.cross_attention = true;
    cross.mask = MaskKind::Padding;
    cross.valid_lengths = {3, 2};
    cross.mask_fill = parse_mask_fill("-1e20").value();
    cross.scale = parse_scale("0.5").value();
    cross.mask_before_scale = true;
    cross.no_qkv_bias = true;
    cross.no_out_bias = true;
    cross.add_bias_kv = true;
    cross.add_zero_attn = true;
    cross.seq_first = true;
    cross.average_weights = true;
    cross.dtype = DType::BFloat16;
    cross.dropout = 0.25f;
    cross.dropout_seed = 9;
    cross.max_memory_bytes = uint64_t{1} << 30;

    AttentionConfig rope;  // self-attention: RoPE, a window, no biases, no output projection
    rope.seq_len = 6;
    rope.hidden_dim = 8;
    rope.mask_presets = parse_mask_presets("causal,window").value();
    rope.window = 2;
    rope.decode_from = 4;  // the prefill of rows 0..3, then rows 4 and 5 one at a time
    rope.rope = true;
    rope.rope_base = 500.0;
    rope.rope_style = RopeStyle::Interleaved;
    rope.position_offset = 3;
    rope.bias = false;
    rope.no_out_proj = true;
    rope.variant = Variant::Fused;

    AttentionConfig recipe = find_recipe("scratch-mha")->config;  // an article's module, replayed by torch
    recipe.init = InitKind::Torch;
    return {{"cross-attention", cross}, {"rope", rope}, {"recipe", recipe}};
}

// The fields of one place (its key column not empty) that came back changed, as
// "name: before -> after" lines ("" when none did). `compare` is what is compared.
template <typename Key, typename Compare>
std::string changed_fields(const attn::AttentionConfig& before, const attn::AttentionConfig& after, Key key, Compare compare) {
    std::string changed;
    for (const attn::ConfigField& field : attn::config_fields())
        if (*key(field) && !compare(field, before, after))
            changed += std::string(field.name) + ": " + attn::format_field(field, before) + " -> " +
                       attn::format_field(field, after) + "\n";
    return changed;
}

// Every field of one place differs from the default in at least one sample (so a field
// added to the table without a sample value fails the round trip tests).
template <typename Key>
void check_every_field_is_off_its_default(Key key) {
    const attn::AttentionConfig defaults;
    for (const attn::ConfigField& field : attn::config_fields()) {
        if (!*key(field)) continue;
        bool off = false;
        for (const Sample& s : samples()) off |= attn::field_value(field, s.config) != attn::field_value(field, defaults);
        CAPTURE(field.name);
        CHECK_MESSAGE(off, "give the field a value other than its default in config_field_samples.h");
    }
}

}  // namespace config_samples
