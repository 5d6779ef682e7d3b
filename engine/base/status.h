// Status: the outcome of an operation that can fail, returned as a value.
//
// Modelled on LevelDB's Status. No exception crosses a layer of eulerdeck:
// engine/ and storage/ report failure through Status; only the tools' main()
// turns a failed Status into one line on stderr and an exit code.
//
// Thread-safety: a const Status may be read from several threads; a Status
// being modified needs external synchronisation.
#ifndef EULERDECK_ENGINE_BASE_STATUS_H_
#define EULERDECK_ENGINE_BASE_STATUS_H_

#include <string>
#include <utility>

namespace eulerdeck {

class [[nodiscard]] Status {
 public:
  enum class Code {
    kOk = 0,
    kInvalidArgument,  // the caller's input is wrong (bad deck, bad parameters)
    kOutOfRange,       // the input is valid but too large for this build
    kCorruption,       // stored data failed a check
    kIOError,          // the operating system refused
    kNoSpace,          // the device is full (an IOError the user can cure)
    kNotSupported,
    kCancelled,  // stopped on request (a signal) at a consistent point
    kInternal,   // an invariant the code relies on did not hold
  };

  Status() = default;  // OK

  static Status OK() { return Status(); }
  static Status InvalidArgument(std::string msg) {
    return Status(Code::kInvalidArgument, std::move(msg));
  }
  static Status OutOfRange(std::string msg) { return Status(Code::kOutOfRange, std::move(msg)); }
  static Status Corruption(std::string msg) { return Status(Code::kCorruption, std::move(msg)); }
  static Status IOError(std::string msg) { return Status(Code::kIOError, std::move(msg)); }
  static Status NoSpace(std::string msg) { return Status(Code::kNoSpace, std::move(msg)); }
  static Status NotSupported(std::string msg) {
    return Status(Code::kNotSupported, std::move(msg));
  }
  static Status Cancelled(std::string msg) { return Status(Code::kCancelled, std::move(msg)); }
  static Status Internal(std::string msg) { return Status(Code::kInternal, std::move(msg)); }

  bool ok() const { return code_ == Code::kOk; }
  bool IsInvalidArgument() const { return code_ == Code::kInvalidArgument; }
  bool IsOutOfRange() const { return code_ == Code::kOutOfRange; }
  bool IsCorruption() const { return code_ == Code::kCorruption; }
  bool IsIOError() const { return code_ == Code::kIOError; }
  bool IsNoSpace() const { return code_ == Code::kNoSpace; }
  bool IsNotSupported() const { return code_ == Code::kNotSupported; }
  bool IsCancelled() const { return code_ == Code::kCancelled; }
  Code code() const { return code_; }
  const std::string& message() const { return message_; }

  // "OK", or the message alone: callers prefix the context they know.
  std::string ToString() const { return ok() ? "OK" : message_; }

 private:
  Status(Code code, std::string msg) : code_(code), message_(std::move(msg)) {}

  Code code_ = Code::kOk;
  std::string message_;
};

}  // namespace eulerdeck

#endif  // EULERDECK_ENGINE_BASE_STATUS_H_
