#include "storage/store/format.h"

namespace eulerdeck::storage {

namespace {
void PutBigEndian(std::string* out, uint64_t v, int bytes) {
  for (int i = bytes - 1; i >= 0; --i) out->push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}
uint64_t GetBigEndian(std::string_view in, int bytes) {
  uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v = (v << 8) | static_cast<uint8_t>(in[i]);
  return v;
}
}  // namespace

std::string BlockKey(int level, uint64_t ordinal, uint32_t seq) {
  std::string key = BlockKeyFrom(level, ordinal);
  PutBigEndian(&key, seq, 4);
  return key;
}

std::string BlockKeyFrom(int level, uint64_t ordinal) {
  std::string key(1, kBlockTag);
  key.push_back(static_cast<char>(level));
  PutBigEndian(&key, ordinal, 8);
  return key;
}

std::string BlockKeyEnd(int level) {
  std::string key(1, kBlockTag);
  key.push_back(static_cast<char>(level + 1));
  return key;
}

bool ParseBlockKey(std::string_view key, int* level, uint64_t* ordinal, uint32_t* seq) {
  if (key.size() != 14 || key[0] != kBlockTag) return false;
  *level = static_cast<uint8_t>(key[1]);
  *ordinal = GetBigEndian(key.substr(2), 8);
  *seq = static_cast<uint32_t>(GetBigEndian(key.substr(10), 4));
  return true;
}

std::string LevelKey(int level) {
  std::string key(1, kLevelTag);
  key.push_back(static_cast<char>(level));
  return key;
}

std::string CountKey(uint32_t block, uint32_t first) {
  std::string key(1, kCountTag);
  PutBigEndian(&key, block, 4);
  PutBigEndian(&key, first, 4);
  return key;
}

bool ParseCountKey(std::string_view key, uint32_t* block, uint32_t* first) {
  if (key.size() != 9 || key[0] != kCountTag) return false;
  *block = static_cast<uint32_t>(GetBigEndian(key.substr(1), 4));
  *first = static_cast<uint32_t>(GetBigEndian(key.substr(5), 4));
  return true;
}

}  // namespace eulerdeck::storage
