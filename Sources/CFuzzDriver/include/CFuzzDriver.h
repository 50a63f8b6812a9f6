#ifndef PLUMB_CFUZZDRIVER_H
#define PLUMB_CFUZZDRIVER_H
#include <stddef.h>
#include <stdint.h>
/// libFuzzer's driver entry point; only linked when built with -sanitize=fuzzer (see Scripts/fuzz).
int LLVMFuzzerRunDriver(int *argc, char ***argv,
                        int (*UserCb)(const uint8_t *Data, size_t Size));
#endif
