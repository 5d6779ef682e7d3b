// The command line of a benchmark that takes no arguments: --help (or -h)
// prints `usage` on stdout, anything else it on stderr as an error.
#ifndef EULERDECK_BENCHMARKS_BENCH_ARGS_H_
#define EULERDECK_BENCHMARKS_BENCH_ARGS_H_

#include <cstdio>
#include <cstring>

namespace eulerdeck::bench {

// True when the only argument is --help or -h.
inline bool AskedForHelp(int argc, char** argv) {
  return argc == 2 && (std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0);
}

// -1 when there are no arguments (run the bench), else the exit status: 0
// after --help, 2 after anything else.
inline int NoArguments(int argc, char** argv, const char* usage) {
  if (argc <= 1) return -1;
  const bool help = AskedForHelp(argc, argv);
  std::fputs(usage, help ? stdout : stderr);
  return help ? 0 : 2;
}

}  // namespace eulerdeck::bench

#endif  // EULERDECK_BENCHMARKS_BENCH_ARGS_H_
