// A store's parameters (StoreParams, frontier_store.h) as every job that
// keeps its work in a store makes and checks them: the stored run
// (storage/run/) and the resumable count (storage/count/) alike.
#ifndef EULERDECK_STORAGE_STORE_PARAMS_H_
#define EULERDECK_STORAGE_STORE_PARAMS_H_

#include <string>

#include "engine/base/status.h"
#include "engine/cards/game.h"
#include "storage/store/frontier_store.h"

namespace eulerdeck::storage {

// The parameters of a new store of `spec`: this build's format, created now.
StoreParams NewStoreParams(const GameSpec& spec, Keep keep);

// OK when a store with `params` (in `dir`, for messages) can take the
// enumeration of `spec`: NotSupported for another format, InvalidArgument
// for another game.
Status CheckParams(const StoreParams& params, const GameSpec& spec, const std::string& dir);

// The spec a store was created with (for `resume`, which takes no game).
// InvalidArgument when the store holds no parameters.
Status StoreSpec(FrontierStore* store, GameSpec* spec);

}  // namespace eulerdeck::storage

#endif  // EULERDECK_STORAGE_STORE_PARAMS_H_
