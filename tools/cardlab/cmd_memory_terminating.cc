#include "tools/common/cli.h"
namespace eulerdeck::tools {
int RunMemoryTerminating(const std::vector<std::string>&) { return BadInput("cardlab memory terminating", "not available yet"); }
int RunMemoryCombinatorial(const std::vector<std::string>&) { return BadInput("cardlab memory combinatorial", "not available yet"); }
}
