// FaultInjection: a simulator of power cuts for the durability tests (in the
// spirit of RocksDB's FaultInjectionTestFS). Being written; for now it passes
// every operation to the default environment.
#ifndef EULERDECK_STORAGE_FAULT_INJECTION_H_
#define EULERDECK_STORAGE_FAULT_INJECTION_H_

namespace rocksdb {
class Env;
}

namespace eulerdeck::storage {

class FaultInjection {
 public:
  rocksdb::Env* env();
};

}  // namespace eulerdeck::storage

#endif  // EULERDECK_STORAGE_FAULT_INJECTION_H_
