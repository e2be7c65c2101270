#ifndef HEATMAPKIT_CPOSTGRES_SHIM_H
#define HEATMAPKIT_CPOSTGRES_SHIM_H
#include <libpq-fe.h>
#endif
