#include "core/dims.h"

namespace attn {

const char* dim_label(DimRole role) {
    switch (role) {
        case DimRole::Batch: return "B";
        case DimRole::QueryPos: return "L";
        case DimRole::KeyPos: return "S";
        case DimRole::Head: return "H";
        case DimRole::HeadDim: return "d_h";
        case DimRole::Embedding: return "E";
        case DimRole::FusedQkv: return "3E";
        case DimRole::KeyFeature: return "kdim";
        case DimRole::ValueFeature: return "vdim";
        case DimRole::Vocabulary: return "V";
        case DimRole::Other: return "";
    }
    return "";
}

DimRole dim_role_of_label(const std::string& label) {
    for (DimRole r : {DimRole::Batch, DimRole::QueryPos, DimRole::KeyPos, DimRole::Head, DimRole::HeadDim,
                      DimRole::Embedding, DimRole::FusedQkv, DimRole::KeyFeature, DimRole::ValueFeature, DimRole::Vocabulary})
        if (label == dim_label(r)) return r;
    return DimRole::Other;
}

std::vector<std::string> dim_labels(const std::vector<DimRole>& roles) {
    std::vector<std::string> out;
    out.reserve(roles.size());
    for (DimRole r : roles) out.emplace_back(dim_label(r));
    return out;
}

}  // namespace attn
