#include "core/model/model.h"

namespace attn {

const char* to_string(ModelKind kind) {
    switch (kind) {
        case ModelKind::Language: return "language";
        case ModelKind::Algorithmic: return "algorithmic";
    }
    return "?";
}

}  // namespace attn
