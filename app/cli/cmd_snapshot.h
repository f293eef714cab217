// `attnviz snapshot`: steps drawn to PNG files by the window's own drawing code.
#pragma once

#include "app/cli/commands.h"
#include "app/gui/export/snapshot_options.h"

namespace attn::cli {

struct SnapshotCommand {
    ConfigOptions config;
    gui::SnapshotOptions options;
    std::string size;  // "WxH"
};
CLI::App* add_snapshot_command(CLI::App& parent, SnapshotCommand& command);
int run_snapshot_command(SnapshotCommand command);

}  // namespace attn::cli
