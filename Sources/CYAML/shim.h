// libyaml's event parser, for the `ipcurl check` targets file.
// Swift calls yaml.h directly (its functions take no variadic arguments and its unions import as structs),
// so the shim only includes it; `cyaml_` helpers go here should a macro or variadic call ever be needed.
#ifndef CYAML_SHIM_H
#define CYAML_SHIM_H

#include <yaml.h>

#endif
