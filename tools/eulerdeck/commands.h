// The subcommands of `eulerdeck`. Each takes its own arguments (after the
// subcommand name) and returns the process exit status.
#ifndef EULERDECK_TOOLS_EULERDECK_COMMANDS_H_
#define EULERDECK_TOOLS_EULERDECK_COMMANDS_H_

#include <string>
#include <vector>

namespace eulerdeck::tools {

int RunPlay(const std::vector<std::string>& args);
int RunReform(const std::vector<std::string>& args);
int RunRebuild(const std::vector<std::string>& args);
int RunBest(const std::vector<std::string>& args);
int RunOeis(const std::vector<std::string>& args);
int RunBrute(const std::vector<std::string>& args);
// `program` prefixes the error lines: "eulerdeck resume" when resume hands
// a count store on (the JSON's "command" stays the job's own).
int RunCount(const std::vector<std::string>& args, const std::string& program = "eulerdeck count");
int RunCountRemoved(const std::vector<std::string>& args,  // count --removed
                    const std::string& program = "eulerdeck count");
int RunReformStats(const std::vector<std::string>& args,
                   const std::string& program = "eulerdeck reform-stats");
int RunReformSearch(const std::vector<std::string>& args);
int RunEstimate(const std::vector<std::string>& args);
int RunRun(const std::vector<std::string>& args);
int RunResume(const std::vector<std::string>& args);
int RunStatus(const std::vector<std::string>& args);
int RunInspect(const std::vector<std::string>& args);
int RunExport(const std::vector<std::string>& args);
int RunImport(const std::vector<std::string>& args);
int RunVerify(const std::vector<std::string>& args);
int RunList(const std::vector<std::string>& args);

}  // namespace eulerdeck::tools

#endif  // EULERDECK_TOOLS_EULERDECK_COMMANDS_H_
