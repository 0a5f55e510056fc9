// Header-only module: LLVMFuzzerRunDriver is defined by libFuzzer's runtime.
#include "CLibFuzzer.h"
