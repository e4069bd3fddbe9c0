#!/bin/sh
# Stands in for tick when generate-manual runs `TOOL --experimental-dump-help`:
# swift-argument-parser 1.8's generate-manual drops every non-ASCII character
# from help texts ("…", "·"), so each one is passed through as TICKU<hex>U,
# which scripts/man-polish.sh turns into the groff escape \[u<hex>].
#   TICK_DUMP_BIN=.build/release/tick generate-manual scripts/dump-help-ascii.sh ...
set -eu
"${TICK_DUMP_BIN:?set TICK_DUMP_BIN to the tick binary}" "$@" \
    | perl -CS -pe 's/([^\x00-\x7F])/sprintf("TICKU%04XU", ord($1))/ge'
