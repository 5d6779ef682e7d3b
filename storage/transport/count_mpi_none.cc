// count_mpi.h for a build without MPI: a world of one process.
#include "storage/transport/count_mpi.h"

namespace eulerdeck::storage {

bool MpiBuilt() { return false; }
int MpiStart(int*, char***) { return 0; }
int MpiWorldSize() { return 1; }
int MpiLocalRank() { return 0; }
Status MpiServe(const std::atomic<bool>*, const DeviceOpener&) { return Status::OK(); }
void MpiFinish(int) {}

Status MpiOpenDevices(const Status& mine, const std::string& description,
                      std::vector<std::string>* lines) {
  lines->clear();
  if (!mine.ok()) return mine;
  lines->push_back(description);
  return Status::OK();
}

Status CountStoreMpi(FrontierStore* store, const GameSpec& spec, const CountStoreOptions& options,
                     CountResult* result) {
  return CountStore(store, spec, options, result);
}

Status RemovedStoreMpi(FrontierStore* store, const RemovedPlan& plan,
                       const RemovedStoreOptions& options, uint64_t memo_entries,
                       RemovedResult* result) {
  return RemovedStore(store, plan, options, result, nullptr, memo_entries);
}

Status ReformSearchMpi(const GameSpec& spec, const ReformSearchOptions& options,
                       ReformSearchResult* result) {
  return ReformSearch(spec, options, result);
}

}  // namespace eulerdeck::storage
