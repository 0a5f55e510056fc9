#include <stddef.h>
#include <stdint.h>

/// libFuzzer's driver: parses libFuzzer's flags from argv and calls `callback` with each input.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
