#!/usr/bin/env bash
# The API documentation of the HeatmapKit product with the toolchain's DocC (no plugin): the module's symbol graph,
# then `docc convert` over Sources/HeatmapKit/HeatmapKit.docc. Any warning (a missing or broken symbol link, an
# unknown article) fails it.
#
# usage: scripts/docs/build-docc.sh [OUTPUT.doccarchive]   (default .build/docs/HeatmapKit.doccarchive)
# The symbol graphs are built in their own scratch folder (.build/docc), so the flags do not invalidate the
# ordinary build.
set -euo pipefail
cd "$(dirname "$0")/../.."

OUTPUT=${1:-.build/docs/HeatmapKit.doccarchive}
SCRATCH=.build/docc
GRAPHS=$SCRATCH/symbol-graphs
MODULE_GRAPHS=$SCRATCH/heatmapkit-symbol-graphs

DOCC=$(command -v docc || true)
if [ -z "$DOCC" ]; then
    DOCC=$(dirname "$(readlink -f "$(command -v swift)")")/docc
fi
[ -x "$DOCC" ] || { echo "build-docc: no docc in the toolchain beside $(command -v swift)" >&2; exit 1; }

# The compiler writes a module's graph when it compiles the module, so the graphs of an earlier run stay in $GRAPHS
# for a build that has nothing to do (they are then this source's). `rm -rf .build/docc` starts afresh, as CI does.
rm -rf "$MODULE_GRAPHS"
mkdir -p "$GRAPHS" "$MODULE_GRAPHS" "$(dirname "$OUTPUT")"
swift build --scratch-path "$SCRATCH" --target HeatmapKit \
    -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$PWD/$GRAPHS"
# Only HeatmapKit's own graphs (and its extensions of other modules' types): the catalog documents one module.
[ -f "$GRAPHS"/HeatmapKit.symbols.json ] || { echo "build-docc: no symbol graph of HeatmapKit in $GRAPHS" >&2; exit 1; }
cp "$GRAPHS"/HeatmapKit.symbols.json "$MODULE_GRAPHS"/
cp "$GRAPHS"/HeatmapKit@*.symbols.json "$MODULE_GRAPHS"/ 2>/dev/null || true

LOG=$SCRATCH/docc.log
rm -rf "$OUTPUT"
"$DOCC" convert Sources/HeatmapKit/HeatmapKit.docc \
    --additional-symbol-graph-dir "$MODULE_GRAPHS" \
    --fallback-display-name HeatmapKit --fallback-bundle-identifier org.heatmapkit.HeatmapKit \
    --output-path "$OUTPUT" --warnings-as-errors 2>&1 | tee "$LOG"
status=${PIPESTATUS[0]}
if [ "$status" -ne 0 ] || grep -q 'warning:' "$LOG"; then
    echo "build-docc: docc reported warnings or errors (above)" >&2
    exit 1
fi
echo "build-docc: $OUTPUT"
