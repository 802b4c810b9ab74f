#include "tracer/readers/input_format.hpp"

#include "common/input_file.hpp"
#include "tracer/native/native_format.hpp"

#include <algorithm>
#include <optional>
#include <fstream>
#include <string>
#include <string_view>

namespace starscope::tracer {

namespace fs = std::filesystem;

namespace {

bool looksLikePaje(std::string_view head) {
    // A Paje file starts with its event definitions ("%EventDef ..."), maybe after comments.
    std::size_t pos = 0;
    while (pos < head.size()) {
        const auto eol = head.find('\n', pos);
        auto line = head.substr(pos, eol == std::string_view::npos ? head.size() - pos : eol - pos);
        while (!line.empty()
               && (line.front() == ' ' || line.front() == '\t' || line.front() == '\r')) {
            line.remove_prefix(1);
        }
        if (!line.empty() && line.front() != '#') {
            return line.starts_with("%EventDef") || line.starts_with("% EventDef");
        }
        if (eol == std::string_view::npos) {
            break;
        }
        pos = eol + 1;
    }
    return false;
}

} // namespace

std::optional<std::string> notAProfFile(const fs::path& file) {
    if (auto why = files::notRegularFile(file)) {
        return why;
    }
    std::error_code ec;
    if (fs::is_symlink(fs::symlink_status(file, ec)) && !fs::exists(fs::status(file, ec))) {
        return "is a dangling symlink (to " + fs::read_symlink(file, ec).string()
               + "), not a regular file";
    }
    return std::nullopt;
}

TraceResult<InputFormat> detectFormat(const fs::path& input) {
    std::error_code ec;
    const auto status = fs::status(input, ec);
    if (ec || !fs::exists(status)) {
        return fail(fileError(ErrorCode::Io, input, "no such file or folder"));
    }
    if (fs::is_directory(status)) {
        return InputFormat::RunFolder;
    }
    // Every input passes here before any reader opens it: a FIFO would block the open.
    if (const auto why = files::notRegularFile(input)) {
        return fail(fileError(ErrorCode::Io, input, *why));
    }
    std::ifstream in(input, std::ios::binary);
    if (!in) {
        return fail(fileError(ErrorCode::Io, input, "cannot open for reading"));
    }
    std::string head(4096, '\0');
    in.read(head.data(), static_cast<std::streamsize>(head.size()));
    head.resize(static_cast<std::size_t>(in.gcount()));
    if (head.empty()) {
        return fail(fileError(ErrorCode::Format, input, "empty file: not a trace", 0));
    }
    if (head.starts_with(kNativeMagic)) {
        return InputFormat::Native;
    }
    if (looksLikePaje(head)) {
        return InputFormat::Paje;
    }
    // FxT files are binary from their first bytes on; text that is not Paje is not a trace.
    const bool binary = std::any_of(head.begin(), head.end(), [](char c) {
        const auto u = static_cast<unsigned char>(c);
        return u == 0 || (u < 0x20 && c != '\n' && c != '\r' && c != '\t');
    });
    if (binary) {
        return InputFormat::Fxt;
    }
    return fail(fileError(ErrorCode::Format, input,
                      "not a trace: neither an FxT prof file, a Paje trace (no %EventDef header) "
                      "nor a starscope native file",
                      0));
}

} // namespace starscope::tracer
