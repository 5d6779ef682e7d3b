#include "storage/testing/fault_injection.h"

#include <rocksdb/env.h>
#include <rocksdb/file_system.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <list>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <vector>

namespace eulerdeck::storage {

namespace {

namespace fs = std::filesystem;
using rocksdb::FileOptions;
using rocksdb::IODebugContext;
using rocksdb::IOOptions;
using rocksdb::IOStatus;
using rocksdb::Slice;

constexpr char kJournalHeader[] = "eulerdeck power cut journal 1";
constexpr char kJournalEnd[] = "end";

// RocksDB names one file in several spellings ("dir/x", "dir//x"); the
// bookkeeping needs one.
std::string Normal(const std::string& path) {
  std::string p = fs::path(path).lexically_normal().string();
  while (p.size() > 1 && p.back() == '/') p.pop_back();
  return p;
}

std::string DirOf(const std::string& path) { return fs::path(Normal(path)).parent_path().string(); }

// What the disk holds of one file (one inode: it follows renames).
struct FileState {
  uint64_t size = 0;     // bytes written so far
  uint64_t durable = 0;  // bytes a power cut keeps: `size` at the last sync
};

// A change of a directory not yet made durable by an fsync of it.
struct PendingOp {
  enum Kind { kCreate, kRename, kDelete } kind = kCreate;
  uint64_t seq = 0;
  std::string path;    // the file created or deleted, or the rename's source
  std::string target;  // the rename's target
  // A hard link to the file this change unlinked (deleted, or replaced by
  // the rename), to bring it back; empty: none. Its durable length, or -1
  // when all of it is (a file that predates the simulator).
  std::string backup;
  int64_t backup_durable = -1;
  std::set<std::string> dirs;  // the directories whose fsync it still waits for
};

// The shared state of the simulator: every tracked file and every pending
// directory change. `mu` is held across every operation that changes the
// disk's names, and by the cut until the process dies, so that the journal
// is the disk's state at one instant.
struct Simulator {
  std::string journal, shadow;
  std::shared_ptr<rocksdb::FileSystem> fs;
  std::unique_ptr<rocksdb::Env> env;

  std::mutex mu;
  std::map<std::string, std::shared_ptr<FileState>> files;  // by Normal() path
  std::list<PendingOp> ops;                                 // oldest first
  uint64_t next_seq = 1;
  uint64_t next_backup = 0;
  uint64_t syncs = 0;
  uint64_t cut_at = 0;  // 0: not armed
  std::function<std::string()> note;

  // Counts a durability operation about to start; at the armed one, cuts.
  // REQUIRES: mu held.
  void CountSyncLocked() {
    ++syncs;
    if (cut_at != 0 && syncs == cut_at) CutLocked();
  }

  // The power cut: the journal, then SIGKILL, still holding mu so that no
  // other thread creates, renames or deletes a file after the journal.
  [[noreturn]] void CutLocked() {
    {
      std::ofstream out(journal, std::ios::trunc);
      out << kJournalHeader << '\n';
      if (note) {
        std::string text = note();
        std::replace(text.begin(), text.end(), '\n', ' ');
        std::replace(text.begin(), text.end(), '\t', ' ');
        out << "note\t" << text << '\n';
      }
      for (const auto& [path, state] : files) {
        out << "file\t" << state->durable << '\t' << path << '\n';
      }
      for (const PendingOp& op : ops) {
        switch (op.kind) {
          case PendingOp::kCreate:
            out << "create\t" << op.path << '\n';
            break;
          case PendingOp::kRename:
            out << "rename\t" << op.path << '\t' << op.target << '\t' << op.backup << '\t'
                << op.backup_durable << '\n';
            break;
          case PendingOp::kDelete:
            out << "delete\t" << op.path << '\t' << op.backup << '\t' << op.backup_durable << '\n';
            break;
        }
      }
      out << kJournalEnd << '\n';
    }
    std::raise(SIGKILL);
    std::_Exit(EXIT_FAILURE);  // not reached
  }

  // A hard link to `path` in the shadow directory, or "" if `path` does not
  // exist. REQUIRES: mu held.
  std::string BackupLocked(const std::string& path) {
    const std::string backup = shadow + "/" + std::to_string(next_backup++);
    if (::link(path.c_str(), backup.c_str()) == 0) return backup;
    std::error_code ec;
    if (!fs::exists(path, ec)) return "";
    fs::copy_file(path, backup, ec);  // another file system: a copy will do
    return ec ? "" : backup;
  }

  int64_t DurableLocked(const std::string& path) {
    auto it = files.find(path);
    return it == files.end() ? -1 : static_cast<int64_t>(it->second->durable);
  }

  void AddOpLocked(PendingOp op) {
    op.seq = next_seq++;
    ops.push_back(std::move(op));
  }

  // `dir` was fsynced: the changes in it up to `upto` are durable.
  void DirSyncedLocked(const std::string& dir, uint64_t upto) {
    for (auto it = ops.begin(); it != ops.end();) {
      if (it->seq < upto) it->dirs.erase(dir);
      if (it->dirs.empty()) {
        if (!it->backup.empty()) ::unlink(it->backup.c_str());
        it = ops.erase(it);
      } else {
        ++it;
      }
    }
  }
};

class TrackedFile : public rocksdb::FSWritableFileOwnerWrapper {
 public:
  TrackedFile(std::unique_ptr<rocksdb::FSWritableFile> target, Simulator* rep,
              std::shared_ptr<FileState> state)
      : FSWritableFileOwnerWrapper(std::move(target)), rep_(rep), state_(std::move(state)) {}

  IOStatus Append(const Slice& data, const IOOptions& options, IODebugContext* dbg) override {
    IOStatus s = target()->Append(data, options, dbg);
    if (s.ok()) Grow(data.size());
    return s;
  }
  IOStatus Append(const Slice& data, const IOOptions& options,
                  const rocksdb::DataVerificationInfo& info, IODebugContext* dbg) override {
    IOStatus s = target()->Append(data, options, info, dbg);
    if (s.ok()) Grow(data.size());
    return s;
  }
  IOStatus PositionedAppend(const Slice& data, uint64_t offset, const IOOptions& options,
                            IODebugContext* dbg) override {
    IOStatus s = target()->PositionedAppend(data, offset, options, dbg);
    if (s.ok()) GrowTo(offset + data.size());
    return s;
  }
  IOStatus PositionedAppend(const Slice& data, uint64_t offset, const IOOptions& options,
                            const rocksdb::DataVerificationInfo& info,
                            IODebugContext* dbg) override {
    IOStatus s = target()->PositionedAppend(data, offset, options, info, dbg);
    if (s.ok()) GrowTo(offset + data.size());
    return s;
  }
  IOStatus Truncate(uint64_t size, const IOOptions& options, IODebugContext* dbg) override {
    IOStatus s = target()->Truncate(size, options, dbg);
    if (s.ok()) {
      std::lock_guard<std::mutex> lock(rep_->mu);
      state_->size = size;
      state_->durable = std::min(state_->durable, size);
    }
    return s;
  }
  IOStatus Sync(const IOOptions& options, IODebugContext* dbg) override {
    const uint64_t covered = StartSync();
    IOStatus s = target()->Sync(options, dbg);
    if (s.ok()) EndSync(covered);
    return s;
  }
  IOStatus Fsync(const IOOptions& options, IODebugContext* dbg) override {
    const uint64_t covered = StartSync();
    IOStatus s = target()->Fsync(options, dbg);
    if (s.ok()) EndSync(covered);
    return s;
  }
  // RangeSync (bytes_per_sync) only starts writeback: it makes nothing
  // durable, so the wrapper's forwarding is right.

 private:
  void Grow(uint64_t n) {
    std::lock_guard<std::mutex> lock(rep_->mu);
    state_->size += n;
  }
  void GrowTo(uint64_t end) {
    std::lock_guard<std::mutex> lock(rep_->mu);
    state_->size = std::max(state_->size, end);
  }
  // A sync covers the bytes written before it starts (appends racing it may
  // or may not be covered: count them out). A sync interrupted by the cut
  // before it returned counts as not done, which a power cut allows.
  uint64_t StartSync() {
    std::lock_guard<std::mutex> lock(rep_->mu);
    rep_->CountSyncLocked();
    return state_->size;
  }
  void EndSync(uint64_t covered) {
    std::lock_guard<std::mutex> lock(rep_->mu);
    state_->durable = std::max(state_->durable, covered);
  }

  Simulator* rep_;
  std::shared_ptr<FileState> state_;
};

class TrackedDirectory : public rocksdb::FSDirectory {
 public:
  TrackedDirectory(std::unique_ptr<rocksdb::FSDirectory> target, Simulator* rep, std::string dir)
      : target_(std::move(target)), rep_(rep), dir_(std::move(dir)) {}

  IOStatus Fsync(const IOOptions& options, IODebugContext* dbg) override {
    const uint64_t upto = StartSync();
    IOStatus s = target_->Fsync(options, dbg);
    if (s.ok()) EndSync(upto);
    return s;
  }
  // Posix fsyncs the directory here too, except on btrfs, where it may sync
  // the renamed file alone; the model is ext4's.
  IOStatus FsyncWithDirOptions(const IOOptions& options, IODebugContext* dbg,
                               const rocksdb::DirFsyncOptions& dir_options) override {
    const uint64_t upto = StartSync();
    IOStatus s = target_->FsyncWithDirOptions(options, dbg, dir_options);
    if (s.ok()) EndSync(upto);
    return s;
  }
  IOStatus Close(const IOOptions& options, IODebugContext* dbg) override {
    return target_->Close(options, dbg);
  }
  size_t GetUniqueId(char* id, size_t max_size) const override {
    return target_->GetUniqueId(id, max_size);
  }

 private:
  // The fsync covers the changes made before it starts.
  uint64_t StartSync() {
    std::lock_guard<std::mutex> lock(rep_->mu);
    rep_->CountSyncLocked();
    return rep_->next_seq;
  }
  void EndSync(uint64_t upto) {
    std::lock_guard<std::mutex> lock(rep_->mu);
    rep_->DirSyncedLocked(dir_, upto);
  }

  std::unique_ptr<rocksdb::FSDirectory> target_;
  Simulator* rep_;
  std::string dir_;
};

class TrackingFileSystem : public rocksdb::FileSystemWrapper {
 public:
  explicit TrackingFileSystem(Simulator* rep)
      : FileSystemWrapper(rocksdb::FileSystem::Default()), rep_(rep) {}

  const char* Name() const override { return "EulerdeckFaultInjection"; }

  IOStatus NewWritableFile(const std::string& fname, const FileOptions& options,
                           std::unique_ptr<rocksdb::FSWritableFile>* result,
                           IODebugContext* dbg) override {
    const std::string path = Normal(fname);
    std::lock_guard<std::mutex> lock(rep_->mu);
    const bool existed = target()->FileExists(path, options.io_options, dbg).ok();
    std::unique_ptr<rocksdb::FSWritableFile> file;
    IOStatus s = target()->NewWritableFile(path, options, &file, dbg);
    if (!s.ok()) return s;
    // An existing file is truncated: its old bytes count as lost.
    auto state = std::make_shared<FileState>();
    rep_->files[path] = state;
    if (!existed)
      rep_->AddOpLocked(PendingOp{PendingOp::kCreate, 0, path, "", "", -1, {DirOf(path)}});
    *result = std::make_unique<TrackedFile>(std::move(file), rep_, std::move(state));
    return s;
  }

  IOStatus ReopenWritableFile(const std::string& fname, const FileOptions& options,
                              std::unique_ptr<rocksdb::FSWritableFile>* result,
                              IODebugContext* dbg) override {
    const std::string path = Normal(fname);
    std::lock_guard<std::mutex> lock(rep_->mu);
    uint64_t size = 0;
    const bool existed = target()->GetFileSize(path, options.io_options, &size, dbg).ok();
    std::unique_ptr<rocksdb::FSWritableFile> file;
    IOStatus s = target()->ReopenWritableFile(path, options, &file, dbg);
    if (!s.ok()) return s;
    std::shared_ptr<FileState>& state = rep_->files[path];
    if (state == nullptr) {  // untracked so far: what it holds predates us
      state = std::make_shared<FileState>();
      state->size = state->durable = size;
    }
    if (!existed)
      rep_->AddOpLocked(PendingOp{PendingOp::kCreate, 0, path, "", "", -1, {DirOf(path)}});
    *result = std::make_unique<TrackedFile>(std::move(file), rep_, state);
    return s;
  }

  // Log recycling (recycle_log_file_num, off by default) overwrites a file
  // from its start, which the append-only model cannot follow.
  IOStatus ReuseWritableFile(const std::string&, const std::string&, const FileOptions&,
                             std::unique_ptr<rocksdb::FSWritableFile>*, IODebugContext*) override {
    return IOStatus::NotSupported("FaultInjection does not simulate log recycling");
  }

  IOStatus NewDirectory(const std::string& name, const IOOptions& options,
                        std::unique_ptr<rocksdb::FSDirectory>* result,
                        IODebugContext* dbg) override {
    std::unique_ptr<rocksdb::FSDirectory> dir;
    IOStatus s = target()->NewDirectory(name, options, &dir, dbg);
    if (s.ok()) *result = std::make_unique<TrackedDirectory>(std::move(dir), rep_, Normal(name));
    return s;
  }

  IOStatus DeleteFile(const std::string& fname, const IOOptions& options,
                      IODebugContext* dbg) override {
    const std::string path = Normal(fname);
    std::lock_guard<std::mutex> lock(rep_->mu);
    const std::string backup = rep_->BackupLocked(path);
    IOStatus s = target()->DeleteFile(path, options, dbg);
    if (!s.ok()) {
      if (!backup.empty()) ::unlink(backup.c_str());
      return s;
    }
    const int64_t durable = rep_->DurableLocked(path);
    rep_->files.erase(path);
    rep_->AddOpLocked(PendingOp{PendingOp::kDelete, 0, path, "", backup, durable, {DirOf(path)}});
    return s;
  }

  IOStatus RenameFile(const std::string& src, const std::string& target_name,
                      const IOOptions& options, IODebugContext* dbg) override {
    const std::string from = Normal(src), to = Normal(target_name);
    std::lock_guard<std::mutex> lock(rep_->mu);
    // The file the rename replaces, if any, comes back if the rename is
    // undone.
    const std::string backup = rep_->BackupLocked(to);
    const int64_t durable = rep_->DurableLocked(to);
    IOStatus s = target()->RenameFile(from, to, options, dbg);
    if (!s.ok()) {
      if (!backup.empty()) ::unlink(backup.c_str());
      return s;
    }
    rep_->files.erase(to);
    auto it = rep_->files.find(from);
    if (it != rep_->files.end()) {
      rep_->files[to] = it->second;
      rep_->files.erase(it);
    }
    rep_->AddOpLocked(
        PendingOp{PendingOp::kRename, 0, from, to, backup, durable, {DirOf(from), DirOf(to)}});
    return s;
  }

  IOStatus LinkFile(const std::string& src, const std::string& target_name,
                    const IOOptions& options, IODebugContext* dbg) override {
    const std::string from = Normal(src), to = Normal(target_name);
    std::lock_guard<std::mutex> lock(rep_->mu);
    IOStatus s = target()->LinkFile(from, to, options, dbg);
    if (!s.ok()) return s;
    auto it = rep_->files.find(from);
    if (it != rep_->files.end()) rep_->files[to] = it->second;
    rep_->AddOpLocked(PendingOp{PendingOp::kCreate, 0, to, "", "", -1, {DirOf(to)}});
    return s;
  }

  IOStatus Truncate(const std::string& fname, size_t size, const IOOptions& options,
                    IODebugContext* dbg) override {
    const std::string path = Normal(fname);
    std::lock_guard<std::mutex> lock(rep_->mu);
    IOStatus s = target()->Truncate(path, size, options, dbg);
    auto it = rep_->files.find(path);
    if (s.ok() && it != rep_->files.end()) {
      it->second->size = size;
      it->second->durable = std::min<uint64_t>(it->second->durable, size);
    }
    return s;
  }

 private:
  Simulator* rep_;
};

// The journal's lines, split at tabs.
Status ReadJournal(const std::string& path, std::vector<std::vector<std::string>>* lines) {
  std::ifstream in(path);
  if (!in) return Status::IOError("no power cut journal at '" + path + "'");
  std::string line;
  if (!std::getline(in, line) || line != kJournalHeader) {
    return Status::Corruption("'" + path + "' is not a power cut journal");
  }
  bool ended = false;
  while (std::getline(in, line)) {
    if (line == kJournalEnd) {
      ended = true;
      break;
    }
    std::vector<std::string> fields;
    std::stringstream split(line);
    std::string field;
    while (std::getline(split, field, '\t')) fields.push_back(field);
    if (!line.empty() && line.back() == '\t') fields.emplace_back();
    lines->push_back(std::move(fields));
  }
  if (!ended) return Status::Corruption("power cut journal '" + path + "' is incomplete");
  return Status::OK();
}

// Cuts `path` to `durable` bytes (-1: leaves it whole).
Status DropTail(const std::string& path, int64_t durable, FaultInjection::DropReport* report) {
  if (durable < 0) return Status::OK();
  std::error_code ec;
  const uint64_t size = fs::file_size(path, ec);
  if (ec) return Status::IOError("power cut: cannot size '" + path + "': " + ec.message());
  if (size <= static_cast<uint64_t>(durable)) return Status::OK();
  fs::resize_file(path, static_cast<uint64_t>(durable), ec);
  if (ec) return Status::IOError("power cut: cannot truncate '" + path + "': " + ec.message());
  ++report->files_truncated;
  report->bytes_dropped += size - static_cast<uint64_t>(durable);
  return Status::OK();
}

Status Move(const std::string& from, const std::string& to) {
  std::error_code ec;
  fs::rename(from, to, ec);
  if (ec) return Status::IOError("power cut: cannot rename '" + from + "': " + ec.message());
  return Status::OK();
}

}  // namespace

struct FaultInjection::Rep : Simulator {};

FaultInjection::FaultInjection(std::string journal_path) : rep_(std::make_unique<Rep>()) {
  rep_->journal = std::move(journal_path);
  rep_->shadow = rep_->journal + ".shadow";
  std::error_code ec;
  fs::create_directories(rep_->shadow, ec);  // a failure shows as unrestorable backups
  rep_->fs = std::make_shared<TrackingFileSystem>(rep_.get());
  rep_->env = rocksdb::NewCompositeEnv(rep_->fs);
}

FaultInjection::~FaultInjection() {
  std::error_code ec;
  fs::remove_all(rep_->shadow, ec);
}

rocksdb::Env* FaultInjection::env() { return rep_->env.get(); }

void FaultInjection::ArmCut(uint64_t n) {
  std::lock_guard<std::mutex> lock(rep_->mu);
  rep_->cut_at = n == 0 ? 0 : rep_->syncs + n;
}

void FaultInjection::SetCutNote(std::function<std::string()> note) {
  std::lock_guard<std::mutex> lock(rep_->mu);
  rep_->note = std::move(note);
}

uint64_t FaultInjection::syncs() const {
  std::lock_guard<std::mutex> lock(rep_->mu);
  return rep_->syncs;
}

Status FaultInjection::DropUnsyncedData(const std::string& journal_path, DropReport* report) {
  DropReport ignored;
  if (report == nullptr) report = &ignored;
  std::vector<std::vector<std::string>> lines;
  Status s = ReadJournal(journal_path, &lines);
  if (!s.ok()) return s;
  auto bad = [&](const std::vector<std::string>& f) {
    std::string line;
    for (const std::string& x : f) line += x + " ";
    return Status::Corruption("power cut journal line '" + line + "' is malformed");
  };
  // First the bytes: each file as it was named at the cut.
  for (const auto& f : lines) {
    if (f[0] != "file") continue;
    if (f.size() != 3) return bad(f);
    s = DropTail(f[2], std::stoll(f[1]), report);
    if (!s.ok()) return s;
  }
  // Then the names, undoing the newest change first.
  std::error_code ec;
  for (auto it = lines.rbegin(); it != lines.rend(); ++it) {
    const auto& f = *it;
    if (f[0] == "create") {
      if (f.size() != 2) return bad(f);
      if (fs::remove(f[1], ec)) ++report->creations_undone;
    } else if (f[0] == "rename") {
      if (f.size() != 5) return bad(f);
      s = Move(f[2], f[1]);
      if (s.ok() && !f[3].empty()) s = DropTail(f[3], std::stoll(f[4]), report);
      if (s.ok() && !f[3].empty()) s = Move(f[3], f[2]);
      if (!s.ok()) return s;
      ++report->renames_undone;
    } else if (f[0] == "delete") {
      if (f.size() != 4) return bad(f);
      if (f[2].empty()) continue;  // the file was already gone
      s = DropTail(f[2], std::stoll(f[3]), report);
      if (s.ok()) s = Move(f[2], f[1]);
      if (!s.ok()) return s;
      ++report->deletions_undone;
    } else if (f[0] == "note") {
      if (f.size() >= 2) report->note = f[1];
    } else if (f[0] != "file") {
      return bad(f);
    }
  }
  fs::remove_all(journal_path + ".shadow", ec);
  fs::remove(journal_path, ec);
  return Status::OK();
}

}  // namespace eulerdeck::storage
