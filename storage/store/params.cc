#include "storage/store/params.h"

#include <ctime>
#include <string>

#include "storage/store/format.h"

namespace eulerdeck::storage {

namespace {

std::string NowIso() {
  char buf[32];
  const std::time_t t = std::time(nullptr);
  std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

std::string Describe(const GameSpec& spec) {
  return std::string(GameName(spec.game)) + " --ranks " + std::to_string(spec.ranks) + " --suits " +
         std::to_string(spec.suits);
}

}  // namespace

StoreParams NewStoreParams(const GameSpec& spec, Keep keep) {
  StoreParams params;
  params.spec = spec;
  params.format_version = kFormatVersion;
  params.created = NowIso();
  params.keep = keep;
  params.committed_file = true;
  return params;
}

Status CheckParams(const StoreParams& params, const GameSpec& spec, const std::string& dir) {
  if (params.format_version < kOldestReadableFormat || params.format_version > kFormatVersion) {
    return Status::NotSupported("store '" + dir + "' has format " +
                                std::to_string(params.format_version) + ", this build reads " +
                                std::to_string(kOldestReadableFormat) + " to " +
                                std::to_string(kFormatVersion));
  }
  if (params.spec.game != spec.game || params.spec.ranks != spec.ranks ||
      params.spec.suits != spec.suits) {
    return Status::InvalidArgument("store '" + dir + "' holds " + Describe(params.spec) + ", not " +
                                   Describe(spec));
  }
  return Status::OK();
}

Status StoreSpec(FrontierStore* store, GameSpec* spec) {
  StoreParams params;
  bool exists = false;
  Status s = store->GetParams(&params, &exists);
  if (!s.ok()) return s;
  if (!exists) {
    return Status::InvalidArgument("'" + store->dir() +
                                   "' holds no enumeration: it was interrupted before it was "
                                   "started; start it with `eulerdeck run --game G --ranks M "
                                   "--store " +
                                   store->dir() + "`");
  }
  *spec = params.spec;
  return Status::OK();
}

}  // namespace eulerdeck::storage
