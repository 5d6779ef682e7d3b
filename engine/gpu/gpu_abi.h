/* The C interface between eulerdeck and its GPU plugin, libeulerdeck_gpu.so
 * (gpu_plugin.cu): the plugin is built by nvcc from the walk's headers only
 * (engine/eulerian/stack_walk.h, batch_walk.h) and loaded with dlopen by
 * gpu_worker.cc when a count is asked for --gpu, so that one eulerdeck binary
 * runs everywhere and a machine with a GPU only adds the plugin. The same
 * interface is implemented on the host's threads (host_device.cc), which the
 * tests run. Plain C: no C++ type crosses it. Bump the version with any
 * change of these declarations. */
#ifndef EULERDECK_ENGINE_GPU_GPU_ABI_H_
#define EULERDECK_ENGINE_GPU_GPU_ABI_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* 1: the first; 2: eulerdeck_gpu_open takes the local rank (issue 56). A
 * plugin of another version is refused before any other call. */
#define EULERDECK_GPU_ABI_VERSION 2

/* Return codes of eulerdeck_gpu_count. */
#define EULERDECK_GPU_OK 0
#define EULERDECK_GPU_STOPPED 1 /* *stop became nonzero: the counts are partial */
#define EULERDECK_GPU_ERROR 2   /* the message says what */

/* One batch of subtree roots, all of root_cards cards. */
typedef struct EulerdeckGpuBatch {
  const uint64_t* rule_image; /* a RuleImage (engine/eulerian/rule_core.h) */
  uint64_t rule_words;
  const uint8_t* roots; /* root i: roots[i * root_cards ...], root_cards bytes */
  uint64_t root_count;
  int32_t root_cards;
  uint64_t* level; /* cards + 1 entries: the sub-decks of j cards below the roots, added */
  uint64_t* sizes; /* root_count entries: the sub-decks strictly below root i (written) */
  const volatile int32_t* stop; /* if set, polled while counting: nonzero stops */
} EulerdeckGpuBatch;

/* EULERDECK_GPU_ABI_VERSION of the plugin. */
int eulerdeck_gpu_abi_version(void);
/* Return codes of eulerdeck_gpu_open other than 0 (a plugin may return any
 * other nonzero value: a failure of its own, said in the message). */
#define EULERDECK_GPU_NO_DEVICE 3 /* no GPU here: no NVIDIA driver, or no device */

/* Opens device local_rank modulo the devices the plugin sees (local_rank:
 * the process's rank among those of its node under mpirun, >= 0; 0 for a
 * process alone), for this process: every later call counts on it, from
 * any thread. 0 and, in message, the device's ordinal, how many there are
 * and its description ("device 1 of 4: NVIDIA H100 80GB HBM3, 132 SMs,
 * ..."); or nonzero and why not (EULERDECK_GPU_NO_DEVICE: no GPU at all;
 * else a driver too old, ...). */
int eulerdeck_gpu_open(int local_rank, char* message, size_t message_bytes);
/* Counts a batch on the opened device (one at a time). */
int eulerdeck_gpu_count(const EulerdeckGpuBatch* batch, char* message, size_t message_bytes);
/* Releases the device. */
void eulerdeck_gpu_close(void);

#ifdef __cplusplus
}
#endif

#endif /* EULERDECK_ENGINE_GPU_GPU_ABI_H_ */
