// eulerdeck_codec_bench: the block codec and the fused block expander, one
// thread, on blocks of a real stored run (Google Benchmark).
//
// The stored run's cost is its inner loop: every block of level k is
// unsealed (zstd + XXH64), its paths rank-decoded, expanded, and the children
// rank-encoded and sealed again. store_bench times the whole run, where
// RocksDB, the pipeline and the machine's other load blur these parts
// together; this times each part alone, so that a change to one of them
// (rank coding, the fused expander, the zstd level) can be judged by itself.
//
// Synthetic paths would not do: the ranks' distribution, the shared prefixes
// between neighbours and hence zstd's ratio all come from the tree's shape.
// So each case first builds a real run in a temporary directory (removed as
// soon as its blocks are read), and the benchmarks replay blocks of its widest
// level W, the level that dominates a run's time and disk, and of level W-1,
// whose expansion writes level W. Each level is sampled evenly across its key
// range, at most kMaxBlocks blocks, to bound setup time and memory.
//
// Every benchmark reports entries/s (items_per_second) and bytes_per_entry
// (the blocks as stored, or as they would be stored at another zstd level),
// the two numbers a codec change trades against each other.
//
// ExpandReference is the path the stored run took before the fused expander
// (DecodeBlock, LevelExpander, EncodeBlock); setup checks once that both
// write the same bytes, since a faster expander that writes other blocks is
// a format change, not an optimization.
#include <benchmark/benchmark.h>
#include <stdlib.h>
#include <zstd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "engine/cards/game.h"
#include "engine/eulerian/children.h"
#include "engine/eulerian/expand.h"
#include "storage/run/block_expander.h"
#include "storage/run/stored_run.h"
#include "storage/store/block_codec.h"
#include "storage/store/format.h"
#include "storage/store/frontier_store.h"

namespace {

using namespace eulerdeck;
using namespace eulerdeck::storage;

// Blocks kept per level: ~5M entries of level W, enough to average over the
// key range, and each iteration stays in the tens of milliseconds.
constexpr size_t kMaxBlocks = 300;

struct CaseDef {
  const char* name;
  GameSpec spec;
};

// Small enough to build in seconds on two cores, big enough that level W has
// hundreds of full blocks.
const CaseDef kCases[] = {
    {"modular11", GameSpec{Game::kModular, 11, 1}},
    {"mousetrap12", GameSpec{Game::kMousetrap, 12, 1}},
};
constexpr int kCaseCount = sizeof(kCases) / sizeof(kCases[0]);

// One case's blocks, read once and shared by all its benchmarks.
struct Case {
  explicit Case(const GameSpec& s) : spec(s), rule(s), coding{s.ranks, s.suits} {}

  GameSpec spec;
  ChildRule rule;
  CountCoding coding;
  int widest = 0;  // W

  // Level W: the blocks as stored, unsealed, and decoded.
  std::vector<std::string> stored;
  std::vector<RawBlock> raw;
  std::vector<PathBlock> paths;
  uint64_t entries = 0;
  uint64_t stored_bytes = 0;

  // Level W-1, as stored: the expanders' input.
  std::vector<std::string> parents;

  // Level W as block format 1 (columns of bytes, before 2026-11-23): the
  // same entries, the baseline of format 2.
  std::vector<RawBlock> raw_v1;
  std::vector<std::string> stored_v1;
  // Level W as block format 2 (nibbles, before 2026-11-29 on every level),
  // the baseline of format 3 where the level is written in it.
  std::vector<RawBlock> raw_v2;
  std::vector<std::string> stored_v2;
};

// The temporary directory of the case being built, removed even when setup
// fails.
std::string g_temp_dir;

[[noreturn]] void Die(const std::string& what) {
  std::fprintf(stderr, "codec_bench: %s\n", what.c_str());
  if (!g_temp_dir.empty()) {
    std::error_code ignored;
    std::filesystem::remove_all(g_temp_dir, ignored);
  }
  std::abort();
}

// The format-1 payload of a block's entries: column 1 (suffix lengths), then
// column 2 (ranks, one or two bytes each).
RawBlock ToColumns(const RawBlock& raw) {
  RawBlock v1 = raw;
  v1.format = kBlockFormatColumns;
  std::string col1, col2;
  EntryReader reader(raw);
  for (uint32_t i = 0; i < raw.entries; ++i) {
    int suffix = 0;
    if (!reader.NextSuffix(&suffix)) Die(reader.error());
    col1.push_back(static_cast<char>(suffix));
    for (int j = 0; j < suffix; ++j) {
      uint32_t r = 0;
      if (!reader.NextRank(&r)) Die(reader.error());
      if (raw.count_bytes == 2) col2.push_back(static_cast<char>(r >> 8));
      col2.push_back(static_cast<char>(r & 0xff));
    }
  }
  v1.payload = col1 + col2;
  return v1;
}

void Check(const Status& s, const std::string& what) {
  if (!s.ok()) Die(what + ": " + s.ToString());
}

// Every stride-th block of `level`, at most kMaxBlocks.
std::vector<std::string> SampleBlocks(FrontierStore* store, const LevelRecord& level) {
  const uint64_t stride = std::max<uint64_t>(1, (level.blocks + kMaxBlocks - 1) / kMaxBlocks);
  std::vector<std::string> out;
  auto it = store->Blocks(level.level, "");
  for (uint64_t i = 0; it->Valid() && out.size() < kMaxBlocks; it->Next(), ++i) {
    if (i % stride == 0) out.emplace_back(it->value());
  }
  Check(it->status(), "reading level " + std::to_string(level.level));
  return out;
}

// The reference expansion of one stored block of level k, as the stored run
// did it before the fused expander: every path of both levels materialized,
// every count coded from scratch. `expander` is reused across blocks, as the
// run's per-thread one was.
void ExpandReference(const Case& c, LevelExpander* expander, std::string_view data, int k,
                     ExpandedBlocks* out) {
  PathBlock in;
  Check(DecodeBlock(data, c.coding, &in), "decoding a level-" + std::to_string(k) + " block");
  PathBlock children;
  children.k = k + 1;
  children.count_bytes = CountBytesFor(c.rule, k + 1);
  children.counts.reserve(static_cast<size_t>(kEntriesPerBlock) * (k + 1));
  auto flush = [&] {
    std::string encoded;
    uint64_t raw_bytes = 0;
    EncodeBlock(children, c.coding, &encoded, &raw_bytes, BlockFormatFor(c.rule, k + 1));
    out->entries += children.entries();
    out->raw_bytes += raw_bytes;
    out->blocks.push_back(std::move(encoded));
    children.counts.clear();
  };
  expander->Expand(in.counts.data(), in.entries(), k, kEntriesPerBlock, &children.counts, flush);
  if (children.entries() > 0) flush();
}

std::unique_ptr<Case> BuildCase(const CaseDef& def) {
  auto c = std::make_unique<Case>(def.spec);
  char pattern[] = "/tmp/eulerdeck-codec-bench-XXXXXX";
  if (mkdtemp(pattern) == nullptr) Die("cannot create a temporary directory");
  g_temp_dir = pattern;
  const std::string dir = std::string(pattern) + "/store";
  {
    std::unique_ptr<FrontierStore> store;
    Check(FrontierStore::Open(dir, FrontierStore::Mode::kReadWrite, 256ull << 20, &store),
          "opening " + dir);
    RunOptions options;
    options.threads = 2;
    options.keep = Keep::kAll;
    Check(RunStore(store.get(), def.spec, options), std::string("running ") + def.name);
    std::vector<LevelRecord> levels;
    Check(store->GetLevels(&levels), "reading the level records");
    const LevelRecord* widest = nullptr;
    for (const auto& r : levels) {
      if (r.level >= 2 && (widest == nullptr || r.entries > widest->entries)) widest = &r;
    }
    if (widest == nullptr) Die(std::string(def.name) + ": no level 2 or above");
    const LevelRecord* below = nullptr;
    for (const auto& r : levels) {
      if (r.level == widest->level - 1) below = &r;
    }
    if (below == nullptr) Die(std::string(def.name) + ": level W-1 missing");
    c->widest = widest->level;
    c->stored = SampleBlocks(store.get(), *widest);
    c->parents = SampleBlocks(store.get(), *below);
  }
  std::filesystem::remove_all(g_temp_dir);
  g_temp_dir.clear();

  for (const auto& data : c->stored) {
    RawBlock raw;
    Check(UnsealBlock(data, &raw), "unsealing a level-W block");
    PathBlock block;
    Check(DecodeBlock(data, c->coding, &block), "decoding a level-W block");
    c->entries += block.entries();
    c->stored_bytes += data.size();
    RawBlock v1 = ToColumns(raw);
    std::string sealed;
    SealBlock(v1, &sealed);
    PathBlock back;
    Check(DecodeBlock(sealed, c->coding, &back), "decoding a format-1 block");
    if (back.counts != block.counts) Die(std::string(def.name) + ": format 1 decodes otherwise");
    c->stored_v1.push_back(std::move(sealed));
    c->raw_v1.push_back(std::move(v1));
    std::string v2;
    uint64_t v2_bytes = 0;
    EncodeBlock(block, c->coding, &v2, &v2_bytes, kBlockFormat);
    RawBlock raw_v2;
    Check(UnsealBlock(v2, &raw_v2), "unsealing a format-2 block");
    c->stored_v2.push_back(std::move(v2));
    c->raw_v2.push_back(std::move(raw_v2));
    c->raw.push_back(std::move(raw));
    c->paths.push_back(std::move(block));
  }

  // The fused expander must write exactly the reference's blocks.
  BlockExpander fused(c->rule, kEntriesPerBlock);
  LevelExpander reference(c->rule);
  for (size_t i = 0; i < c->parents.size(); ++i) {
    ExpandedBlocks a, b;
    Check(fused.Expand(c->parents[i], c->widest - 1, &a), "fused expansion");
    ExpandReference(*c, &reference, c->parents[i], c->widest - 1, &b);
    if (a.blocks != b.blocks || a.entries != b.entries || a.raw_bytes != b.raw_bytes) {
      Die(std::string(def.name) + ": fused and reference expansions differ on level-" +
          std::to_string(c->widest - 1) + " block " + std::to_string(i) + " of the sample");
    }
  }
  std::fprintf(stderr,
               "codec_bench: %s: level W=%d, %zu blocks (%llu entries); level %d, %zu blocks\n",
               def.name, c->widest, c->stored.size(), static_cast<unsigned long long>(c->entries),
               c->widest - 1, c->parents.size());
  return c;
}

// Built on first use: a filtered run (--benchmark_filter) builds only the
// cases it needs.
const Case& GetCase(int index) {
  static std::unique_ptr<Case> cases[kCaseCount];
  if (!cases[index]) cases[index] = BuildCase(kCases[index]);
  return *cases[index];
}

void Report(benchmark::State& state, uint64_t entries_per_iteration, double bytes_per_entry) {
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * entries_per_iteration));
  state.counters["bytes_per_entry"] = bytes_per_entry;
}

// The level's blocks as stored (format 0: this build's), or in format 1 or 2.
const std::vector<std::string>& StoredAs(const Case& c, int format) {
  return format == 1 ? c.stored_v1 : format == 2 ? c.stored_v2 : c.stored;
}
const std::vector<RawBlock>& RawAs(const Case& c, int format) {
  return format == 1 ? c.raw_v1 : format == 2 ? c.raw_v2 : c.raw;
}

void DecodeBlocks(benchmark::State& state, int index, int format) {
  const Case& c = GetCase(index);
  PathBlock block;
  uint64_t bytes = 0;
  for (const auto& data : StoredAs(c, format)) bytes += data.size();
  for (auto _ : state) {
    for (const auto& data : StoredAs(c, format)) {
      Check(DecodeBlock(data, c.coding, &block), "decode");
      benchmark::DoNotOptimize(block.counts.data());
    }
  }
  Report(state, c.entries, static_cast<double>(bytes) / c.entries);
}

void SealBlocks(benchmark::State& state, int index, int format) {
  const Case& c = GetCase(index);
  std::string out;
  uint64_t bytes = 0;
  for (auto _ : state) {
    bytes = 0;
    for (const auto& raw : RawAs(c, format)) {
      SealBlock(raw, &out);
      bytes += out.size();
      benchmark::DoNotOptimize(out.data());
    }
  }
  Report(state, c.entries, static_cast<double>(bytes) / c.entries);
}

// Block formats 1 and 2 against this build's (Seal, Decode: format 3 where
// the level takes it, else 2), on the same entries.
void BM_SealFormat1(benchmark::State& state, int index) { SealBlocks(state, index, 1); }
void BM_DecodeFormat1(benchmark::State& state, int index) { DecodeBlocks(state, index, 1); }
void BM_SealFormat2(benchmark::State& state, int index) { SealBlocks(state, index, 2); }
void BM_DecodeFormat2(benchmark::State& state, int index) { DecodeBlocks(state, index, 2); }

void BM_Decode(benchmark::State& state, int index) {
  const Case& c = GetCase(index);
  PathBlock block;
  for (auto _ : state) {
    for (const auto& data : c.stored) {
      Check(DecodeBlock(data, c.coding, &block), "decode");
      benchmark::DoNotOptimize(block.counts.data());
    }
  }
  Report(state, c.entries, static_cast<double>(c.stored_bytes) / c.entries);
}

void BM_Encode(benchmark::State& state, int index) {
  const Case& c = GetCase(index);
  std::string out;
  uint64_t bytes = 0;
  for (auto _ : state) {
    bytes = 0;
    for (const auto& block : c.paths) {
      uint64_t raw_bytes = 0;
      EncodeBlock(block, c.coding, &out, &raw_bytes, BlockFormatFor(c.rule, block.k));
      bytes += out.size();
      benchmark::DoNotOptimize(out.data());
    }
  }
  Report(state, c.entries, static_cast<double>(bytes) / c.entries);
}

void BM_Unseal(benchmark::State& state, int index) {
  const Case& c = GetCase(index);
  RawBlock raw;
  for (auto _ : state) {
    for (const auto& data : c.stored) {
      Check(UnsealBlock(data, &raw), "unseal");
      benchmark::DoNotOptimize(raw.payload.data());
    }
  }
  Report(state, c.entries, static_cast<double>(c.stored_bytes) / c.entries);
}

void BM_Seal(benchmark::State& state, int index) {
  const Case& c = GetCase(index);
  std::string out;
  uint64_t bytes = 0;
  for (auto _ : state) {
    bytes = 0;
    for (const auto& raw : c.raw) {
      SealBlock(raw, &out);
      bytes += out.size();
      benchmark::DoNotOptimize(out.data());
    }
  }
  Report(state, c.entries, static_cast<double>(bytes) / c.entries);
}

void BM_ExpandFused(benchmark::State& state, int index) {
  const Case& c = GetCase(index);
  BlockExpander expander(c.rule, kEntriesPerBlock);
  ExpandedBlocks out;
  uint64_t entries = 0, bytes = 0;
  for (auto _ : state) {
    entries = bytes = 0;
    for (const auto& data : c.parents) {
      out.blocks.clear();
      out.entries = 0;
      Check(expander.Expand(data, c.widest - 1, &out), "fused expansion");
      entries += out.entries;
      for (const auto& b : out.blocks) bytes += b.size();
    }
  }
  Report(state, entries, entries ? static_cast<double>(bytes) / entries : 0.0);
}

void BM_ExpandReference(benchmark::State& state, int index) {
  const Case& c = GetCase(index);
  LevelExpander expander(c.rule);
  ExpandedBlocks out;
  uint64_t entries = 0, bytes = 0;
  for (auto _ : state) {
    entries = bytes = 0;
    for (const auto& data : c.parents) {
      out.blocks.clear();
      out.entries = 0;
      ExpandReference(c, &expander, data, c.widest - 1, &out);
      entries += out.entries;
      for (const auto& b : out.blocks) bytes += b.size();
    }
  }
  Report(state, entries, entries ? static_cast<double>(bytes) / entries : 0.0);
}

// zstd alone with other parameters, on the same payloads SealBlock
// compresses: what a change of format.h's zstd parameters would cost and
// save. "format" is SealBlock's own choice (the same bytes as Seal); the
// others are the ones it was chosen against (docs/performance.md).
struct ZstdParams {
  const char* name;
  int level, min_match, hash_log;  // 0: the level's default
};
constexpr ZstdParams kZstdParams[] = {
    {"format", kZstdLevel, kZstdMinMatch, kZstdHashLog},
    {"level1", 1, 0, 0},
    {"level3", 3, 0, 0},
    {"level3-minmatch7", 3, 7, 0},
    {"level5", 5, 0, 0},
};

void BM_Zstd(benchmark::State& state, int index, int params) {
  const Case& c = GetCase(index);
  const ZstdParams& p = kZstdParams[params];
  ZSTD_CCtx* cctx = ZSTD_createCCtx();
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, p.level);
  if (p.min_match) ZSTD_CCtx_setParameter(cctx, ZSTD_c_minMatch, p.min_match);
  if (p.hash_log) ZSTD_CCtx_setParameter(cctx, ZSTD_c_hashLog, p.hash_log);
  std::string out;
  uint64_t bytes = 0;
  for (auto _ : state) {
    bytes = 0;
    for (const auto& raw : c.raw) {
      const size_t bound = ZSTD_compressBound(raw.payload.size());
      if (out.size() < bound) out.resize(bound);
      const size_t z =
          ZSTD_compress2(cctx, out.data(), bound, raw.payload.data(), raw.payload.size());
      if (ZSTD_isError(z)) Die(std::string("zstd: ") + ZSTD_getErrorName(z));
      bytes += kBlockHeaderBytes + z;
      benchmark::DoNotOptimize(out.data());
    }
  }
  ZSTD_freeCCtx(cctx);
  Report(state, c.entries, static_cast<double>(bytes) / c.entries);
}

// Names are Bench/case and Zstd/params/case, so that a filter such as
// 'Expand' or 'mousetrap12' selects a family or a case.
const bool kRegistered = [] {
  using Fn = void (*)(benchmark::State&, int);
  const std::pair<const char*, Fn> benches[] = {
      {"Decode", BM_Decode},           {"Encode", BM_Encode},
      {"Unseal", BM_Unseal},           {"Seal", BM_Seal},
      {"ExpandFused", BM_ExpandFused}, {"ExpandReference", BM_ExpandReference},
      {"SealFormat1", BM_SealFormat1}, {"DecodeFormat1", BM_DecodeFormat1},
      {"SealFormat2", BM_SealFormat2}, {"DecodeFormat2", BM_DecodeFormat2},
  };
  for (const auto& [name, fn] : benches) {
    for (int i = 0; i < kCaseCount; ++i) {
      benchmark::RegisterBenchmark((std::string(name) + "/" + kCases[i].name).c_str(), fn, i)
          ->Unit(benchmark::kMillisecond);
    }
  }
  for (int p = 0; p < static_cast<int>(std::size(kZstdParams)); ++p) {
    for (int i = 0; i < kCaseCount; ++i) {
      benchmark::RegisterBenchmark(
          (std::string("Zstd/") + kZstdParams[p].name + "/" + kCases[i].name).c_str(), BM_Zstd, i,
          p)
          ->Unit(benchmark::kMillisecond);
    }
  }
  return true;
}();

}  // namespace

BENCHMARK_MAIN();
