#include "storage/store/live_status.h"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

namespace eulerdeck::storage {

double UnixNow() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

Status WriteLiveStatus(const std::string& dir, const LiveStatus& live) {
  nlohmann::json j = {{"pid", live.pid},
                      {"started", live.started},
                      {"updated", live.updated},
                      {"level", live.level},
                      {"last_level", live.last_level},
                      {"pass_last", live.pass_last},
                      {"input_done", live.input_done},
                      {"input_total", live.input_total},
                      {"entries", live.entries},
                      {"stored_bytes", live.stored_bytes},
                      {"entries_per_second", live.entries_per_second}};
  if (live.counting) j["count"] = true;
  if (live.eta_seconds >= 0) j["eta_seconds"] = live.eta_seconds;
  if (live.sub_decks_left >= 0) j["sub_decks_left"] = live.sub_decks_left;
  if (live.eta_by_decks) j["eta_by"] = "decks";
  const std::filesystem::path path = std::filesystem::path(dir) / kLiveFile;
  const std::filesystem::path next =
      std::filesystem::path(dir) / (std::string(kLiveFile) + ".next");
  {
    std::ofstream out(next, std::ios::trunc);
    out << j.dump() << "\n";
    out.flush();
    if (!out) return Status::IOError("cannot write '" + next.string() + "'");
  }
  std::error_code ec;
  std::filesystem::rename(next, path, ec);
  if (ec) return Status::IOError("cannot replace '" + path.string() + "': " + ec.message());
  return Status::OK();
}

void ReadLiveStatus(const std::string& dir, LiveStatus* live, bool* exists) {
  *exists = false;
  std::ifstream in(std::filesystem::path(dir) / kLiveFile);
  if (!in) return;
  const nlohmann::json j = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) return;
  live->pid = j.value("pid", int64_t{0});
  live->started = j.value("started", 0.0);
  live->updated = j.value("updated", 0.0);
  live->level = j.value("level", 0);
  live->last_level = j.value("last_level", 0);
  live->pass_last = j.value("pass_last", 0);
  live->input_done = j.value("input_done", uint64_t{0});
  live->input_total = j.value("input_total", uint64_t{0});
  live->entries = j.value("entries", uint64_t{0});
  live->stored_bytes = j.value("stored_bytes", uint64_t{0});
  live->entries_per_second = j.value("entries_per_second", 0.0);
  live->counting = j.value("count", false);
  live->eta_seconds = j.value("eta_seconds", -1.0);
  live->sub_decks_left = j.value("sub_decks_left", -1.0);
  live->eta_by_decks = j.value("eta_by", std::string()) == "decks";
  *exists = true;
}

void RemoveLiveStatus(const std::string& dir) {
  std::error_code ec;
  std::filesystem::remove(std::filesystem::path(dir) / kLiveFile, ec);
}

}  // namespace eulerdeck::storage
