#include "storage/fault_injection.h"

#include <rocksdb/env.h>

namespace eulerdeck::storage {

rocksdb::Env* FaultInjection::env() { return rocksdb::Env::Default(); }

}  // namespace eulerdeck::storage
