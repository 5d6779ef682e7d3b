#include "storage/count/count_progress.h"

#include <xxhash.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <vector>

#include "engine/eulerian/children.h"
#include "storage/count/stored_count.h"
#include "storage/count/stored_reform_stats.h"
#include "storage/count/stored_removed.h"
#include "storage/store/block_codec.h"
#include "storage/store/inspect.h"
#include "storage/store/params.h"

namespace eulerdeck::storage {

namespace {

std::string Hex64(uint64_t x) {
  char buf[17];
  std::snprintf(buf, sizeof(buf), "%016llx", static_cast<unsigned long long>(x));
  return buf;
}

// What identifies the split level's subtrees: the entries of each block and
// an XXH64 over every path (counts as little-endian 16-bit words, in key
// order). Two stores agree on these exactly when a batch's (block, first,
// count) names the same subtrees in both.
struct SplitShape {
  std::vector<uint32_t> block_entries;
  uint64_t paths_xxh64 = 0;
};

Status ReadSplitShape(FrontierStore* store, int d, SplitShape* shape) {
  shape->block_entries.clear();
  auto it = store->Blocks(d);
  for (; it->Valid(); it->Next()) {
    uint32_t entries = 0;
    int k = 0;
    Status s = PeekBlock(it->value(), &entries, &k);
    if (!s.ok()) return Status::Corruption("level " + std::to_string(d) + ": " + s.message());
    shape->block_entries.push_back(entries);
  }
  if (!it->status().ok()) return it->status();
  XXH64_state_t* state = XXH64_createState();
  XXH64_reset(state, 0);
  std::vector<unsigned char> bytes;
  Status s = ForEachEntry(store, d, [&](const uint16_t* path, int k) {
    bytes.resize(2 * static_cast<size_t>(k));
    for (int i = 0; i < k; ++i) {
      bytes[2 * i] = static_cast<unsigned char>(path[i] & 0xff);
      bytes[2 * i + 1] = static_cast<unsigned char>(path[i] >> 8);
    }
    XXH64_update(state, bytes.data(), bytes.size());
    return true;
  });
  shape->paths_xxh64 = XXH64_digest(state);
  XXH64_freeState(state);
  return s;
}

// The checksum of a document: XXH64 of its canonical dump without the
// "xxh64" member (nlohmann::json keeps members sorted, so the dump is
// canonical).
std::string DocumentChecksum(nlohmann::json doc) {
  doc.erase("xxh64");
  const std::string text = doc.dump();
  return Hex64(XXH64(text.data(), text.size(), 0));
}

// One member a line, one record a line: readable, and a diff of two
// exports of the same count shows the batches that changed.
std::string Layout(const nlohmann::json& doc) {
  std::string text = "{\n";
  bool first = true;
  for (const auto& [key, value] : doc.items()) {
    if (!first) text += ",\n";
    first = false;
    text += ' ';
    text += nlohmann::json(key).dump();
    text += ": ";
    if (key == "records") {
      text += "[";
      for (size_t i = 0; i < value.size(); ++i) {
        text += i ? ",\n  " : "\n  ";
        text += value[i].dump();
      }
      text += value.empty() ? "]" : "\n ]";
    } else {
      text += value.dump();
    }
  }
  return text + "\n}\n";
}

std::string Where(const std::string& what) { return "progress document: " + what; }

// A document, checked and read back: everything but writing the store.
struct Parsed {
  ProgressSummary summary;
  uint64_t subtree_target = 0;
  SplitShape shape;
  std::vector<CountRecord> records;
  SubtreeCounts counted;  // the records' sums
};

// Every number of a document is a count, an index or a size, so an unsigned
// integer (nlohmann would convert -5 to 2^64 - 5 without a word), but for
// the batches' wall seconds, finite and >= 0.
bool NumbersValid(const nlohmann::json& j, const std::string& key = "") {
  if (j.is_object()) {
    for (const auto& [k, v] : j.items()) {
      if (!NumbersValid(v, k)) return false;
    }
    return true;
  }
  if (j.is_array()) {
    for (const auto& v : j) {
      if (!NumbersValid(v, key)) return false;
    }
    return true;
  }
  if (j.is_number_float()) {
    const double x = j.get<double>();
    return key == "seconds" && std::isfinite(x) && x >= 0;
  }
  return !j.is_number_integer() || j.is_number_unsigned();
}

// 16 lower-case hex digits, as Hex64() writes them.
bool IsHex64(const std::string& text) {
  return text.size() == 16 && text.find_first_not_of("0123456789abcdef") == std::string::npos;
}

// The game of a document (of either kind), in *spec: one the enumerator
// takes. Throws nlohmann's exceptions for members missing or of another type.
Status ParseSpec(const nlohmann::json& doc, GameSpec* spec) {
  Status st = ParseGame(doc.at("game").get<std::string>(), &spec->game);
  if (!st.ok()) return Status::InvalidArgument(Where(st.message()));
  spec->ranks = doc.at("ranks").get<int>();
  spec->suits = doc.at("suits").get<int>();
  st = CheckEnumerable(*spec);
  if (!st.ok()) return Status::InvalidArgument(Where(st.message()));
  return Status::OK();
}

// A count's document (kProgressVersion), passed by CheckDocument().
Status ParseDocument(const nlohmann::json& doc, Parsed* p) {
  try {
    ProgressSummary& s = p->summary;
    Status st = ParseSpec(doc, &s.spec);
    if (!st.ok()) return st;
    s.tally = doc.at("tally").get<std::string>();
    if (!s.tally.empty() && s.tally != kReformStatsTally) {
      return Status::InvalidArgument(
          Where("a count with the tally '" + s.tally + "', which this build does not know"));
    }
    p->subtree_target = doc.at("subtree_target").get<uint64_t>();
    s.split_level = doc.at("split_level").get<int>();
    s.subtrees_total = doc.at("subtrees_total").get<uint64_t>();
    const int n = s.spec.cards();
    const int d = s.split_level;
    if (p->subtree_target == 0 || d < 1 || d >= n) {
      return Status::InvalidArgument(Where("its split (level " + std::to_string(d) +
                                           ") is not one of a count of " + std::to_string(n) +
                                           " cards"));
    }
    p->shape.block_entries = doc.at("split_blocks").get<std::vector<uint32_t>>();
    const std::string hash = doc.at("split_xxh64").get<std::string>();
    if (!IsHex64(hash)) return Status::InvalidArgument(Where("split_xxh64 is not 16 hex digits"));
    p->shape.paths_xxh64 = std::stoull(hash, nullptr, 16);
    uint64_t entries = 0;
    for (uint32_t e : p->shape.block_entries) entries += e;
    if (entries != s.subtrees_total) {
      return Status::InvalidArgument(Where("its split blocks hold " + std::to_string(entries) +
                                           " subtrees, not " + std::to_string(s.subtrees_total)));
    }
    p->counted.level.assign(n + 1, 0);
    std::map<uint32_t, uint64_t> end_of_block;  // where the last record of each block ends
    for (const auto& r : doc.at("records")) {
      CountRecord record;
      record.block = r.at("block").get<uint32_t>();
      record.first = r.at("first").get<uint32_t>();
      record.value = r.at("counts").dump();
      SubtreeCounts c;
      st = DecodeCountRecord(record, d, n, &c);
      if (!st.ok()) return Status::InvalidArgument(Where(st.message()));
      // (Compared without a sum that could wrap.)
      if (record.block >= p->shape.block_entries.size() ||
          record.first > p->shape.block_entries[record.block] ||
          c.subtrees > p->shape.block_entries[record.block] - record.first) {
        return Status::InvalidArgument(Where("a record names subtrees past its block (block " +
                                             std::to_string(record.block) + ")"));
      }
      auto [it, fresh] = end_of_block.try_emplace(record.block, 0);
      if (!p->records.empty() &&
          (p->records.back().block > record.block || (!fresh && it->second > record.first))) {
        return Status::InvalidArgument(Where("records overlap or are out of order (block " +
                                             std::to_string(record.block) + ", entry " +
                                             std::to_string(record.first) + ")"));
      }
      it->second = uint64_t{record.first} + c.subtrees;
      if (c.tally.empty() != s.tally.empty()) {
        return Status::InvalidArgument(Where("a record's tally does not match the count's"));
      }
      st = p->counted.Add(c);
      if (!st.ok()) return Status::InvalidArgument(Where(st.message()));
      p->records.push_back(std::move(record));
    }
    s.batches = p->records.size();
    s.subtrees_done = p->counted.subtrees;
    s.winning = p->counted.level[n];
    s.worker_seconds = p->counted.seconds;
    if (doc.at("subtrees_done").get<uint64_t>() != s.subtrees_done ||
        doc.at("winning").get<uint64_t>() != s.winning) {
      return Status::InvalidArgument(Where("its totals do not match its records"));
    }
  } catch (const std::exception& e) {
    return Status::InvalidArgument(Where(std::string("malformed (") + e.what() + ")"));
  }
  return Status::OK();
}

// A count --removed's document (kRemovedProgressVersion): its plan, and
// its records, contiguous ones merged.
Status ExportRemoved(FrontierStore* store, const GameSpec& spec, std::string* document,
                     ProgressSummary* summary) {
  RemovedProgress progress;
  std::vector<RemovedBatchSummary> unused;
  Status s = ReadRemovedProgress(store, &progress, &unused);
  if (!s.ok()) return s;
  const int n = spec.cards();
  std::vector<CountRecord> records;
  s = store->GetCountRecords(&records);
  if (!s.ok()) return s;
  nlohmann::json out = nlohmann::json::array();
  TaskCounts total;  // this read's sums (a writer may commit meanwhile)
  total.removed.assign(n + 1, 0);
  TaskBatch run_at;
  TaskCounts run;
  bool open = false;
  auto flush = [&] {
    if (!open) return;
    const CountRecord r = EncodeRemovedRecord(run_at, run);
    out.push_back({{"first", run_at.first}, {"counts", nlohmann::json::parse(r.value)}});
    open = false;
  };
  for (const CountRecord& r : records) {
    TaskBatch b;
    TaskCounts c;
    s = DecodeRemovedRecord(r, n, &b, &c);
    if (s.ok()) s = total.Add(c);
    if (!s.ok()) return s;
    if (open && run_at.first + run.tasks == b.first) {
      s = run.Add(c);
      if (!s.ok()) return s;
      continue;
    }
    flush();
    run = c;
    run_at = b;
    open = true;
  }
  flush();
  const RemovedPlanRecord& plan = progress.plan;
  nlohmann::json doc = {{"format", kProgressFormat},
                        {"version", kRemovedProgressVersion},
                        {"kind", StoreKindName(StoreKind::kRemoved)},
                        {"game", GameName(spec.game)},
                        {"ranks", spec.ranks},
                        {"suits", spec.suits},
                        {"split_depth", plan.split_depth},
                        {"tasks", plan.tasks},
                        {"fingerprint", Hex64(plan.fingerprint)},
                        {"method", plan.method},
                        {"top", plan.top},
                        {"tasks_done", total.tasks},
                        {"decks", total.decks()},
                        {"records", out}};
  doc["xxh64"] = DocumentChecksum(doc);
  *document = Layout(doc);
  if (summary != nullptr) {
    *summary = ProgressSummary();
    summary->kind = StoreKindName(StoreKind::kRemoved);
    summary->spec = spec;
    summary->split_level = plan.split_depth;
    summary->subtrees_total = plan.tasks;
    summary->subtrees_done = total.tasks;
    summary->batches = out.size();
    summary->winning = total.decks();
    summary->worker_seconds = total.seconds;
  }
  return Status::OK();
}

// A count --removed's document, checked and read back.
struct ParsedRemoved {
  ProgressSummary summary;
  RemovedPlanRecord plan;
  std::vector<CountRecord> records;
  TaskCounts counted;
};

Status ParseRemoved(const nlohmann::json& doc, ParsedRemoved* p) {
  try {
    if (doc.at("kind") != StoreKindName(StoreKind::kRemoved)) {
      return Status::InvalidArgument(Where("version " + std::to_string(kRemovedProgressVersion) +
                                           " of another kind than 'removed'"));
    }
    ProgressSummary& s = p->summary;
    s.kind = StoreKindName(StoreKind::kRemoved);
    Status st = ParseSpec(doc, &s.spec);
    if (!st.ok()) return st;
    const int n = s.spec.cards();
    RemovedPlanRecord& plan = p->plan;
    plan.split_depth = doc.at("split_depth").get<int>();
    plan.tasks = doc.at("tasks").get<uint64_t>();
    const std::string fingerprint = doc.at("fingerprint").get<std::string>();
    if (!IsHex64(fingerprint)) {
      return Status::InvalidArgument(Where("fingerprint is not 16 hex digits"));
    }
    plan.fingerprint = std::stoull(fingerprint, nullptr, 16);
    plan.method = doc.at("method").get<std::string>();
    plan.top = doc.at("top").get<std::vector<uint64_t>>();
    if (plan.split_depth < 1 || plan.top.size() != static_cast<size_t>(n + 1)) {
      return Status::InvalidArgument(
          Where("its plan is not one of a game of " + std::to_string(n) + " cards"));
    }
    p->counted.removed.assign(n + 1, 0);
    uint64_t end = 0;
    for (const auto& r : doc.at("records")) {
      TaskBatch b;
      b.first = r.at("first").get<uint64_t>();
      CountRecord record = EncodeRemovedRecord(b, TaskCounts());
      record.value = r.at("counts").dump();
      TaskCounts c;
      st = DecodeRemovedRecord(record, n, &b, &c);
      if (!st.ok()) return Status::InvalidArgument(Where(st.message()));
      if ((!p->records.empty() && b.first < end) || b.first > plan.tasks ||
          b.count > plan.tasks - b.first) {
        return Status::InvalidArgument(
            Where("records overlap, are out of order or pass the "
                  "plan's tasks (task " +
                  std::to_string(b.first) + ")"));
      }
      end = b.first + b.count;
      st = p->counted.Add(c);
      if (!st.ok()) return Status::InvalidArgument(Where(st.message()));
      p->records.push_back(std::move(record));
    }
    s.split_level = plan.split_depth;
    s.subtrees_total = plan.tasks;
    s.subtrees_done = p->counted.tasks;
    s.batches = p->records.size();
    s.winning = p->counted.decks();
    s.worker_seconds = p->counted.seconds;
    if (doc.at("tasks_done").get<uint64_t>() != s.subtrees_done ||
        doc.at("decks").get<uint64_t>() != s.winning) {
      return Status::InvalidArgument(Where("its totals do not match its records"));
    }
  } catch (const std::exception& e) {
    return Status::InvalidArgument(Where(std::string("malformed (") + e.what() + ")"));
  }
  return Status::OK();
}

// The checks of a document common to every kind: a JSON object of this
// format, its checksum, its numbers; *version set.
Status CheckDocument(const std::string& document, nlohmann::json* doc, int* version) {
  *doc = nlohmann::json::parse(document, nullptr, /*allow_exceptions=*/false);
  if (doc->is_discarded() || !doc->is_object())
    return Status::InvalidArgument(Where("not a JSON object"));
  if (!doc->contains("format") || (*doc)["format"] != kProgressFormat)
    return Status::InvalidArgument(
        Where(std::string("not of the format '") + kProgressFormat + "'"));
  if (!doc->contains("version") || !(*doc)["version"].is_number_integer() ||
      ((*doc)["version"].get<int>() != kProgressVersion &&
       (*doc)["version"].get<int>() != kRemovedProgressVersion)) {
    return Status::InvalidArgument(
        Where("version " + doc->value("version", nlohmann::json()).dump() +
              ", this build reads versions " + std::to_string(kProgressVersion) + " and " +
              std::to_string(kRemovedProgressVersion)));
  }
  if (!doc->contains("xxh64") || !(*doc)["xxh64"].is_string() ||
      (*doc)["xxh64"].get<std::string>() != DocumentChecksum(*doc)) {
    return Status::InvalidArgument(Where("its checksum does not match: the file is damaged"));
  }
  if (!NumbersValid(*doc)) {
    return Status::InvalidArgument(Where("a number is negative, fractional or out of place"));
  }
  *version = (*doc)["version"].get<int>();
  return Status::OK();
}

// Where an import builds its store: `dir` normalised (*target) and the
// hidden sibling (*work), checked as ImportCountProgress() says, with what a
// killed import left there removed.
Status ImportPlaces(const std::string& dir, std::filesystem::path* target,
                    std::filesystem::path* work) {
  namespace fs = std::filesystem;
  *target = fs::path(dir).lexically_normal();
  if (target->filename().empty()) *target = target->parent_path();  // "dir/"
  std::error_code ec;
  if (fs::exists(*target, ec) && (!fs::is_directory(*target, ec) || !fs::is_empty(*target, ec))) {
    return Status::InvalidArgument("'" + dir +
                                   "' exists and is not an empty directory: import makes a new "
                                   "store (give another --store)");
  }
  const fs::path parent = target->has_parent_path() ? target->parent_path() : fs::path(".");
  // A missing parent is made by CreateStore(), as `count --store` makes it
  // (issue 51, B7); one that is no directory cannot be.
  if (fs::exists(parent, ec) && !fs::is_directory(parent, ec)) {
    return Status::InvalidArgument("'" + parent.string() + "' of --store '" + dir +
                                   "' is not a directory");
  }
  // The store is made beside the target and renamed onto it once complete
  // (rename replaces an empty directory), so that a kill at any moment
  // leaves no store or the whole import: never an empty count, which a
  // resume, or the record queue, would start again from nothing.
  *work = parent / ("." + target->filename().string() + ".importing");
  if (fs::exists(*work, ec)) {
    if (StoreExists(work->string()) && WriterActive(work->string())) {
      return Status::InvalidArgument("another import into '" + dir + "' is running ('" +
                                     work->string() + "')");
    }
    fs::remove_all(*work, ec);  // what an import that was killed left
    if (ec) return Status::IOError("cannot remove '" + work->string() + "': " + ec.message());
  }
  return Status::OK();
}

// The end of an import whose store in `work` was built with status `s`:
// renamed onto `target`, or removed.
Status FinishImport(Status s, const std::filesystem::path& work,
                    const std::filesystem::path& target, const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (s.ok()) {
    fs::rename(work, target, ec);
    if (ec) {
      s = Status::IOError("cannot rename '" + work.string() + "' to '" + dir +
                          "': " + ec.message());
    }
  }
  if (!s.ok()) fs::remove_all(work, ec);
  return s;
}

// ImportCountProgress() of a count --removed's document.
Status ImportRemoved(const nlohmann::json& doc, const std::string& dir, uint64_t memory_budget,
                     ProgressSummary* summary) {
  ParsedRemoved p;
  Status s = ParseRemoved(doc, &p);
  if (!s.ok()) return s;
  std::filesystem::path target, work;
  s = ImportPlaces(dir, &target, &work);
  if (!s.ok()) return s;
  const GameSpec& spec = p.summary.spec;
  // The plan again, before anything is written: its batches are placed by
  // task index, so it must be the exported one.
  std::unique_ptr<RemovedPlan> plan;
  RemovedOptions options;
  options.split_depth = p.plan.split_depth;
  s = PlanRemoved(spec, options, &plan);
  if (!s.ok()) return s;
  const RemovedPlanRecord made = PlanRecord(*plan);
  if (made.fingerprint != p.plan.fingerprint || made.tasks != p.plan.tasks ||
      made.top != p.plan.top) {
    return Status::InvalidArgument(
        Where("its plan (" + std::to_string(p.plan.tasks) + " tasks, fingerprint " +
              Hex64(p.plan.fingerprint) + ") is not the one this build makes (" +
              std::to_string(made.tasks) + " tasks, fingerprint " + Hex64(made.fingerprint) +
              "): its batches cannot be placed"));
  }
  StoreParams params = NewStoreParams(spec, Keep::kNone);
  params.kind = StoreKind::kRemoved;
  params.plan = EncodeRemovedPlan(made);
  s = CreateStore(work.string(), params);
  if (!s.ok()) return s;
  s = [&]() -> Status {
    std::unique_ptr<FrontierStore> store;
    Status st =
        FrontierStore::Open(work.string(), FrontierStore::Mode::kReadWrite, memory_budget, &store);
    if (!st.ok()) return st;
    if (!p.records.empty()) st = store->PutCountRecords(p.records);
    if (!st.ok()) return st;
    RemovedProgress progress;
    st = ReadRemovedProgress(store.get(), &progress);
    if (!st.ok()) return st;
    if (progress.tasks_done != p.summary.subtrees_done ||
        progress.counted.removed != p.counted.removed) {
      return Status::Corruption("the imported store does not read back as the document");
    }
    return Status::OK();
  }();
  s = FinishImport(s, work, target, dir);
  if (!s.ok()) return s;
  if (summary != nullptr) *summary = p.summary;
  return Status::OK();
}

}  // namespace

Status ExportCountProgress(FrontierStore* store, std::string* document, ProgressSummary* summary) {
  GameSpec spec;
  Status s = StoreSpec(store, &spec);
  if (!s.ok()) return s;
  StoreParams params;
  bool exists = false;
  s = store->GetParams(&params, &exists);
  if (!s.ok()) return s;
  if (params.kind == StoreKind::kRemoved) return ExportRemoved(store, spec, document, summary);
  // ReadCountProgress checks it is a count and that its records neither
  // overlap nor fail to parse.
  CountProgress progress;
  s = ReadCountProgress(store, spec, &progress, /*want_tallies=*/false);
  if (!s.ok()) return s;
  const int n = spec.cards();
  const int d = progress.split_level;
  if (d == 0 || d >= n) {
    return Status::InvalidArgument("store '" + store->dir() +
                                   "' has no subtrees to export (it is still building the levels "
                                   "down to its split, or its game has one card)");
  }
  SplitShape shape;
  s = ReadSplitShape(store, d, &shape);
  if (!s.ok()) return s;
  uint64_t entries = 0;
  for (uint32_t e : shape.block_entries) entries += e;
  if (entries != progress.subtrees_total) {
    return Status::Corruption("level " + std::to_string(d) + " holds " + std::to_string(entries) +
                              " sub-decks in its blocks, its record says " +
                              std::to_string(progress.subtrees_total));
  }

  // The records, contiguous ones of a block merged (not a tallying count's).
  std::vector<CountRecord> records;
  s = store->GetCountRecords(&records);
  if (!s.ok()) return s;
  nlohmann::json out = nlohmann::json::array();
  SubtreeCounts total;  // the sums of this read of the records (a writer may commit meanwhile)
  total.level.assign(n + 1, 0);
  SubtreeCounts run;  // the record being merged
  CountRecord run_at;
  bool open = false;
  auto flush = [&] {
    if (!open) return;
    out.push_back({{"block", run_at.block},
                   {"first", run_at.first},
                   {"counts", nlohmann::json::parse(EncodeCountRecord(run, d))}});
    open = false;
  };
  for (const CountRecord& r : records) {
    SubtreeCounts c;
    s = DecodeCountRecord(r, d, n, &c);
    if (s.ok()) s = total.Add(c);
    if (!s.ok()) return s;
    const bool joins = open && params.tally.empty() && r.block == run_at.block &&
                       uint64_t{run_at.first} + run.subtrees == r.first;
    if (joins) {
      s = run.Add(c);
      if (!s.ok()) return s;
      continue;
    }
    flush();
    run = c;
    run_at = r;
    open = true;
  }
  flush();

  nlohmann::json doc = {{"format", kProgressFormat},
                        {"version", kProgressVersion},
                        {"game", GameName(spec.game)},
                        {"ranks", spec.ranks},
                        {"suits", spec.suits},
                        {"tally", params.tally},
                        {"subtree_target", params.subtree_target},
                        {"split_level", d},
                        {"subtrees_total", progress.subtrees_total},
                        {"subtrees_done", total.subtrees},
                        {"winning", total.level[n]},
                        {"split_blocks", shape.block_entries},
                        {"split_xxh64", Hex64(shape.paths_xxh64)},
                        {"records", out}};
  doc["xxh64"] = DocumentChecksum(doc);
  *document = Layout(doc);
  if (summary != nullptr) {
    *summary = ProgressSummary();
    summary->spec = spec;
    summary->tally = params.tally;
    summary->split_level = d;
    summary->subtrees_total = progress.subtrees_total;
    summary->subtrees_done = total.subtrees;
    summary->batches = out.size();
    summary->winning = total.level[n];
    summary->worker_seconds = total.seconds;
  }
  return Status::OK();
}

Status ImportCountProgress(const std::string& document, const std::string& dir,
                           uint64_t memory_budget, int threads, const std::atomic<bool>* stop,
                           ProgressSummary* summary) {
  // Everything about the document and the target is checked before
  // anything is written.
  nlohmann::json doc;
  int version = 0;
  Status s = CheckDocument(document, &doc, &version);
  if (!s.ok()) return s;
  if (version == kRemovedProgressVersion) return ImportRemoved(doc, dir, memory_budget, summary);
  Parsed p;
  s = ParseDocument(doc, &p);
  if (!s.ok()) return s;
  std::filesystem::path target, work;
  s = ImportPlaces(dir, &target, &work);
  if (!s.ok()) return s;
  const GameSpec& spec = p.summary.spec;
  StoreParams params = NewStoreParams(spec, Keep::kLast);
  params.kind = StoreKind::kCount;
  params.subtree_target = p.subtree_target;
  params.tally = p.summary.tally;
  s = CreateStore(work.string(), params);
  if (!s.ok()) return s;

  // From here on `work` is ours: a failure removes it.
  s = [&]() -> Status {
    std::unique_ptr<FrontierStore> store;
    Status st =
        FrontierStore::Open(work.string(), FrontierStore::Mode::kReadWrite, memory_budget, &store);
    if (!st.ok()) return st;
    CountStoreOptions options;
    options.threads = threads;
    options.subtree_target = p.subtree_target;
    options.tally = p.summary.tally;
    options.stop = stop;
    std::unique_ptr<CountCoordinator> coordinator;
    st = CountCoordinator::Open(store.get(), spec, options, &coordinator);
    if (!st.ok()) return st;
    const int d = coordinator->split_level();
    coordinator.reset();
    if (d != p.summary.split_level) {
      return Status::Corruption("this build splits the count at level " + std::to_string(d) +
                                ", the document at level " + std::to_string(p.summary.split_level) +
                                " (the rules of another build?): its batches cannot be placed");
    }
    SplitShape shape;
    st = ReadSplitShape(store.get(), d, &shape);
    if (!st.ok()) return st;
    if (shape.block_entries != p.shape.block_entries || shape.paths_xxh64 != p.shape.paths_xxh64) {
      return Status::Corruption("level " + std::to_string(d) +
                                " as this build makes it is not the exported one (other blocks "
                                "or other sub-decks): its batches cannot be placed");
    }
    st = store->PutCountRecords(p.records);
    if (!st.ok()) return st;
    // Read back as a resume will read it.
    CountProgress progress;
    st = ReadCountProgress(store.get(), spec, &progress, /*want_tallies=*/false);
    if (!st.ok()) return st;
    if (progress.subtrees_done != p.summary.subtrees_done ||
        progress.counted.level != p.counted.level) {
      return Status::Corruption("the imported store does not read back as the document");
    }
    // A finished count's document: the store is made complete, its totals
    // written as the count's own end writes them, so that it reads as
    // complete and not as "interrupted with 91733 of 91733" (issue 42, B3).
    if (progress.subtrees_total > 0 && progress.subtrees_done == progress.subtrees_total &&
        p.summary.tally.empty()) {
      st = CountCoordinator::Open(store.get(), spec, options, &coordinator);
      CountResult result;
      if (st.ok()) st = coordinator->Complete(&result);
      coordinator.reset();
      if (!st.ok()) return st;
    }
    return Status::OK();  // closes the store before the rename
  }();
  s = FinishImport(s, work, target, dir);
  if (!s.ok()) return s;
  if (summary != nullptr) *summary = p.summary;
  return Status::OK();
}

}  // namespace eulerdeck::storage
