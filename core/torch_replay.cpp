#include "core/torch_replay.h"

#include "core/recipe.h"
#include "core/torch_dropout.h"
#include "core/torch_init.h"
#include "core/torch_random.h"

namespace attn {

namespace {

using R = Result<TorchReplay>;

// torch.rand / torch.randn of shape (B, N, W), as a tensor with the given names.
Tensor draw_sequence(TorchGenerator& gen, InputDraw draw, int64_t B, int64_t N, int64_t W, std::vector<std::string> names) {
    const Mat m = draw == InputDraw::Randn ? torch_randn(gen, B * N, W) : torch_rand(gen, B * N, W);  // (B*N, W)
    return Tensor::from_values({B, N, W}, std::move(names), std::vector<float>(m.data(), m.data() + m.size()));
}

void set_linear(const TorchLinear& linear, Mat& weight, Vec& bias) {
    weight = linear.weight;
    bias = linear.bias;  // empty when constructed with bias=False
}

// The output projection nn.Linear(E, E) most modules construct last.
void draw_out_proj(TorchGenerator& gen, const AttentionConfig& c, AttentionWeights& w) {
    if (c.no_out_proj) return;
    set_linear(torch_linear(gen, c.E(), c.E(), c.out_bias()), w.w_o, w.b_o);
}

Status draw_module(TorchGenerator& gen, const AttentionConfig& c, TorchModuleKind kind, AttentionWeights& w) {
    const int E = c.E(), kv = c.kv_width(), dh = c.head_dim();
    switch (kind) {
        case TorchModuleKind::SeparateLinears:
            set_linear(torch_linear(gen, c.d_in(), E, c.qkv_bias()), w.w_q, w.b_q);
            set_linear(torch_linear(gen, c.key_dim(), kv, c.qkv_bias()), w.w_k, w.b_k);
            set_linear(torch_linear(gen, c.value_dim(), kv, c.qkv_bias()), w.w_v, w.b_v);
            draw_out_proj(gen, c, w);
            return ok_status();
        case TorchModuleKind::FusedLinear: {
            if (c.is_cross()) return Status::failure(Message("error.torch_init.fused_cross"));
            const TorchLinear fused = torch_linear(gen, c.d_in(), E + 2 * kv, c.qkv_bias());  // rows: q | k | v
            w.w_q = fused.weight.topRows(E);
            w.w_k = fused.weight.middleRows(E, kv);
            w.w_v = fused.weight.bottomRows(kv);
            if (fused.bias.size() > 0) {
                w.b_q = fused.bias.segment(0, E);
                w.b_k = fused.bias.segment(E, kv);
                w.b_v = fused.bias.segment(E + kv, kv);
            }
            draw_out_proj(gen, c, w);
            return ok_status();
        }
        case TorchModuleKind::RandParametersPerHead: {
            if (c.qkv_bias())
                return Status::failure(Message("error.torch_init.rand_bias"));
            if (c.H_kv() != c.H()) return Status::failure(Message("error.torch_init.stacked_kv_heads"));
            w.w_q = Mat(E, c.d_in());
            w.w_k = Mat(kv, c.key_dim());
            w.w_v = Mat(kv, c.value_dim());
            for (int h = 0; h < c.H(); ++h) {  // head h: W_query, W_key, W_value, each (in, d_h)
                w.w_q.middleRows(h * dh, dh) = torch_rand(gen, c.d_in(), dh).transpose();
                w.w_k.middleRows(h * dh, dh) = torch_rand(gen, c.key_dim(), dh).transpose();
                w.w_v.middleRows(h * dh, dh) = torch_rand(gen, c.value_dim(), dh).transpose();
            }
            draw_out_proj(gen, c, w);
            return ok_status();
        }
        case TorchModuleKind::MultiheadAttention: {
            if (c.d_in() != E) return Status::failure(Message("error.torch_init.mha_input_dim"));
            if (c.H_kv() != c.H()) return Status::failure(Message("error.torch_init.mha_kv_heads"));
            if (c.no_out_proj) return Status::failure(Message("error.torch_init.mha_out_proj"));
            TorchMhaOptions options;
            options.embed_dim = E;
            options.kdim = c.key_dim();
            options.vdim = c.value_dim();
            options.bias = c.qkv_bias() || c.out_bias();
            options.add_bias_kv = c.add_bias_kv;
            const TorchMultiheadAttention mha = torch_multihead_attention(gen, options);
            const Vec bias_k = mha.bias_k, bias_v = mha.bias_v;
            w = to_attention_weights(mha);
            if (!c.qkv_bias()) w.b_q = w.b_k = w.b_v = Vec();
            if (!c.out_bias()) w.b_o = Vec();
            w.bias_k = bias_k;
            w.bias_v = bias_v;
            return ok_status();
        }
    }
    return ok_status();
}

}  // namespace

Result<TorchReplay> torch_replay(const AttentionConfig& c, bool draw_query, bool draw_key_value) {
    const Recipe* recipe = find_recipe(c.recipe);
    const TorchModuleKind kind = recipe ? recipe->module
                                        : (c.variant == Variant::Fused ? TorchModuleKind::FusedLinear : TorchModuleKind::SeparateLinears);
    const bool inputs_first = recipe && recipe->inputs_before_module;
    const InputDraw draw = recipe ? recipe->input_draw : InputDraw::Rand;
    const int64_t B = c.batch, L = c.L(), S = c.S();

    TorchGenerator gen(c.seed);
    TorchReplay out;
    const auto draw_inputs = [&] {
        if (draw_query) out.query = draw_sequence(gen, draw, B, L, c.d_in(), {"B", "L", c.d_in() == c.E() ? "E" : "d_in"});
        if (draw_key_value && c.is_cross()) {
            out.key = draw_sequence(gen, draw, B, S, c.key_dim(), {"B", "S", "kdim"});
            out.value = draw_sequence(gen, draw, B, S, c.value_dim(), {"B", "S", "vdim"});
        }
    };
    if (inputs_first) draw_inputs();
    if (Status s = draw_module(gen, c, kind, out.weights); !s) return R::failure(s.message());
    if (!inputs_first) draw_inputs();

    if (c.dropout > 0.0f) {
        const int64_t H = c.H(), St = c.S_total();
        if (c.variant == Variant::Stacked) {  // head h's module draws its own (B, L, S) mask in turn
            out.dropout_keep.assign(static_cast<size_t>(B * H * L * St), 0);
            for (int64_t h = 0; h < H; ++h) {
                const std::vector<uint8_t> keep = torch_dropout_keep_mask(gen, B * L * St, c.dropout);
                for (int64_t b = 0; b < B; ++b)
                    for (int64_t i = 0; i < L * St; ++i)
                        out.dropout_keep[static_cast<size_t>(((b * H + h) * L * St) + i)] = keep[static_cast<size_t>(b * L * St + i)];
            }
        } else {
            out.dropout_keep = torch_dropout_keep_mask(gen, B * H * L * St, c.dropout);
        }
    }
    return out;
}

}  // namespace attn
